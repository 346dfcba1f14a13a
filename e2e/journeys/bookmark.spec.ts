import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/journey.ts';
import { addUser, logIn } from '../support/accounts.ts';

const API = '/assetportal/api/';

test.use({ locale: 'en-GB' });

interface Doc {
  id: string;
  format?: string;
}

/** Demo images as a guest finds them. */
async function images(request: APIRequestContext, n: number): Promise<Doc[]> {
  const res = await request.get(`${API}search`, {
    params: { solr_q: '*', filter: JSON.stringify([{ key: 'format', values: ['png', 'jpeg'] }]), solr_rows: '20' },
  });
  expect(res.ok()).toBe(true);
  const docs = ((await res.json()) as { response: { docs: Doc[] } }).response.docs;
  expect(docs.length).toBeGreaterThanOrEqual(n);
  return docs.slice(0, n);
}

/** Bookmarks an asset from its detail page; the toggle's label switches to remove. */
async function bookmarkOnDetailPage(page: Page, id: string): Promise<void> {
  await page.goto(`/#/asset/${id}`);
  const actions = page.getByRole('toolbar', { name: 'Asset actions' });
  await actions.getByRole('button', { name: 'Add to bookmarks' }).click();
  await expect(actions.getByRole('button', { name: 'Remove from bookmarks' })).toBeVisible();
}

const cards = (page: Page) => page.getByRole('list', { name: 'Bookmarked assets' }).getByRole('listitem');

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
  });
});

test.describe('bookmarks (portal-spec §2 "Bookmark list", §4 "Bookmark toggle")', () => {
  test.beforeAll(() => addUser('bookmarker', 'users'));

  test('a user bookmarks from the detail page; the list shows them, downloads all, deletes a selection and then all', async ({
    page,
    request,
  }) => {
    // Three asset pages, a zip, two deletions and two reloads: more than the default 30 s on a busy CI machine.
    test.setTimeout(60_000);
    const docs = await images(request, 3);
    await logIn(page, 'bookmarker');
    for (const doc of docs) await bookmarkOnDetailPage(page, doc.id);

    await page.goto('/#/bookmark');
    await expect(page.getByText('3 bookmarked assets')).toBeVisible();
    await expect(cards(page)).toHaveCount(3);
    // Saved on the server: a reload keeps them.
    await page.reload();
    await expect(cards(page)).toHaveCount(3, { timeout: 15_000 });

    const toolbar = page.getByRole('toolbar', { name: 'Bookmark actions' });
    // The asset page's download flow: the sets dialog, then one zip of all bookmarked assets.
    await toolbar.getByRole('button', { name: 'Download all' }).click();
    const options = page.getByRole('dialog', { name: 'Download options' });
    await expect(options.getByRole('radio', { name: 'Original file' })).toBeChecked();
    const downloading = page.waitForEvent('download');
    await options.getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.zip$/);

    await cards(page).first().getByRole('checkbox').click();
    await expect(toolbar.getByRole('button', { name: 'Delete selected' })).toBeVisible();
    await toolbar.getByRole('button', { name: 'Delete selected' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(cards(page)).toHaveCount(2);

    await toolbar.getByRole('button', { name: 'Delete all' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Do you really want to delete all bookmarks?')).toBeVisible();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Your bookmark list is empty.')).toBeVisible();
    await page.reload();
    await expect(page.getByText('Your bookmark list is empty.')).toBeVisible({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Go to search' }).click();
    await expect(page).toHaveURL(/#\/search/);
  });

  test('as a guest, bookmarks survive a reload but never reach the server', async ({ page, request }) => {
    const [doc] = await images(request, 1);
    const bookmarkCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes(`${API}config/bookmarks`)) bookmarkCalls.push(r.method());
    });
    await bookmarkOnDetailPage(page, doc?.id ?? '');
    await page.reload();
    await expect(
      page.getByRole('toolbar', { name: 'Asset actions' }).getByRole('button', { name: 'Remove from bookmarks' }),
    ).toBeVisible({ timeout: 15_000 });
    await page.goto('/#/bookmark');
    await expect(cards(page)).toHaveCount(1);
    expect(bookmarkCalls).toEqual([]);
  });

  test('a bookmarked asset that is no longer in the catalogue shows the notice and leaves the list', async ({
    page,
    request,
  }) => {
    const [doc] = await images(request, 1);
    await page.addInitScript(
      (ids) => {
        if (!sessionStorage.getItem('seeded')) {
          localStorage.setItem('bookmarks', JSON.stringify(ids));
          sessionStorage.setItem('seeded', '1');
        }
      },
      [doc?.id ?? '', '987654321'],
    );
    await page.goto('/#/bookmark');
    await expect(
      page.getByRole('alert').filter({ hasText: 'One/some asset/s of your bookmarks are no longer available' }),
    ).toBeVisible({ timeout: 15_000 });
    await expect(cards(page)).toHaveCount(1);
    expect(await page.evaluate(() => localStorage.getItem('bookmarks'))).toBe(JSON.stringify([doc?.id]));
  });
});

test.describe('bookmarking from the search page (portal-spec §4 "Bookmark toggle", "Selection")', () => {
  test.use({ viewport: { width: 1400, height: 1000 } });
  test.beforeAll(() => addUser('searchmarker', 'users'));

  /** The results heading once it names the total (the page left before may still show its own). */
  const heading = (page: Page, total: RegExp) => page.getByRole('heading', { level: 2, name: total });
  const item = (page: Page, i: number) => page.locator('[data-asset-id]').nth(i);
  const idOf = async (page: Page, i: number) => (await item(page, i).getAttribute('data-asset-id')) ?? '';

  test('a poster, the info panel, the selection and the found assets are bookmarked; the bookmark page lists them', async ({
    page,
  }) => {
    // Four ways to bookmark and the bookmark page: more than the default 30 s on a busy CI machine.
    test.setTimeout(60_000);
    await logIn(page, 'searchmarker');
    await page.goto('/#/search/*');
    await expect(heading(page, /^\d+ results/)).toBeVisible({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Posters', exact: true }).click();

    // The icon set of a poster: the toggle's label switches to remove.
    const first = item(page, 0);
    await first.getByRole('button', { name: 'Add to bookmarks' }).click();
    await expect(first.getByRole('button', { name: 'Remove from bookmarks' })).toHaveAttribute('aria-pressed', 'true');

    // The info panel of another asset; its poster shows the same state.
    await item(page, 1).locator('[data-result-button]').click();
    const panel = page.getByRole('region', { name: /^Details of / });
    await panel.getByRole('button', { name: 'Add to bookmarks' }).click();
    await expect(panel.getByRole('button', { name: 'Remove from bookmarks' })).toBeVisible();
    await expect(item(page, 1).getByRole('button', { name: 'Remove from bookmarks' })).toBeVisible();
    await panel.getByRole('button', { name: 'Close details' }).click();

    // A selection of two further assets: the heading's button acts on the selection.
    await item(page, 2).locator('[data-result-button]').click();
    await item(page, 3)
      .locator('[data-result-button]')
      .click({ modifiers: ['ControlOrMeta'] });
    await expect(page.getByText('2 selected', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Bookmark selection' }).click();
    await expect(item(page, 3).getByRole('button', { name: 'Remove from bookmarks' })).toBeVisible();
    const ids = [await idOf(page, 0), await idOf(page, 1), await idOf(page, 2), await idOf(page, 3)];

    await page.goto('/#/bookmark');
    await expect(page.getByText('4 bookmarked assets')).toBeVisible({ timeout: 15_000 });
    await expect(cards(page)).toHaveCount(4);

    // The found assets of a search: all of them, fetched beyond the loaded page, join the list.
    const found = await page.request.get(`${API}search`, { params: { solr_q: 'rose', solr_rows: '1000' } });
    const foundIds = ((await found.json()) as { response: { docs: Doc[] } }).response.docs.map((d) => d.id);
    expect(foundIds.length).toBeGreaterThan(0);
    await page.goto('/#/search/rose');
    await expect(heading(page, new RegExp(`^${foundIds.length} results`))).toBeVisible({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Bookmark found assets' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Added to bookmarks' })).toBeVisible();
    const expected = new Set([...ids, ...foundIds]).size;
    await page.goto('/#/bookmark');
    await expect(page.getByText(`${expected} bookmarked assets`)).toBeVisible({ timeout: 15_000 });
  });
});
