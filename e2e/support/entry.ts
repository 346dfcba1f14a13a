import type { Page } from '@playwright/test';

/**
 * A first visit on a slow connection: the app's entry module is held back until `release` is
 * called, so what the page paints before its code runs stays on screen while the test looks at it,
 * however long a busy machine takes to draw it (a timed delay lost that race on a loaded machine).
 */
export async function holdEntryModule(page: Page): Promise<{ release: () => void; released: () => boolean }> {
  let release = () => {};
  let done = false;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/index-*.js', async (route) => {
    await gate;
    done = true;
    await route.continue();
  });
  return { release, released: () => done };
}
