import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/journey.ts';
import { importLongIds, LAST_ID, longIdFile, searchAndLoadAll } from '../support/longIds.ts';
import { startNginx, type Nginx } from '../support/nginx.ts';
import { ownPort, startOwnServer, type OwnServer } from '../support/ownServer.ts';
import { toursSeen } from '../support/tour.ts';
import { zipEntryNames } from '../support/zip.ts';

const ASSETS = 1000;
// Ten digits is the longest an asset id can be (the "20-character ids" have no form here;
// decision 0269); the catalogue's ids end at the highest there is, so every one has ten digits.
/** Above the journeys' own servers (ownServer.ts) and the object store portal's S3 server (portals.ts). */
const nginxPort = ownPort + 3;
const origin = `http://127.0.0.1:${nginxPort}`;

const fileName = (i: number) => longIdFile('nginx', i);

let server: OwnServer | undefined;
let nginx: Nginx | undefined;

test.use({
  baseURL: origin,
  storageState: toursSeen(origin),
  locale: 'en-GB',
  viewport: { width: 1400, height: 1000 },
});
// Infinite scroll loads the 1,000 results in about 50 pages: 20 s on a quiet machine, over a minute
// on one busy with the other portal's journeys (and the server making the thumbnails meanwhile).
test.describe.configure({ mode: 'serial', timeout: 240_000 });

test.beforeAll(async () => {
  // The import takes 15–40 s, more on a machine busy with the other portal's journeys.
  test.setTimeout(180_000);
  server = await startOwnServer(
    // The zip needs no thumbnails: the server makes them while the journey runs.
    (vitrine, folder, dataDir) =>
      importLongIds(vitrine, folder, dataDir, { prefix: 'nginx', count: ASSETS, derivatives: false }),
    // One zip of all of them, without a question.
    (settings) => ({ ...settings, download: { maxAssets: ASSETS } }),
  );
  nginx = await startNginx(path.join(server.folder, 'nginx'), nginxPort, server.origin);
});

test.afterAll(async () => {
  await nginx?.stop();
  await server?.stop();
});

/** Searches everything and selects every result: the first, then (once all are loaded) the last with Shift. */
async function selectAll(page: Page): Promise<void> {
  const buttons = await searchAndLoadAll(page, ASSETS, 150_000);
  await buttons.last().click({ modifiers: ['Shift'] });
  await expect(page.getByText(/^1,?000 selected$/)).toBeVisible();
}

test.describe('a zip of 1,000 assets through nginx with its default settings (issue #54, decision 0269)', () => {
  test('1,000 selected assets with ten-digit ids come whole in one zip', async ({ page }) => {
    // The nginx in front keeps its default limits: the zip's call with the ids in its query is refused there.
    const ids = Array.from({ length: ASSETS }, (_, i) => `id=${LAST_ID - i}`).join('&');
    const inQuery = await page.request.get(`/assetportal/api/download?operation=zip&csetid=0&${ids}`);
    expect(inQuery.status()).toBe(414);

    await selectAll(page);
    const listed = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/download/zip'));
    const fetched = page.waitForRequest((r) => new URL(r.url()).pathname.startsWith('/media/zip/'));
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download selection' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download options' });
    await dialog.getByRole('radio', { name: 'Original file' }).check();
    await dialog.getByRole('button', { name: 'Download' }).click();

    expect(((await listed).postDataJSON() as { ids: string[] }).ids).toHaveLength(ASSETS);
    expect((await fetched).url().length).toBeLessThan(300);
    const zip = await download;
    expect(zip.suggestedFilename()).toBe(`assets-${ASSETS}.zip`);
    const names = zipEntryNames(readFileSync(await zip.path()));
    expect(names).toHaveLength(ASSETS);
    expect([...names].sort()).toEqual(Array.from({ length: ASSETS }, (_, i) => fileName(i + 1)));
  });
});
