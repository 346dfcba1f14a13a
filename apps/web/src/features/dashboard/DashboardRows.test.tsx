import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Collection } from '@vitrine/contract/collection';
import { api, server } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { ROW_MARGIN } from './DashboardPage.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A stand-in for the browser's IntersectionObserver: the test says which elements come near. */
class TestIntersectionObserver {
  static all: TestIntersectionObserver[] = [];
  targets = new Set<Element>();
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    TestIntersectionObserver.all.push(this);
  }
  observe(el: Element) {
    this.targets.add(el);
  }
  unobserve(el: Element) {
    this.targets.delete(el);
  }
  disconnect() {
    this.targets.clear();
  }
  static comeNear(el: Element) {
    for (const o of TestIntersectionObserver.all.filter((x) => x.targets.has(el))) {
      const entry = { target: el, isIntersecting: true } as IntersectionObserverEntry;
      o.callback([entry], o as unknown as IntersectionObserver);
    }
  }
}

beforeEach(() => {
  TestIntersectionObserver.all = [];
  vi.stubGlobal('IntersectionObserver', TestIntersectionObserver);
});
afterEach(() => vi.unstubAllGlobals());

const collections: Collection[] = ['One', 'Two', 'Three'].map((label, i) => ({
  indicator: `collection_${i + 1}`,
  label,
  position: i,
}));

function catalogue() {
  const requested: string[] = [];
  server.use(
    http.get(api('collection'), () => HttpResponse.json({ collections })),
    http.get(api('collection/get'), ({ request }) => {
      const id = new URL(request.url).searchParams.get('collection') ?? '';
      requested.push(id);
      const docs = [{ id: `${id}-a`, url: `/media/thumb/${id}`, pixel_x: 400, pixel_y: 300, title: `${id} a` }];
      return HttpResponse.json({ response: { docs, numFound: 1 } });
    }),
  );
  return requested;
}

describe('dashboard rows load as they come near (issue #28)', () => {
  it('fetches a row only once it comes within a screen of the viewport; till then it keeps its height', async () => {
    const requested = catalogue();
    await renderApp('/');
    const two = await screen.findByRole('region', { name: 'Two' });
    // The heading and the list are there for assistive technology; the posters are not fetched.
    expect(within(two).getByRole('heading', { level: 2, name: 'Two' })).toBeInTheDocument();
    const list = within(two).getByRole('list', { name: 'Two' });
    expect(list).toHaveAttribute('aria-busy', 'true');
    // The skeleton is as high as the posters with their borders (collection height 250, border 2).
    expect(within(two).getByRole('progressbar', { name: 'Loading…' })).toHaveStyle({ height: '254px' });
    await new Promise((r) => setTimeout(r, 50));
    expect(requested).toEqual([]);
    expect(TestIntersectionObserver.all.every((o) => o.options.rootMargin === ROW_MARGIN)).toBe(true);

    act(() => TestIntersectionObserver.comeNear(two));
    expect(await within(two).findByRole('img', { name: 'collection_2 a' })).toBeInTheDocument();
    expect(requested).toEqual(['collection_2']);
    expect(list).toHaveAttribute('aria-busy', 'false');
  });

  it('loads a row the keyboard focus reaches before it has come into view', async () => {
    const requested = catalogue();
    await renderApp('/');
    const three = await screen.findByRole('region', { name: 'Three' });
    within(three).getByRole('list', { name: 'Three' }).focus();
    await waitFor(() => expect(requested).toEqual(['collection_3']));
    expect(await within(three).findByRole('link', { name: 'More results of Three' })).toBeInTheDocument();
  });

  it('reaches every row with Tab, loaded or not', async () => {
    catalogue();
    await renderApp('/');
    const three = await screen.findByRole('region', { name: 'Three' });
    const list = within(three).getByRole('list', { name: 'Three' });
    for (let i = 0; i < 40 && document.activeElement !== list; i++) await userEvent.tab();
    expect(list).toHaveFocus();
  });
});
