import type { Locator, Page } from '@playwright/test';
import { demoAssetId } from '../support/catalogue.ts';
import { holdEntryModule } from '../support/entry.ts';
import { expect as baseExpect, test } from '../support/journey.ts';

// The first visit of a page waits for its answers on a machine that may be busy.
const expect = baseExpect.configure({ timeout: 15_000 });

test.use({ locale: 'en-GB' });

/**
 * A first visit on a slow connection (the app's entry module held back until `release`). Answers
 * the console errors the page logs and each API call it makes (method, path and query).
 */
async function slowFirstVisit(page: Page): Promise<{ errors: string[]; calls: string[]; release: () => void }> {
  const errors: string[] = [];
  const calls: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/assetportal/api/')) calls.push(`${r.method()} ${url.pathname}${url.search}`);
  });
  const { release } = await holdEntryModule(page);
  return { errors, calls, release };
}

/** The boxes of these elements, in order. */
const boxesOf = async (locators: Locator[]) => Promise.all(locators.map((l) => l.boundingBox()));

/** No call made twice: the app took the answers the page's script asked for. */
const repeated = (calls: string[]) => calls.filter((c, i) => calls.indexOf(c) !== i);

test.describe("the page's first paint of an asset and of a phone's search (decision 0244)", () => {
  for (const size of [
    { width: 375, height: 812 },
    { width: 1350, height: 900 },
  ]) {
    test(`an asset's page at ${size.width} px paints its title and preview before the app's code runs; the app's take their boxes`, async ({
      page,
      request,
    }) => {
      const id = await demoAssetId(request, 'image', 'yellow_rose.lossy.webp');
      await page.setViewportSize(size);
      const { errors, calls, release } = await slowFirstVisit(page);
      await page.goto(`/#/asset/${id}`);
      const painted = page.locator('#vt-first-paint[data-page="asset"]');
      const picture = painted.locator('img.vt-asset-frame');
      await expect(picture).toHaveJSProperty('complete', true);
      await expect(painted.locator('h1')).toHaveText('Yellow rose');
      await expect(painted.getByText('Back', { exact: true })).toBeVisible();
      const before = await boxesOf([painted.locator('h1'), picture, painted.getByText('Back', { exact: true })]);
      // The app's page is drawn behind it, hidden until then.
      await expect(page.getByRole('heading', { level: 1, name: 'Yellow rose' })).toBeHidden();

      release();
      await expect(page.locator('#vt-first-paint')).toHaveCount(0);
      const article = page.getByRole('main').locator('article');
      const after = await boxesOf([
        article.getByRole('heading', { level: 1, name: 'Yellow rose' }),
        article.locator('img.vt-asset-frame'),
        article.getByRole('button', { name: 'Back' }),
      ]);
      expect(after).toEqual(before);
      await expect(article.getByRole('button', { name: 'Download' })).toBeVisible();
      expect(repeated(calls)).toEqual([]);
      expect(calls.filter((c) => /\/(session\/get|assets|download\/preview)\?|session\/get$/.test(c))).toHaveLength(3);
      expect(errors).toEqual([]);
    });
  }

  for (const locale of ['en-GB', 'de-DE']) {
    test.describe(locale, () => {
      test.use({ locale, viewport: { width: 375, height: 812 }, hasTouch: true });
      test(`a phone's search page paints its bar and first posters before the app's code runs; the app's take their boxes`, async ({
        page,
      }) => {
        const { errors, calls, release } = await slowFirstVisit(page);
        await page.goto('/#/search/*');
        const painted = page.locator('#vt-first-paint[data-page="search"]');
        const first = painted.locator('.vt-results img').first();
        await expect(first).toHaveJSProperty('complete', true);
        const posters = await painted.locator('.vt-results img').count();
        await expect(painted.locator('h2')).toHaveText(locale === 'en-GB' ? /^\d+ results$/ : /^\d+ Ergebnisse$/);
        const bar = painted.locator('.vt-results-bar > *');
        const before = await boxesOf([
          painted.locator('.vt-fp-input'),
          painted.locator('h2'),
          ...(await bar.all()).slice(1),
          painted.locator('.vt-results-column > .vt-button'),
          painted.locator('.vt-results'),
          first,
        ]);
        // Only the posters in view are asked for.
        expect(posters).toBeGreaterThan(0);
        expect(posters).toBeLessThanOrEqual(4);

        release();
        await expect(page.locator('#vt-first-paint')).toHaveCount(0);
        const main = page.getByRole('main');
        const results = main.getByRole('region', { name: /^(Results|Ergebnisse)$/ });
        const heading = main.locator('h2[data-tour="result"]');
        const appBar = heading.locator('..').locator(':scope > button, :scope > [role="group"]');
        const after = await boxesOf([
          main.locator('form').first(),
          heading,
          ...(await appBar.all()),
          main.locator('.vt-results-column > button'),
          results,
          results.locator('img').first(),
        ]);
        expect(after).toEqual(before);
        expect(repeated(calls)).toEqual([]);
        expect(calls.filter((c) => c.startsWith('GET /assetportal/api/search?'))).toHaveLength(1);
        expect(errors).toEqual([]);
      });
    });
  }

  test("a search on a wide screen, and in a phone's list view, is drawn by the app alone", async ({ page }) => {
    // Every first paint the page shows, by its page.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { firstPaints: string[] }).firstPaints = seen;
      new MutationObserver(() => {
        const shown = document.getElementById('vt-first-paint');
        if (shown && !seen.includes(shown.dataset.page ?? '')) seen.push(shown.dataset.page ?? '');
      }).observe(document, { childList: true, subtree: true });
    });
    const firstPaints = () => page.evaluate(() => (window as unknown as { firstPaints: string[] }).firstPaints);
    await page.setViewportSize({ width: 1350, height: 900 });
    await page.goto('/#/search/*');
    const results = page.getByRole('region', { name: 'Results', exact: true });
    await expect(results.locator('img').first()).toBeVisible();
    expect(await firstPaints()).toEqual([]);

    // The list view, chosen in this tab, on a phone.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.evaluate(() => sessionStorage.setItem('vitrine.searchView', 'list'));
    await page.goto('about:blank');
    await page.goto('/#/search/*');
    await expect(page.getByRole('table', { name: 'Results' })).toBeVisible();
    expect(await firstPaints()).toEqual([]);
  });
});
