import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import { expect, test } from '../support/journey.ts';
import { importLongIds, longIdFile, searchAndLoadAll } from '../support/longIds.ts';
import { ownPort, startOwnServer, type OwnServer } from '../support/ownServer.ts';
import { toursSeen } from '../support/tour.ts';
import { zipEntryNames } from '../support/zip.ts';

/** One more than the server's default maxAssets (500, info/downloads), so a selection can exceed it. */
const ASSETS = 501;
const fileName = (i: number) => longIdFile('zip', i);

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
  // Small real files, each a picture of its own, imported as an operator does; a zip of 500 of them
  // names them in one signed URL (7,000 characters of ids).
  server = await startOwnServer((vitrine, folder, dataDir) =>
    importLongIds(vitrine, folder, dataDir, { prefix: 'zip', count: ASSETS }),
  );
});

test.afterAll(async () => {
  await server?.stop();
});

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
    const buttons = await searchAndLoadAll(page, ASSETS, 60_000);
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
    const buttons = await searchAndLoadAll(page, ASSETS, 60_000);
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
