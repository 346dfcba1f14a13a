import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { storeGlobalConfig } from '../support/storedConfig.ts';
import { addUser, logIn } from '../support/accounts.ts';
import { expect, test } from '../support/journey.ts';
import { madeFilesFolder, storedMedia } from '../support/media.ts';
import { journeyPortal, MEDIA_TAG } from '../support/portals.ts';
import { zipEntryNames } from '../support/zip.ts';

const API = '/assetportal/api/';

test.use({ locale: 'en-GB' });

interface Doc {
  id: string;
  filename?: string;
  page_count?: number;
  format?: string;
}

/** Demo assets of one kind, as a guest finds them (search filtered by asset type). */
async function find(request: APIRequestContext, filter: { key: string; values: string[] }[]): Promise<Doc[]> {
  const res = await request.get(`${API}search`, {
    params: { solr_q: '*', filter: JSON.stringify(filter), solr_rows: '50' },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { response: { docs: Doc[] } }).response.docs;
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
  });
});

test.describe('asset detail (portal-spec §2 "Asset detail")', () => {
  test('opens an asset from the search page, shows title and metadata, and goes back one step to the search', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto('/#/search/*');
    const result = page.locator('[data-asset-id]').first();
    // The first search after the server starts loads the search index, slow on a busy machine.
    await expect(result).toBeVisible({ timeout: 60_000 });
    const id = await result.getAttribute('data-asset-id');
    await result.getByRole('link', { name: 'Open asset page' }).click();
    await expect(page).toHaveURL(new RegExp(`#/asset/${id}$`));
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Asset');
    const metadata = page.getByRole('region', { name: 'Metadata' });
    await expect(metadata.getByText('File name')).toBeVisible();
    await expect(metadata.getByText('File size')).toBeVisible();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/#\/search\/\*$/);
    await expect(page.locator(`[data-asset-id="${id}"]`)).toBeVisible();
  });

  test('plays the demo video in the player', { tag: MEDIA_TAG }, async ({ page, request }) => {
    const [video] = await find(request, [{ key: 'asset_groups', values: ['video'] }]);
    expect(video).toBeDefined();
    // The web video the player streams (in byte ranges) is the one made on import, in the store.
    expect(await storedMedia('derivatives', madeFilesFolder(video?.filename ?? ''))).toContain('video.mp4');
    await page.goto(`/#/asset/${video?.id}`);
    const player = page.locator('video');
    await expect(player.locator('source').first()).toHaveAttribute('src', /\/media\/video\/\d+\?exp=/, {
      timeout: 15_000,
    });
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    await expect
      .poll(() => player.evaluate((v) => (v as HTMLVideoElement).currentTime), { timeout: 10_000 })
      .toBeGreaterThan(0);
    // The player's icons come from our own sprite, not from a CDN.
    const loaded = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name))
        .filter((u) => u.pathname.includes('plyr') || u.hostname.includes('plyr'))
        .map((u) => ({ path: u.pathname, ours: u.origin === location.origin })),
    );
    expect(loaded).toContainEqual({ path: '/plyr/plyr.svg', ours: true });
    expect(loaded.every((r) => r.ours)).toBe(true);
  });

  test('pages through every page of a PDF', { tag: MEDIA_TAG }, async ({ page, request }) => {
    const docs = await find(request, [{ key: 'asset_groups', values: ['document'] }]);
    const pdf = docs.find((d) => (d.page_count ?? 0) >= 3);
    expect(pdf).toBeDefined();
    // Page 2's picture is stored under the name pdftoppm gave it, padded to the width of the last page's number.
    const stored = await storedMedia('derivatives', madeFilesFolder(pdf?.filename ?? ''));
    expect(stored).toContainEqual(expect.stringMatching(/^page-0*2\.jpg$/));
    await page.goto(`/#/asset/${pdf?.id}`);
    const pages = page.getByRole('region', { name: 'Pages of the document' });
    await expect(pages.getByText(`Page 1 of ${pdf?.page_count}`)).toBeVisible({ timeout: 15_000 });
    await expect(pages.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await pages.getByRole('button', { name: 'Next page' }).click();
    await expect(pages.getByText(`Page 2 of ${pdf?.page_count}`)).toBeVisible();
    const picture = pages.getByRole('img');
    await expect(picture).toHaveAttribute('src', /\/media\/preview\/\d+\/2\?/);
    await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  });
});

test.describe('download flow (portal-spec §4 "Download flow", §8 "Download")', () => {
  test(
    'downloads an image in a chosen conversion set: the file arrives with the set’s name and type',
    {
      tag: MEDIA_TAG,
    },
    async ({ page, request }) => {
      const images = await find(request, [{ key: 'format', values: ['png'] }]);
      const image = images[0];
      expect(image).toBeDefined();
      await page.goto(`/#/asset/${image?.id}`);
      await page.getByRole('toolbar', { name: 'Asset actions' }).getByRole('button', { name: 'Download' }).click();
      const dialog = page.getByRole('dialog', { name: 'Download options' });
      await expect(dialog.getByRole('radio', { name: 'Original file' })).toBeChecked();
      await dialog.getByRole('radio', { name: 'Web JPEG (2048 px)' }).check();
      const downloading = page.waitForEvent('download');
      await dialog.getByRole('button', { name: 'Download' }).click();
      const download = await downloading;
      const base = (image?.filename ?? '').replace(/\.[^.]+$/, '');
      expect(download.suggestedFilename()).toBe(`${base}.jpg`);
      const file = readFileSync(await download.path());
      expect([...file.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      await expect(page.getByRole('alert').filter({ hasText: 'Your download starts soon.' })).toBeVisible();
      // The conversion was kept in the store, from which it was sent.
      const conversions = await storedMedia('conversions', madeFilesFolder(image?.filename ?? ''));
      expect(conversions.filter((name) => name.endsWith('.jpg'))).toHaveLength(1);
    },
  );

  test('an asset with no set to download goes to the order dialog, whose order is mailed', async ({
    page,
    request,
  }) => {
    // An account made, a config stored, a login, and a notice that waits behind the 5 s warning.
    test.setTimeout(60_000);
    // A partner sees the catalogue but has no conversion set to download in (e2e/settings.json).
    const name = `orderer${Date.now()}`;
    addUser(name, 'partners');
    const restore = await storeGlobalConfig({ global: { run_order_process: true } });
    try {
      const [image] = await find(request, [{ key: 'asset_groups', values: ['image'] }]);
      await logIn(page, name);
      await page.goto(`/#/asset/${image?.id}`);
      await page.getByRole('toolbar', { name: 'Asset actions' }).getByRole('button', { name: 'Download' }).click();
      const dialog = page.getByRole('dialog', { name: 'Download not available' });
      await expect(dialog.getByRole('link', { name: image?.id })).toBeVisible();
      await dialog.getByLabel('Message').fill('For the annual report');
      await dialog.getByRole('button', { name: 'Submit order' }).click();
      // Notices show one at a time: "No downloads available" (5 s) stands in front of this one.
      await expect(page.getByRole('alert').filter({ hasText: 'Your order has been sent.' })).toBeVisible({
        timeout: 15_000,
      });
      const outbox = path.join(journeyPortal().dataDir, 'outbox');
      const mails = readdirSync(outbox).map((f) => readFileSync(path.join(outbox, f), 'utf8'));
      expect(mails.some((m) => m.includes('For the annual report') && m.includes(`#/asset/${image?.id}`))).toBe(true);
    } finally {
      await restore();
    }
  });
});

test.describe('zip downloads from the search page (portal-spec §4 "Selection", "Download flow")', () => {
  test(
    'zips three selected assets in a set one of them is not made for; the order dialog offers that one',
    {
      tag: MEDIA_TAG,
    },
    async ({ page, request }) => {
      test.setTimeout(90_000);
      // Web JPEG (conversion set 1) is made of pictures, documents and 3D models, not of videos.
      const name = `zipper${Date.now()}`;
      addUser(name, 'users');
      const restore = await storeGlobalConfig({ global: { run_order_process: true } });
      try {
        const images = await find(request, [{ key: 'asset_groups', values: ['image'] }]);
        const [video] = await find(request, [{ key: 'asset_groups', values: ['video'] }]);
        const chosen = [images[0]?.id, images[1]?.id, video?.id].map(String);
        await logIn(page, name);
        // The login lands on the dashboard; going on before it has would race its navigation.
        await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible({ timeout: 15_000 });
        await page.goto(`/#/search/*?id=${chosen.join(',')}`);
        const button = (id: string) => page.locator(`[data-asset-id="${id}"] [data-result-button]`);
        await expect(button(chosen[0]!)).toBeVisible({ timeout: 15_000 });
        // Ctrl/meta click adds one to the selection; unlike a plain click it opens no details panel,
        // which would move the results under the pointer.
        for (const id of chosen) {
          await button(id).click({ modifiers: ['ControlOrMeta'] });
          await expect(button(id)).toHaveAttribute('aria-pressed', 'true');
        }
        await expect(page.getByText('3 selected', { exact: true })).toBeVisible();

        await page.getByRole('button', { name: 'Download selection' }).click();
        const dialog = page.getByRole('dialog', { name: 'Download options' });
        await dialog.getByRole('radio', { name: 'Web JPEG (2048 px)' }).check();
        const downloading = page.waitForEvent('download');
        await dialog.getByRole('button', { name: 'Download' }).click();
        const download = await downloading;
        expect(download.suggestedFilename()).toMatch(/\.zip$/);
        // A whole zip of two entries (the pictures), converted into the store.
        expect(zipEntryNames(readFileSync(await download.path()))).toHaveLength(2);
        for (const picture of images.slice(0, 2)) {
          const conversions = await storedMedia('conversions', madeFilesFolder(picture.filename ?? ''));
          expect(conversions.filter((name) => name.endsWith('.jpg'))).toHaveLength(1);
        }
        // The modal order dialog hides the rest of the page (the toast too) from the accessibility tree.
        // Notices queue, five seconds each: this one waits behind "Your download starts soon."
        await expect(page.getByText('Some assets cannot be downloaded.', { exact: true })).toBeVisible({
          timeout: 15_000,
        });

        const order = page.getByRole('dialog', { name: 'Download not available' });
        await expect(order.getByRole('link', { name: chosen[2] })).toBeVisible();
        await expect(order.getByRole('link')).toHaveCount(1);
      } finally {
        await restore();
      }
    },
  );
});

test.describe('share links (portal-spec §4 "Shared links", §8 "Copy share link")', () => {
  test('copies the link of an asset, which a guest opens; a link to a hidden asset asks a guest to log in', async ({
    page,
    context,
    browser,
    request,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const [image] = await find(request, [{ key: 'asset_groups', values: ['image'] }]);
    await page.goto(`/#/asset/${image?.id}`);
    await page.getByRole('toolbar', { name: 'Asset actions' }).getByRole('button', { name: 'Copy share link' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Link copied to the clipboard' })).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`/#/asset/${image?.id}$`));

    const guest = await browser.newContext({ locale: 'en-GB' });
    const guestPage = await guest.newPage();
    await guestPage.addInitScript(() => localStorage.setItem('locale', 'en'));
    await guestPage.goto(link);
    // A new browser context loads the whole app, which takes its time on a busy machine.
    await expect(guestPage.getByRole('region', { name: 'Metadata' })).toBeVisible({ timeout: 15_000 });
    await expect(guestPage.getByRole('heading', { level: 1 })).not.toHaveText('Asset');

    // An id beyond the catalogue: to the caller, the same as an asset it may not see.
    const hidden = 1 + Math.max(...(await find(request, [])).map((d) => Number(d.id)));
    await guestPage.goto(`/#/asset/${hidden}`);
    await expect(guestPage).toHaveURL(/#\/login/);
    await expect(
      guestPage.getByRole('alert').filter({ hasText: 'None of the shared assets are visible to you.' }),
    ).toBeVisible();
    await guest.close();
  });
});
