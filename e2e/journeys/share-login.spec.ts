import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../support/journey.ts';
import { addUser, logIn } from '../support/accounts.ts';
import { importFolder, makePicture } from '../support/catalogue.ts';

const partner = 'share-partner';

test.use({ locale: 'en-GB' });

/** The link opened in a browser of its own: a guest without a session. */
async function asGuest(browser: Browser, route: string): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-GB' });
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('locale', 'en'));
  await page.goto(route);
  return page;
}

/** The guest is sent to the login page with the spec's notice, and logs in as the partner there. */
async function logInWhenAsked(page: Page) {
  await expect(page).toHaveURL(/#\/login/, { timeout: 15_000 });
  await expect(
    page.getByRole('alert').filter({ hasText: 'None of the shared assets are visible to you.' }),
  ).toBeVisible();
  await page.getByLabel('Username').fill(partner);
  await page.getByLabel('Password').fill('journey secret');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

test.describe('a link to an asset a guest may not see (portal-spec §4 "Shared links": none_visible, back after login)', () => {
  let folder: string;
  let settingsFile: string;
  let id = '';
  // The first test also pays for the hooks: an import and an account made by the command line, and
  // the partner's login (31 s on the last CI run, over the default 30 s).
  test.describe.configure({ timeout: 60_000 });
  test.beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'vitrine-partners-'));
    makePicture(path.join(folder, 'partners-only.png'));
    // The same settings, but what this import adds is for the partners group only.
    const settings = JSON.parse(readFileSync(path.join(import.meta.dirname, '../settings.json'), 'utf8'));
    settingsFile = path.join(folder, '..', `${path.basename(folder)}-settings.json`);
    writeFileSync(
      settingsFile,
      JSON.stringify({ ...settings, catalogue: { ...settings.catalogue, defaultAccessGroups: ['partners'] } }),
    );
    importFolder(folder, settingsFile);
    addUser(partner, 'partners');
  });
  // The picture leaves the catalogue again, so later journeys see the demo as it was.
  test.afterAll(() => {
    rmSync(path.join(folder, 'partners-only.png'), { force: true });
    importFolder(folder, settingsFile);
    rmSync(folder, { recursive: true, force: true });
    rmSync(settingsFile, { force: true });
  });

  test.beforeEach(async ({ page }) => {
    // Only a partner finds the new picture, once the server has taken in the import.
    await page.addInitScript(() => {
      if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
    });
    if (id) return;
    await logIn(page, partner);
    const result = page.getByRole('region', { name: 'Results' }).locator('[data-asset-id]');
    await expect(async () => {
      await page.goto('/#/search/partners-only');
      await expect(result).toHaveCount(1, { timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
    id = (await result.getAttribute('data-asset-id')) ?? '';
    expect(id).toMatch(/^\d+$/);
  });

  test('an asset link: the guest is asked to log in and then lands on the asset', async ({ browser }) => {
    const page = await asGuest(browser, `/#/asset/${id}`);
    await logInWhenAsked(page);
    await expect(page).toHaveURL(new RegExp(`#/asset/${id}$`), { timeout: 15_000 });
    await expect(page.getByRole('region', { name: 'Metadata' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('partners only');
  });

  test('a link to chosen assets: the guest is asked to log in and then sees them', async ({ browser }) => {
    const page = await asGuest(browser, `/#/search/*?id=${id}`);
    await logInWhenAsked(page);
    await expect(page).toHaveURL(new RegExp(`#/search/\\*\\?id=${id}$`), { timeout: 15_000 });
    await expect(page.getByRole('heading', { level: 2 })).toHaveText(/^1 result\b/);
  });
});
