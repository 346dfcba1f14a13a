import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from '../support/journey.ts';
import { storedMedia } from '../support/media.ts';
import { MEDIA_TAG } from '../support/portals.ts';
import { scrollThrough } from '../support/scroll.ts';

// The first visit of a page waits for its content on a machine that may be busy.
const expect = baseExpect.configure({ timeout: 15_000 });

test.use({ locale: 'en-GB', viewport: { width: 375, height: 812 } });
test.describe.configure({ timeout: 120_000 });

/** Errors the page logs while the journey runs. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/**
 * The loaded pictures drawn at less than half their own width: fetched larger than the screen can
 * show at this pixel density, bytes a phone downloads for nothing.
 */
async function oversizedPictures(page: Page): Promise<string[]> {
  return page.locator('img').evaluateAll((imgs) =>
    (imgs as HTMLImageElement[])
      .filter((img) => img.complete && img.naturalWidth > 0)
      .map((img) => ({ src: img.currentSrc, natural: img.naturalWidth, drawn: img.getBoundingClientRect().width }))
      .filter((p) => p.drawn > 0 && p.natural > 2 * p.drawn)
      .map((p) => `${p.src}: ${p.natural} px wide, drawn at ${Math.round(p.drawn)}`),
  );
}

test.describe('pictures sized for their box on a phone', () => {
  test('the dashboard fetches its hero and posters no larger than drawn, without errors', async ({ page }) => {
    const errors = consoleErrors(page);
    await page.goto('/');
    const hero = page.getByTestId('dashboard-hero').locator('img.hero-image');
    await expect(hero).toHaveJSProperty('complete', true);
    expect(await hero.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/[?&]w=\d+$/);
    const rows = page.getByRole('main').locator('section[aria-labelledby^="collection-"]');
    await expect(rows.first().getByRole('img').first()).toBeVisible();
    await scrollThrough(page);
    const loaded = await page
      .locator('img')
      .evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).filter((img) => img.complete && img.naturalWidth > 0).map((img) => img.currentSrc),
      );
    expect(loaded.filter((src) => /\/media\/thumb\/\d+\?.*w=400/.test(src)).length).toBeGreaterThan(0);
    expect(await oversizedPictures(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('the search results are fetched no larger than drawn, without errors', { tag: MEDIA_TAG }, async ({ page }) => {
    const errors = consoleErrors(page);
    await page.goto('/#/search/*');
    const results = page.getByRole('region', { name: 'Results', exact: true });
    await expect(results.locator('img[src]').first()).toBeVisible();
    await scrollThrough(page, results);
    await scrollThrough(page);
    expect(await results.locator('img[src]').count()).toBeGreaterThan(4);
    // The thumbnails were made on import into the store; the widths between are made from them.
    expect((await storedMedia('derivatives')).filter((name) => name.endsWith('/thumb.webp')).length).toBeGreaterThan(4);
    expect(await oversizedPictures(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
