import { afterAll, beforeAll } from 'vitest';

/**
 * jsdom lays nothing out: the results area (the element with `data-view`) gets the size a browser
 * would give it, so the virtual list has rows to render. Call at the top of a test file.
 */
export function layOutResults(layout = { clientWidth: 1000, clientHeight: 800 }): void {
  const original = Object.fromEntries(
    Object.keys(layout).map((k) => [k, Object.getOwnPropertyDescriptor(Element.prototype, k)]),
  );
  beforeAll(() => {
    for (const [key, size] of Object.entries(layout)) {
      Object.defineProperty(HTMLElement.prototype, key, {
        configurable: true,
        get(this: HTMLElement) {
          return this.dataset.view ? size : 0;
        },
      });
    }
  });
  afterAll(() => {
    for (const key of Object.keys(layout)) {
      delete (HTMLElement.prototype as unknown as Record<string, unknown>)[key];
      const d = original[key];
      if (d) Object.defineProperty(Element.prototype, key, d);
    }
  });
}
