import { readFileSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { addUser, logIn } from '../support/accounts.ts';
import { declineUpgradeQuestion, openAdminArea } from '../support/admin.ts';
import { seriousViolations } from '../support/axe.ts';
import { expect, test } from '../support/journey.ts';

test.use({ locale: 'en-GB' });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const stamp = Date.now();
const user = `stats-reader-${stamp}`;
const admin = `stats-admin-${stamp}`;
/** A text no asset has: the statistics list it among the searches without results. */
const nothing = `zqxnothing${stamp}`;
/** A word of the demo catalogue. */
const found = 'rose';

test.beforeAll(() => {
  addUser(user, 'users');
  addUser(admin, 'admins');
});

/** The first PNG of the demo catalogue, as a guest finds it. */
async function demoPicture(request: APIRequestContext): Promise<string> {
  const res = await request.get('/assetportal/api/search', {
    params: { solr_q: '*', filter: JSON.stringify([{ key: 'format', values: ['png'] }]), solr_rows: '1' },
  });
  expect(res.ok()).toBe(true);
  const id = ((await res.json()) as { response: { docs: { id: string }[] } }).response.docs[0]?.id;
  expect(id).toBeDefined();
  return id ?? '';
}

const english = (page: Page) =>
  page.addInitScript(() => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
  });

/** A search as a visitor types it, waiting for the answer's result count. */
async function search(page: Page, text: string, anyResults: boolean) {
  const answered = page.waitForResponse((r) => r.url().includes('/assetportal/api/search?') && r.ok());
  await page.goto(`/#/search/${text}`);
  const answer = (await (await answered).json()) as { response: { numFound: number } };
  if (anyResults) expect(answer.response.numFound).toBeGreaterThan(0);
  else expect(answer.response.numFound).toBe(0);
}

/** Opens the asset's page (a view) and downloads its original file. */
async function viewAndDownload(page: Page, assetId: string) {
  const counted = page.waitForRequest((r) => r.url().includes('/assetportal/api/insights/view'));
  await page.goto(`/#/asset/${assetId}`);
  await counted;
  await page.getByRole('toolbar', { name: 'Asset actions' }).getByRole('button', { name: 'Download' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download options' });
  await expect(dialog.getByRole('radio', { name: 'Original file' })).toBeChecked();
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download' }).click();
  expect(readFileSync(await (await downloading).path()).length).toBeGreaterThan(0);
}

/**
 * Loads the page again. A portal without a stored config asks on every entry to the admin area
 * whether to store the factory settings: answered no, so the other journeys see the config as it is.
 */
async function reload(page: Page) {
  await page.reload();
  await declineUpgradeQuestion(page);
}

async function useThePortal(page: Page, assetId: string) {
  await search(page, nothing, false);
  await search(page, found, true);
  await viewAndDownload(page, assetId);
}

test('a guest and a user search, view and download; the admin sees it in the Statistics section (issue #51)', async ({
  page,
  request,
}) => {
  const assetId = await demoPicture(request);
  await english(page);
  // Popups are measured at full opacity by axe, not halfway through fading in.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // A guest.
  await useThePortal(page, assetId);
  // A user with an account.
  await logIn(page, user);
  await useThePortal(page, assetId);
  await page.goto('/#/logout');
  await expect(page.getByRole('heading', { level: 1, name: 'Logged out' })).toBeVisible();

  await logIn(page, admin);
  await openAdminArea(page);
  await page.goto('/#/admin/statistics?days=7');
  await expect(page.getByRole('heading', { level: 2, name: 'Statistics' })).toBeVisible({ timeout: 15_000 });
  // Events reach the database about once a second: the section is loaded again until they show.
  const zeroResults = page.getByRole('table', { name: 'Searches without results' });
  await expect(async () => {
    await reload(page);
    await expect(zeroResults.getByRole('row', { name: new RegExp(nothing) })).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });

  // Asked twice (guest and user), found nothing.
  expect(await countIn(zeroResults.getByRole('row', { name: new RegExp(nothing) }))).toBeGreaterThanOrEqual(2);
  const top = page.getByRole('table', { name: 'Top searches' });
  expect(await countIn(top.getByRole('row', { name: new RegExp(`^${found}\\b`) }))).toBeGreaterThanOrEqual(2);
  // Totals at least what this journey did (other journeys use the same portal).
  for (const [name, atLeast] of [
    ['Searches', 4],
    ['Searches without results', 2],
    ['Asset views', 2],
    ['Downloads', 2],
  ] as const) {
    const figure = page.locator(`dt:text-is("${name}") + dd`);
    expect(Number((await figure.innerText()).replace(/\D/g, ''))).toBeGreaterThanOrEqual(atLeast);
  }
  // The asset is among the most viewed and the most downloaded, with its thumbnail, linking to its page.
  for (const name of ['Most viewed assets', 'Most downloaded assets']) {
    const link = page.getByRole('table', { name }).locator(`a[href="#/asset/${assetId}"]`);
    await link.scrollIntoViewIfNeeded();
    await expect(link).toBeVisible();
    await expect
      .poll(() => link.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  }
  // The charts: the lines per day are drawn, and the table behind them holds today's searches.
  const perDay = page.getByRole('figure', { name: 'Chart: Searches, views and downloads per day' });
  await expect(perDay.locator('svg path').first()).toBeVisible();
  await perDay.getByRole('checkbox', { name: 'Show as table' }).check();
  const days = perDay.getByRole('table', { name: 'Searches, views and downloads per day' });
  await expect(days).toBeVisible();
  expect(await days.getByRole('row').count()).toBe(8);
  await perDay.getByRole('checkbox', { name: 'Show as table' }).uncheck();

  // The guests' figures alone: the address carries the audience, and the guest's search is there.
  await page.getByRole('combobox', { name: 'Audience' }).click();
  await page.getByRole('option', { name: 'Guests' }).click();
  await expect(page).toHaveURL(/audience=guests/);
  await expect(zeroResults.getByRole('row', { name: new RegExp(nothing) })).toBeVisible();
  await page.getByRole('combobox', { name: 'Audience' }).click();
  await page.getByRole('option', { name: 'Everyone' }).click();
  await expect(page).not.toHaveURL(/audience=/);

  // The table downloads as CSV, readable by spreadsheets.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV: Searches without results' }).click();
  const csv = await downloading;
  expect(csv.suggestedFilename()).toMatch(
    /^statistics-searches-without-results-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  const bytes = readFileSync(await csv.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString('utf8');
  expect(text).toContain('"Search text","Times asked"\r\n');
  expect(text).toMatch(new RegExp(`"${nothing}","\\d+"\\r\\n`));

  // Readable in both themes, without serious accessibility faults, and on a 375 px phone; the
  // faults are gathered and checked last, so that one run tells all of them.
  const faults: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((key) => localStorage.setItem('theme', key), theme);
    await reload(page);
    await expect(zeroResults).toBeVisible({ timeout: 15_000 });
    for (const v of await seriousViolations(page)) faults.push(`${theme} theme: ${v}`);
  }
  await page.setViewportSize({ width: 375, height: 667 });
  await reload(page);
  await expect(zeroResults).toBeVisible({ timeout: 15_000 });
  await expect(perDay.locator('svg path').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  for (const v of await seriousViolations(page)) faults.push(`375 px: ${v}`);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The search without results runs again from its link, on the search page.
  await zeroResults.getByRole('link', { name: nothing }).click();
  await expect(page).toHaveURL(new RegExp(`#/search/${nothing}$`));
  await expect(page.getByRole('search').getByRole('combobox', { name: 'Search' })).toHaveValue(nothing);
  expect(faults).toEqual([]);
});

/** The count of a table row: its last cell, digits only (the interface formats it). */
async function countIn(row: Locator): Promise<number> {
  return Number((await row.getByRole('cell').last().innerText()).replace(/\D/g, ''));
}
