import type { Locator, Page } from '@playwright/test';

/**
 * Scrolls `scroller` (the page itself when none) to its end in steps, letting what loads near the
 * screen (pictures, the dashboard's rows) load on the way.
 */
export async function scrollThrough(page: Page, scroller?: Locator): Promise<void> {
  for (let step = 0; step < 40; step++) {
    const atEnd = await (scroller ?? page.locator('html')).evaluate((el) => {
      const box = el === document.documentElement ? (document.scrollingElement ?? el) : el;
      box.scrollBy(0, window.innerHeight * 0.8);
      return box.scrollTop + box.clientHeight >= box.scrollHeight - 2;
    });
    await page.waitForTimeout(150);
    if (atEnd) break;
  }
  await page.waitForLoadState('networkidle');
}
