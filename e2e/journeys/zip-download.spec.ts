import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Download, Locator, Page, Response } from '@playwright/test';
import { expect, test } from '../support/journey.ts';
import { ownPort, startOwnServer, type OwnServer } from '../support/ownServer.ts';
import { toursSeen } from '../support/tour.ts';
import { zipEntryNames } from '../support/zip.ts';

/** One more than the server's default maxAssets (500, info/downloads), so a selection can exceed it. */
const ASSETS = 501;
/**
 * Asset ids are the catalogue's 32-bit integers (download.service.ts `isAssetId`), so the longest an
 * id can be is ten digits. The catalogue's ids start so that its last asset has the highest id there
 * is: a zip of 500 of them names them in one signed URL (7,000 characters of ids).
 */
const LAST_ID = 2 ** 31 - 1;

const fileName = (i: number) => `zip-asset-${String(i).padStart(3, '0')}.svg`;
const picture = (i: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="#${((i * 40_503) % 0xffffff).toString(16).padStart(6, '0')}"/></svg>\n`;

let server: OwnServer | undefined;
const origin = `http://127.0.0.1:${ownPort}`;

test.use({
  baseURL: origin,
  storageState: toursSeen(origin),
  locale: 'en-GB',
  viewport: { width: 1400, height: 1000 },
});
// Each journey takes 15–20 s on a quiet machine; the margin is for a machine busy with the other
// portal's journeys beside them (npm test runs both portals' journeys side by side).
test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startOwnServer((vitrine, folder, dataDir) => {
    // Small real files, each a picture of its own, imported as an operator does.
    const files = path.join(folder, 'import', 'zip journey');
    mkdirSync(files, { recursive: true });
    for (let i = 1; i <= ASSETS; i++) writeFileSync(path.join(files, fileName(i)), picture(i));
    // A first command makes the database; its ids then continue from the highest there was.
    vitrine('users', 'list');
    const db = new Database(path.join(dataDir, 'vitrine.db'));
    try {
      db.prepare("insert into sqlite_sequence (name, seq) values ('asset', ?)").run(LAST_ID - ASSETS);
    } finally {
      db.close();
    }
    vitrine('import', path.join(folder, 'import'));
  });
});

test.afterAll(async () => {
  await server?.stop();
});

/**
 * Searches everything, selects the first result (ctrl click: a plain one would open its details) and
 * scrolls until infinite scroll has loaded every result; answers the result buttons.
 */
async function searchAndLoadAll(page: Page): Promise<Locator> {
  let loaded = 0;
  const counted = async (response: Response) => {
    if (!response.ok() || !new URL(response.url()).pathname.endsWith('/api/search')) return;
    // A search answered while the page goes on (the zip's download) has no body left to read: it is
    // no page of results this journey waits for.
    const body = (await response.json().catch(() => undefined)) as
      { response: { start: number; docs: unknown[] } } | undefined;
    if (body) loaded = Math.max(loaded, body.response.start + body.response.docs.length);
  };
  page.on('response', counted);
  await page.goto('/#/search/*');
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(new RegExp(`^${ASSETS} results`), {
    timeout: 15_000,
  });
  await page.getByRole('button', { name: 'Thumbnails', exact: true }).click();
  const region = page.getByRole('region', { name: 'Results' });
  // Newest first: the highest id there is.
  await expect(region.locator('[data-asset-id]').first()).toHaveAttribute('data-asset-id', String(LAST_ID));
  const buttons = region.locator('[data-asset-id] [data-result-button]');
  await buttons.first().click({ modifiers: ['ControlOrMeta'] });
  await expect(page.getByText('1 selected', { exact: true })).toBeVisible();
  // Scrolled to the end until every page has come and the last result (the lowest id) is drawn.
  const lowest = String(LAST_ID - ASSETS + 1);
  await expect(async () => {
    await region.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    expect(loaded).toBe(ASSETS);
    await expect(region.locator('[data-asset-id]').last()).toHaveAttribute('data-asset-id', lowest, { timeout: 500 });
  }).toPass({ intervals: [150], timeout: 60_000 });
  page.off('response', counted);
  return buttons;
}

/** Chooses the original files in the download dialog and downloads. */
async function downloadOriginals(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Download options' });
  await dialog.getByRole('radio', { name: 'Original file' }).check();
  await dialog.getByRole('button', { name: 'Download' }).click();
}

/** The entries of each zip a download of the selection brings, by the zip's name. */
async function zipsOf(downloads: Promise<Download>[]): Promise<Map<string, string[]>> {
  const zips = new Map<string, string[]>();
  for (const d of await Promise.all(downloads))
    zips.set(d.suggestedFilename(), zipEntryNames(readFileSync(await d.path())));
  return zips;
}

test.describe('zip downloads of hundreds of assets (portal-spec §3 "Download info", §4 "Download flow")', () => {
  test('500 selected assets with ten-digit ids (maxAssets) come whole in one zip, without a question', async ({
    page,
  }) => {
    const buttons = await searchAndLoadAll(page);
    // The range from the first to the last but one: 500 of the 501.
    await buttons.nth(-2).click({ modifiers: ['Shift'] });
    await expect(page.getByText('500 selected', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Download selection' }).click();
    // No question first: 500 is not more than maxAssets.
    const download = page.waitForEvent('download');
    await downloadOriginals(page);
    const zips = await zipsOf([download]);

    const [names] = [...zips.values()];
    expect(names).toHaveLength(500);
    const all = Array.from({ length: ASSETS }, (_, i) => fileName(i + 1));
    expect(new Set(names).size).toBe(500);
    expect(names?.every((n) => all.includes(n))).toBe(true);
  });

  test('501 selected assets are asked about first, then come as a zip of 500 and a zip of 1', async ({ page }) => {
    const buttons = await searchAndLoadAll(page);
    await buttons.last().click({ modifiers: ['Shift'] });
    await expect(page.getByText('501 selected', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Download selection' }).click();
    const question = page.getByRole('dialog', { name: 'Do you really want to download 501 assets?' });
    await expect(question).toBeVisible();

    const downloads: Promise<Download>[] = [];
    page.on('download', (d) => downloads.push(Promise.resolve(d)));
    await question.getByRole('button', { name: 'Confirm' }).click();
    await downloadOriginals(page);
    await expect.poll(() => downloads.length, { timeout: 30_000 }).toBe(2);
    const zips = await zipsOf(downloads);
    expect([...zips.keys()].sort()).toEqual(['assets-1-of-2.zip', 'assets-2-of-2.zip']);
    expect(zips.get('assets-1-of-2.zip')).toHaveLength(500);
    expect(zips.get('assets-2-of-2.zip')).toHaveLength(1);
    expect(new Set([...zips.values()].flat()).size).toBe(ASSETS);
  });
});
