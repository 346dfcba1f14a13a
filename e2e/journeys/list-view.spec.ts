import type { APIRequestContext, Page } from '@playwright/test';
import { expect as baseExpect, test } from '../support/journey.ts';
import { seriousViolations } from '../support/axe.ts';
import { storeGlobalConfig } from '../support/storedConfig.ts';

// The first search of a server just started may still be building its index on a busy machine.
const expect = baseExpect.configure({ timeout: 20_000 });
test.use({ locale: 'en-GB' });
test.describe.configure({ timeout: 180_000 });

/** The list table's columns for these journeys (config search.list, admin-spec §3 "Config"). */
const listConfig = {
  search: {
    list: {
      columns: [
        { field_name: 'filename' },
        { field_name: 'format' },
        { field_name: 'rating' },
        { field_name: 'pixel_x' },
      ],
      options: { imageColWidth: 250, rowHeight: 200 },
    },
  },
};

let restore: (() => Promise<void>) | undefined;
test.beforeAll(async () => {
  restore = await storeGlobalConfig(listConfig);
});
test.afterAll(async () => {
  await restore?.();
});

const table = (page: Page) => page.getByRole('table', { name: 'Results' });

/** Opens the search page and switches to the list view. */
async function openList(page: Page): Promise<void> {
  await page.goto('/#/search/*');
  await expect(page.getByRole('heading', { level: 2, name: /^\d+ results/ })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'List', exact: true }).click();
  await expect(page.getByRole('button', { name: 'List', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(table(page).getByRole('row').nth(1)).toBeVisible();
}

/** The file names of the first assets as the search answers them in this order. */
async function firstNames(request: APIRequestContext, sort: string): Promise<string[]> {
  const res = await request.get('/assetportal/api/search', {
    params: { solr_q: '*', solr_rows: '3', solr_sort: sort },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { response: { docs: { filename: string }[] } }).response.docs.map((d) => d.filename);
}

/** The file name column of the first rows shown. */
async function shownNames(page: Page, count: number): Promise<string[]> {
  const rows = table(page).getByRole('row');
  const names: string[] = [];
  for (let i = 1; i <= count; i++) names.push((await rows.nth(i).getByRole('cell').nth(1).textContent()) ?? '');
  return names;
}

test.describe('the list view as a table (portal-spec §2 "Search", config search.list)', () => {
  test('shows the configured columns, sorts by a header both ways, and keeps view and sort after an asset', async ({
    page,
    request,
  }) => {
    await openList(page);
    await expect(table(page).getByRole('columnheader')).toHaveText([
      'Picture',
      'File name',
      'Format',
      'Rating',
      'Width',
    ]);
    const first = table(page).getByRole('row').nth(1);
    await expect(first.getByRole('cell').nth(4)).toHaveText(/^\d+ × \d+ px$/);

    // Rating is one of the sort options: its header sorts, first in the default orientation.
    const rating = table(page).getByRole('columnheader', { name: 'Rating' });
    await expect(rating).not.toHaveAttribute('aria-sort');
    await rating.getByRole('button', { name: 'Rating' }).click();
    await expect(page).toHaveURL(/#\/search\/\*\?sort=rating&orientation=desc$/);
    await expect(rating).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(() => shownNames(page, 3)).toEqual(await firstNames(request, 'rating desc'));
    // The active one again, from the keyboard: the other direction.
    await rating.getByRole('button', { name: 'Rating' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#\/search\/\*\?sort=rating&orientation=asc$/);
    await expect(rating).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(() => shownNames(page, 3)).toEqual(await firstNames(request, 'rating asc'));
    await expect(page.getByRole('button', { name: /^Sort by/ })).toHaveText('Sort by: Rating (Ascending)');

    // Open the first asset from its info panel and come back: the list and its sort are kept.
    const name = (await shownNames(page, 1))[0];
    await first.locator('[data-result-button]').click();
    const panel = page.getByRole('region', { name: /^Details of / });
    await expect(panel).toBeVisible();
    await panel.getByRole('link', { name: 'Open asset page' }).click();
    await expect(page).toHaveURL(/#\/asset\/\d+$/);
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(/#\/search\/\*\?sort=rating&orientation=asc$/);
    await expect(page.getByRole('region', { name: 'Results', exact: true })).toHaveAttribute('data-view', 'list');
    await expect(table(page).getByRole('columnheader', { name: 'Rating' })).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(() => shownNames(page, 1)).toEqual([name]);
  });

  test('the arrow keys move between the rows’ pictures; scrolling down loads further rows', async ({ page }) => {
    await openList(page);
    const buttons = table(page).locator('[data-result-button]');
    await buttons.nth(0).focus();
    await page.keyboard.press('ArrowDown');
    await expect(buttons.nth(1)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(buttons.nth(0)).toBeFocused();
    // aria-rowcount counts the rows loaded so far and the header row.
    const loaded = async () => Number(await table(page).getAttribute('aria-rowcount'));
    const first = await loaded();
    const region = page.getByRole('region', { name: 'Results', exact: true });
    await region.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(loaded).toBeGreaterThan(first);
  });
});

test.describe('the list view with axe-core (WCAG 2.2 AA)', () => {
  const viewports = { desktop: { width: 1280, height: 900 }, phone: { width: 375, height: 667 } } as const;
  for (const theme of ['light', 'dark'] as const) {
    for (const [device, viewport] of Object.entries(viewports)) {
      test(`${theme} theme, ${device}: the table, and with the info panel open`, async ({ page }) => {
        // axe walks every element of a full results page: on a busy 2-core machine that takes a while.
        test.slow();
        await page.setViewportSize(viewport);
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.addInitScript((key) => localStorage.setItem('theme', key), theme);
        await openList(page);
        expect(await seriousViolations(page)).toEqual([]);
        await table(page).getByRole('row').nth(1).locator('[data-result-button]').click();
        await expect(page.getByRole('region', { name: /^Details of / })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        // The table scrolls sideways inside the results; the page itself does not.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      });
    }
  }
});
