import type { Page } from '@playwright/test';
import { holdEntryModule } from '../support/entry.ts';
import { expect, test } from '../support/journey.ts';
import { seriousViolations } from '../support/axe.ts';

/** The texts a visitor reads, per interface language (packages/contract translations). */
const languages = [
  {
    locale: 'en-GB',
    search: 'Search',
    results: (n: number) => new RegExp(`^${n} results?\\b`),
    anyResults: /^(\d+) results?\b/,
    category: 'Category',
    photography: 'Photography',
    created: 'Created',
    sortBy: /^Sort by/,
    relevance: /^Relevance/,
    views: { thumbnail: 'Thumbnails', list: 'List', grid: 'Posters' },
    reset: 'Reset filters',
    selected: (n: number) => `${n} selected`,
    word: 'rose',
    details: /^Details of /,
  },
  {
    locale: 'de-DE',
    search: 'Suche',
    results: (n: number) => new RegExp(`^${n} Ergebnis(se)?\\b`),
    anyResults: /^(\d+) Ergebnis(se)?\b/,
    category: 'Kategorie',
    photography: 'Fotografie',
    created: 'Erstellt',
    sortBy: /^Sortieren nach/,
    relevance: /^Relevanz/,
    views: { thumbnail: 'Kacheln', list: 'Liste', grid: 'Poster' },
    reset: 'Filter zurücksetzen',
    selected: (n: number) => `${n} ausgewählt`,
    word: 'rose',
    details: /^Details zu /,
  },
] as const;

const heading = (page: Page) => page.getByRole('heading', { level: 2 });
const results = (page: Page) => page.locator('[data-asset-id]');

/** The total the results heading names, once it names one (other than `previous`, when given). */
async function total(page: Page, pattern: RegExp, previous?: number): Promise<number> {
  let n = NaN;
  await expect
    .poll(
      async () => {
        const m = pattern.exec((await heading(page).textContent()) ?? '');
        n = m ? Number(m[1]) : NaN;
        return !Number.isNaN(n) && n !== previous;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return n;
}

for (const l of languages) {
  test.describe(`search page in ${l.locale} (portal-spec §2 "Search", §4 "Search")`, () => {
    test.use({ locale: l.locale, viewport: { width: 1400, height: 1000 } });

    test('search a word; the route carries the trimmed text', async ({ page }) => {
      await page.goto('/#/search/*');
      const all = await total(page, l.anyResults);
      const input = page.getByRole('search').getByRole('combobox', { name: l.search });
      await input.fill(`  ${l.word} `);
      await input.press('Enter');
      await expect(page).toHaveURL(new RegExp(`#/search/${l.word}$`));
      const found = await total(page, l.anyResults, all);
      expect(found).toBeGreaterThan(0);
      expect(found).toBeLessThan(all);
      await expect(heading(page)).toContainText(l.word);
    });

    test('§4 facet update: select and deselect a value; counts, results and the URL follow; reload keeps them', async ({
      page,
    }) => {
      await page.goto('/#/search/*');
      const all = await total(page, l.anyResults);
      const facet = page.getByRole('group', { name: l.category });
      const box = facet.getByRole('checkbox', { name: new RegExp(`^${l.photography}`) });
      const count = Number(
        /\((\d+)\)/.exec((await facet.getByText(l.photography).locator('..').textContent()) ?? '')?.[1],
      );
      expect(count).toBeGreaterThan(0);
      await box.click();
      await expect(box).toBeChecked();
      await expect(page).toHaveURL(new RegExp(`%2Bcategory=${l.photography}`));
      await expect(heading(page)).toHaveText(l.results(count));
      await page.reload();
      await expect(heading(page)).toHaveText(l.results(count), { timeout: 15_000 });
      await expect(
        page.getByRole('group', { name: l.category }).getByRole('checkbox', { name: new RegExp(`^${l.photography}`) }),
      ).toBeChecked();
      await page
        .getByRole('group', { name: l.category })
        .getByRole('checkbox', { name: new RegExp(`^${l.photography}`) })
        .click();
      await expect(heading(page)).toHaveText(l.results(all));
      await expect(page).toHaveURL(/#\/search\/\*$/);
    });

    test('§5 a date slider narrows the results to a range and writes it to the URL', async ({ page }) => {
      await page.goto('/#/search/*');
      const all = await total(page, l.anyResults);
      const facet = page.getByRole('group', { name: l.created });
      const from = facet.getByRole('slider').first();
      await from.focus();
      await from.press('End');
      await expect(page).toHaveURL(/%2Bcreated=\d+\+TO\+\d+/);
      const narrowed = await total(page, l.anyResults, all);
      expect(narrowed).toBeLessThan(all);
      expect(narrowed).toBeGreaterThan(0);
    });

    test('§4 sort: the active key toggles its orientation', async ({ page }) => {
      await page.goto('/#/search/*');
      await total(page, l.anyResults);
      const asked = page.waitForRequest((r) => r.url().includes('/search?') && r.url().includes('solr_sort=score+asc'));
      await page.getByRole('button', { name: l.sortBy }).click();
      await page.getByRole('menuitem', { name: l.relevance }).click();
      await asked;
      await expect(page.getByRole('button', { name: l.sortBy })).toContainText(
        l.locale === 'de-DE' ? 'Aufsteigend' : 'Ascending',
      );
    });

    test('each view shows the results; shift click selects a range; the info panel opens under its row', async ({
      page,
    }) => {
      await page.goto('/#/search/*');
      await total(page, l.anyResults);
      for (const view of [l.views.thumbnail, l.views.list, l.views.grid]) {
        await page.getByRole('button', { name: view, exact: true }).click();
        await expect(page.getByRole('button', { name: view, exact: true })).toHaveAttribute('aria-pressed', 'true');
        await expect(results(page).first()).toBeVisible();
        await expect
          .poll(() =>
            results(page)
              .first()
              .getByRole('img')
              .evaluate((i) => (i as HTMLImageElement).naturalWidth),
          )
          .toBeGreaterThan(0);
      }
      const buttons = page.locator('[data-result-button]');
      await buttons.nth(0).click();
      await expect(page.getByRole('region', { name: l.details })).toBeVisible();
      await buttons.nth(3).click({ modifiers: ['Shift'] });
      await expect(page.getByText(l.selected(4), { exact: true })).toBeVisible();
      for (let i = 0; i < 4; i++) await expect(buttons.nth(i)).toHaveAttribute('aria-pressed', 'true');
      await expect(buttons.nth(4)).toHaveAttribute('aria-pressed', 'false');
    });

    test('reset clears filters and text and goes to /search/*', async ({ page }) => {
      await page.goto(`/#/search/${l.word}?%2Bcategory=${l.photography}`);
      await total(page, l.anyResults);
      await page.getByRole('button', { name: l.reset }).click();
      await expect(page).toHaveURL(/#\/search\/\*$/);
      await expect(page.getByRole('button', { name: l.reset })).toHaveCount(0);
    });
  });
}

test.describe('search page accessibility (axe-core)', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const device of [
      { name: 'desktop', viewport: { width: 1400, height: 1000 } },
      { name: 'phone', viewport: { width: 390, height: 844 } },
    ]) {
      test(`no serious or critical violation with the info panel open: ${theme}, ${device.name}`, async ({ page }) => {
        // axe walks every element of a full results page: on a busy 2-core machine that alone can take 30 s.
        test.slow();
        await page.setViewportSize(device.viewport);
        await page.emulateMedia({ colorScheme: theme });
        await page.goto('/#/search/*');
        await total(page, /^(\d+) results/);
        await page.locator('[data-result-button]').first().click();
        await expect(page.getByRole('region', { name: /^Details of / })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      });
    }
  }
});

test.describe('scroll position, view and sort (portal-spec §2 "Search": kept when going to an asset, restored after 250 ms)', () => {
  test.use({ locale: 'en-GB', viewport: { width: 1400, height: 1000 } });

  test('going to an asset and back restores the chosen view and sort and where the visitor was in the results', async ({
    page,
  }) => {
    // The first page of a server just started can take most of a minute on a busy 2-core machine.
    test.slow();
    await page.goto('/#/search/*');
    // The first search after the server started may still be building its index.
    await expect(page.getByRole('heading', { level: 2, name: /^\d+ results/ })).toBeVisible({ timeout: 60_000 });
    const region = page.getByRole('region', { name: 'Results' });
    await expect(results(page).first()).toBeVisible();
    await page.getByRole('button', { name: 'Thumbnails', exact: true }).click();
    await page.getByRole('button', { name: /^Sort by/ }).click();
    await page.getByRole('menuitem', { name: 'Rating' }).click();
    await expect(page).toHaveURL(/#\/search\/\*\?sort=rating&orientation=desc$/);
    await expect(region).toHaveAttribute('data-view', 'thumbnail');
    await expect(results(page).first()).toBeVisible();
    await region.evaluate((el) => el.scrollTo(0, 1200));
    await expect.poll(() => region.evaluate((el) => el.scrollTop)).toBe(1200);
    // An asset far down the list, visible only because of the scroll.
    const item = results(page).filter({ has: page.getByRole('link', { name: 'Open asset page' }) });
    const visible = item.filter({ visible: true }).last();
    const id = await visible.getAttribute('data-asset-id');
    const open = page.locator(`[data-asset-id="${id}"]`).getByRole('link', { name: 'Open asset page' });
    // Clicking brings the link fully into view first; that is where the visitor leaves from.
    await open.scrollIntoViewIfNeeded();
    const left = await region.evaluate((el) => el.scrollTop);
    expect(left).toBeGreaterThanOrEqual(1200);
    await open.click();
    await expect(page).toHaveURL(new RegExp(`#/asset/${id}$`));
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(/#\/search\/\*\?sort=rating&orientation=desc$/);
    await expect(region).toHaveAttribute('data-view', 'thumbnail');
    await expect(page.getByRole('button', { name: /^Sort by/ })).toHaveText('Sort by: Rating (Descending)');
    await expect.poll(() => region.evaluate((el) => el.scrollTop), { timeout: 10_000 }).toBe(left);
    await expect(page.locator(`[data-asset-id="${id}"]`)).toBeInViewport();
  });
});

test.describe('infinite scroll on a phone (portal-spec §4 "Search")', () => {
  test.use({ locale: 'en-GB', viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });

  test('a first answer that fills the results asks for no further page until the visitor scrolls near its end', async ({
    page,
  }) => {
    const starts: number[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith('/api/search')) starts.push(Number(url.searchParams.get('solr_start') ?? 0));
    });
    await page.goto('/#/search/*');
    await expect(heading(page)).toHaveText(/^\d+ results/, { timeout: 60_000 });
    const region = page.getByRole('region', { name: 'Results' });
    await expect(results(page).first()).toBeVisible();
    // Time for a request the first draw would have started.
    await page.waitForTimeout(1000);
    expect(starts).toEqual([0]);
    await region.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => starts.length).toBeGreaterThan(1);
    // The next page starts where the first ended.
    expect(starts[1]).toBeGreaterThan(0);
  });
});

/**
 * The most result items the page has held at once, and whether it ever held the facet sidebar,
 * looked at on every change of the page.
 */
async function countMostItems(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { mostItems: number; hadSidebar: boolean };
    w.mostItems = 0;
    w.hadSidebar = false;
    new MutationObserver(() => {
      w.mostItems = Math.max(w.mostItems, document.querySelectorAll('[data-asset-id]').length);
      w.hadSidebar ||= document.querySelector('aside.vt-facets') !== null;
    }).observe(document, { subtree: true, childList: true });
  });
}

for (const device of [
  { name: 'phone', viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1400, height: 1000 }, isMobile: false, hasTouch: false },
]) {
  test.describe(`first draw of the results on a ${device.name} (portal-spec §2 "Search": virtualised results, pictures once in view)`, () => {
    test.use({ locale: 'en-GB', viewport: device.viewport, isMobile: device.isMobile, hasTouch: device.hasTouch });

    test('only the rows near the viewport are ever drawn, and only the pictures in view are fetched', async ({
      page,
    }) => {
      const thumbnails = new Set<string>();
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.includes('/media/thumb/')) thumbnails.add(new URL(r.url()).pathname);
      });
      await countMostItems(page);
      await page.goto('/#/search/*');
      await expect(heading(page)).toHaveText(/^\d+ results/, { timeout: 60_000 });
      await expect(results(page).first()).toBeVisible();
      await page.waitForTimeout(1500);
      const drawn = await results(page).count();
      const most = await page.evaluate(() => (window as unknown as { mostItems: number }).mostItems);
      // The first page holds more results than are drawn; none of the others was drawn in between.
      expect(drawn).toBeGreaterThan(0);
      expect(most).toBe(drawn);
      const inView = await results(page)
        .filter({ visible: true })
        .evaluateAll(
          (items) =>
            items.filter((el) => {
              const box = el.getBoundingClientRect();
              const area = el.closest('[data-view]')!.getBoundingClientRect();
              return box.bottom > area.top && box.top < area.bottom;
            }).length,
        );
      expect(thumbnails.size).toBeGreaterThan(0);
      expect(thumbnails.size).toBeLessThanOrEqual(inView);
      // A phone shows the facets in a drawer: the wide screen's sidebar is never drawn first.
      const hadSidebar = await page.evaluate(() => (window as unknown as { hadSidebar: boolean }).hadSidebar);
      expect(hadSidebar).toBe(device.name === 'desktop');
    });
  });
}

test.describe("the search screen's code on a first visit (decision 0243)", () => {
  test.use({ locale: 'en-GB', viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });

  test("is asked for by the page beside the app's entry, once each, and the screen draws its results", async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/assets/')) asked.push(new URL(r.url()).pathname.split('/').pop() ?? '');
    });
    // The app's entry module comes late, as on a slow connection.
    const entry = await holdEntryModule(page);
    await page.goto('/#/search/*');
    await expect.poll(() => asked.some((f) => /^SearchPage-.*\.js$/.test(f))).toBe(true);
    expect(entry.released()).toBe(false);
    entry.release();
    // The search page's rules are in the page's own style sheet (the first paint draws with them,
    // decision 0244): it asks for no style sheet of its own.
    expect(asked.some((f) => /^SearchPage-.*\.css$/.test(f))).toBe(false);
    await expect(heading(page)).toHaveText(/^\d+ results/, { timeout: 60_000 });
    await expect(results(page).first()).toBeVisible();
    // The app's own load of the screen asks for nothing again.
    expect(asked.filter((f, i) => asked.indexOf(f) !== i)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
