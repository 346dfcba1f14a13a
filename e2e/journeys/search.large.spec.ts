import { expect, test } from '../support/journey.ts';

test.use({ locale: 'en-GB', viewport: { width: 1400, height: 1000 } });

/** Result elements in the DOM never exceed this, however many results are loaded. */
const DOM_BOUND = 250;

test.describe('search on 10,000 assets (portal-spec §4 "Search": infinite scroll)', () => {
  for (const view of ['Posters', 'Thumbnails', 'List'] as const) {
    test(`${view}: scrolling loads further pages and the DOM stays bounded`, async ({ page }) => {
      const starts: number[] = [];
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.pathname.endsWith('/api/search')) starts.push(Number(url.searchParams.get('solr_start') ?? 0));
      });
      await page.goto('/#/search/*');
      await expect(page.getByRole('heading', { level: 2 })).toHaveText(/^\d{4,} results/, { timeout: 60_000 });
      await page.getByRole('button', { name: view, exact: true }).click();
      const region = page.getByRole('region', { name: 'Results' });
      await expect(region.locator('[data-asset-id]').first()).toBeVisible();
      let maxInDom = 0;
      for (let i = 0; i < 40; i++) {
        await region.evaluate((el) => el.scrollBy(0, el.clientHeight * 2));
        await page.waitForTimeout(150);
        maxInDom = Math.max(maxInDom, await region.locator('[data-asset-id]').count());
      }
      await expect.poll(() => starts.filter((s) => s > 0).length).toBeGreaterThan(5);
      const furthest = Math.max(...starts);
      expect(furthest).toBeGreaterThan(200);
      test.info().annotations.push({
        type: 'figures',
        description: `furthest start ${furthest}, most results in the DOM ${maxInDom}`,
      });
      expect(maxInDom).toBeGreaterThan(0);
      expect(maxInDom).toBeLessThanOrEqual(DOM_BOUND);
    });
  }
});
