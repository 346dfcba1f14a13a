import type { Page } from '@playwright/test';
import { addUser, logIn } from '../support/accounts.ts';
import { openAdminArea, openAdminSection } from '../support/admin.ts';
import { expect, test } from '../support/journey.ts';
import { storedMedia } from '../support/media.ts';
import { MEDIA_TAG } from '../support/portals.ts';
import { snapshotAdminState, storeGlobalConfig } from '../support/storedConfig.ts';

const admin = `upload-admin-${Date.now()}`;

test.use({ locale: 'en-GB' });
test.describe.configure({ timeout: 60_000 });

const onePixelPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A pre-search of every asset, shown as a tile on the dashboard (admin-spec §3 "Pre-search"). */
const harbourPicks = {
  dashboard: {
    collections: {
      show_as_tiles: true,
      data: [{ key: 'Harbour picks', position: 0, search: { en: { text: '*', facets: [] } } }],
    },
  },
};

// What the uploads change (files, and the config that names a tile image) is put back afterwards.
let restoreAdminState: () => Promise<void> = async () => undefined;
test.beforeAll(async () => {
  restoreAdminState = await snapshotAdminState();
  addUser(admin, 'admins');
});
test.afterAll(async () => restoreAdminState());

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
  });
});

/** Logs the admin in and opens a section of the admin area. */
async function openSection(page: Page, name: string) {
  await logIn(page, admin);
  await openAdminArea(page);
  await openAdminSection(page, name);
}

/** Notices show one at a time (5 s each): an earlier one may still stand in front of this one. */
async function expectNotice(page: Page, text: string) {
  await expect(page.getByText(text)).toBeVisible({ timeout: 15_000 });
}

test.describe('files uploaded in the admin area (admin-spec §7 "POST config/{name}")', { tag: MEDIA_TAG }, () => {
  test('a tile image uploaded for a pre-search shows on its dashboard tile (§1 "dashboard", §7 "thumbnail")', async ({
    page,
  }) => {
    const restoreConfig = await storeGlobalConfig(harbourPicks);
    try {
      await openSection(page, 'Dashboard');
      await page
        .locator('input[type=file][aria-label="Tile image of Harbour picks"]')
        .setInputFiles({ name: 'tile.png', mimeType: 'image/png', buffer: onePixelPng });
      await expectNotice(page, 'File saved');
      await page.getByRole('button', { name: 'Save configuration' }).click();
      await expectNotice(page, 'Configuration saved');
      await page.goto('/#/');
      const image = page.getByRole('link', { name: 'Harbour picks' }).locator('img');
      await expect(image).toHaveAttribute('src', /config\/thumbnail\?id=tile_/);
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
      const id = new URL((await image.getAttribute('src')) ?? '', page.url()).searchParams.get('id');
      expect(await storedMedia('config-files')).toContain(`thumbnail/${id}`);
    } finally {
      await restoreConfig();
    }
  });

  test('a logo is uploaded and served (§1 "appearance", §7 "Calls")', async ({ page }) => {
    await openSection(page, 'Appearance');
    await page
      .locator('input[type=file][aria-label="Logo"]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: onePixelPng });
    await expectNotice(page, 'File saved');
    await expect(page.getByText('The change is visible after reloading the page.').first()).toBeVisible();
    const served = await page.request.get('/assetportal/api/config/logo');
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toBe('image/png');
    expect(await served.body()).toEqual(onePixelPng);
    expect(await storedMedia('config-files')).toContain('logo');
  });
});
