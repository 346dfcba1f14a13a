import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { addUser, logIn } from '../support/accounts.ts';
import { openAdminArea, openAdminSection } from '../support/admin.ts';
import { demoAssetId } from '../support/catalogue.ts';
import { expect, test } from '../support/journey.ts';
import { ownPort, startOwnServer, type OwnServer } from '../support/ownServer.ts';
import { snapshotAdminState } from '../support/storedConfig.ts';
import { toursSeen } from '../support/tour.ts';

/*
 * What an admin sets in the admin area changes what visitors see (issue #54): the search logo's
 * alignment, the thumbnails' header and body fields, field labels in an added language, and a date
 * facet shown as checkboxes. Each journey saves through the admin area as an admin does and looks at
 * the portal as a visitor does.
 */

const root = path.resolve(import.meta.dirname, '../..');
const admin = `effects-admin-${Date.now()}`;

test.use({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
// Each journey builds on the admin's login and the saved config; the margin is for a busy machine.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

// A 1×1 PNG, drawn 48 px high as the search logo.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Errors the page logs while a journey runs: a screen an admin changed must still load cleanly. */
const consoleErrors = new WeakMap<Page, string[]>();
const listen = (page: Page) => {
  const errors: string[] = [];
  consoleErrors.set(page, errors);
  page.on('console', (m) => {
    // A language just added has no texts on the server until its first save: the admin area's
    // question for them is answered 404, which it reads as none yet (admin queries.ts textsQuery).
    const noTextsYet = m.text().includes('404') && /\/api\/config\/translations\?lang=/.test(m.location().url);
    if (m.type() === 'error' && !noTextsYet) errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(e.message));
};
test.beforeEach(async ({ page, context }) => {
  listen(page);
  context.on('page', listen);
  // Also in the tabs a journey opens, which start on about:blank, where there is no storage.
  await context.addInitScript(() => {
    if (location.protocol.startsWith('http') && !localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
  });
});
test.afterEach(({ page }) => {
  expect(consoleErrors.get(page) ?? []).toEqual([]);
});

/**
 * Clicks a save button and waits for the server's answer to it. Notices show one at a time (5 s
 * each), so waiting for each notice would wait for the ones before it; the answer is what counts.
 */
async function saveBy(page: Page, button: string, call: RegExp) {
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && call.test(new URL(r.url()).pathname));
  await page.getByRole('button', { name: button }).click();
  expect((await answer).status()).toBe(200);
}

/**
 * Saves the config and waits until the admin area holds the saved one: the portal reads the config
 * the save answered only once the answer is handled, which on a busy machine comes after the response.
 */
async function saveConfig(page: Page) {
  await saveBy(page, 'Save configuration', /\/api\/config\/global$/);
  await expect(page.getByText('There are unsaved changes.')).toBeHidden({ timeout: 15_000 });
  await expect(page.locator('[data-status="saving"]')).toHaveCount(0, { timeout: 15_000 });
}

/**
 * Picks an option of a select of the admin area, by the select's label and the option's name. A
 * click that lands while the select draws itself anew (after an option was added) opens no menu, so
 * the select is clicked until its menu lists the option.
 */
async function choose(page: Page, scope: Page | Locator, select: string, option: string) {
  const combobox = scope.getByRole('combobox', { name: select });
  const item = page.getByRole('option', { name: option, exact: true });
  await expect(async () => {
    if (!(await item.isVisible())) await combobox.click();
    await expect(item).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await item.click();
  await expect(item).toBeHidden();
}

/** Switches the interface language through the header's language menu. */
async function speak(page: Page, language: string) {
  await page.getByRole('button', { name: /^Language/ }).click();
  await page.getByRole('menuitemradio', { name: language }).click();
  await expect(page.getByRole('menu')).toBeHidden();
}

const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return {
    left: b.x,
    right: b.x + b.width,
    centre: b.x + b.width / 2,
    top: b.y,
    bottom: b.y + b.height,
    middle: b.y + b.height / 2,
  };
};

test.describe('on the demo portal', () => {
  // What the admin saves (config, translations, the search logo) is put back afterwards, so the
  // other journeys see the portal as it was.
  let restoreAdminState: () => Promise<void> = async () => undefined;
  test.beforeAll(async () => {
    restoreAdminState = await snapshotAdminState();
    addUser(admin, 'admins');
  });
  test.afterAll(async () => restoreAdminState());

  test.beforeEach(async ({ page }) => {
    await logIn(page, admin);
    await openAdminArea(page);
  });

  test('the search logo stands where the admin aligns it: centred on a row of its own, or right of the search input (admin-spec §1 "search")', async ({
    page,
  }) => {
    await openAdminSection(page, 'Search settings');
    const uploaded = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/api/config/searchLogo'));
    await page
      .locator('input[type=file][aria-label="Search logo"]')
      .setInputFiles({ name: 'search-logo.png', mimeType: 'image/png', buffer: png });
    expect((await uploaded).status()).toBe(200);
    await expect(page.getByText('File saved')).toBeVisible();

    // The admin keeps the admin area open in one tab and looks at the search page in another.
    const portal = await page.context().newPage();
    const head = portal.locator('.vt-search-head');
    const logo = head.getByRole('img', { name: /^Logo of / });
    const input = head.getByRole('combobox').first();
    for (const alignment of ['Centre', 'Right'] as const) {
      await choose(page, page, 'Search logo alignment', alignment);
      await saveConfig(page);

      await portal.goto('/#/search/*');
      await portal.reload();
      await expect(portal.getByRole('heading', { level: 2, name: /^\d+ results/ })).toBeVisible({ timeout: 20_000 });
      await expect(logo).toBeVisible();
      const [headBox, logoBox, inputBox] = await Promise.all([box(head), box(logo), box(input)]);
      if (alignment === 'Centre') {
        await expect(head.locator('.vt-search-logo-box')).toHaveCSS('justify-content', 'center');
        expect(Math.abs(logoBox.centre - headBox.centre)).toBeLessThanOrEqual(2);
        // A row of its own: above the search input, not beside it.
        expect(logoBox.bottom).toBeLessThanOrEqual(inputBox.top);
      } else {
        expect(logoBox.left).toBeGreaterThanOrEqual(inputBox.right);
        expect(Math.abs(logoBox.right - headBox.right)).toBeLessThanOrEqual(2);
        expect(Math.abs(logoBox.middle - inputBox.middle)).toBeLessThanOrEqual(2);
      }
    }
    expect(consoleErrors.get(portal) ?? []).toEqual([]);
    await portal.close();
  });

  test('thumbnails show the header field the admin picks as their caption and the body fields under it, in English and German (admin-spec §3 "Config" search.thumbnails)', async ({
    page,
    request,
  }) => {
    const id = await demoAssetId(request, 'image', 'Dragonfly_by_Bolly.jpg');
    const answer = await request.get('/assetportal/api/search', { params: { solr_q: '*', id } });
    const doc = ((await answer.json()) as { response: { docs: { creator?: string }[] } }).response.docs[0];
    const creator = doc?.creator ?? '';
    expect(creator).not.toBe('');

    await openAdminSection(page, 'Appearance');
    await choose(page, page, 'Thumbnail header field', 'filename');
    for (const field of ['category', 'creator']) {
      await choose(page, page, 'Field for: Thumbnail body fields', field);
      await page.getByRole('button', { name: 'Add to: Thumbnail body fields' }).click();
    }
    await expect(page.getByRole('list', { name: 'Thumbnail body fields' }).getByRole('listitem')).toHaveText([
      /^category/,
      /^creator/,
    ]);
    await saveConfig(page);

    await page.goto('/#/search/Dragonfly');
    await page.getByRole('button', { name: 'Thumbnails', exact: true }).click();
    const item = page.locator(`[data-asset-id="${id}"]`);
    await expect(item.locator('.vt-caption')).toHaveText('Dragonfly_by_Bolly.jpg');
    await expect(item.locator('.vt-caption-line')).toHaveText(['Photography', creator]);
    await speak(page, 'Deutsch');
    await expect(item.locator('.vt-caption')).toHaveText('Dragonfly_by_Bolly.jpg');
    await expect(item.locator('.vt-caption-line')).toHaveText(['Fotografie', creator]);
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
  });

  test('an added language names the fields in its own words in the info view, the asset page and the list columns (admin-spec "Translation set" metadata)', async ({
    page,
  }) => {
    await openAdminSection(page, 'Language settings');
    const add = page.getByRole('button', { name: 'Add language' });
    const modal = page.getByRole('dialog', { name: 'Add language' });
    // A first try closed by Escape leaves the focus where it was.
    await add.click();
    await expect(modal).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await expect(add).toBeFocused();
    await add.click();
    await modal.getByLabel('Name').fill('Français');
    await modal.getByLabel('Code').fill('fr');
    await modal.getByRole('button', { name: 'Add' }).click();
    await expect(modal).toBeHidden();
    await saveConfig(page);

    for (const [key, text] of [
      ['metadata.category', 'Catégorie'],
      ['metadata.file_size', 'Taille du fichier'],
    ] as const) {
      await page.getByLabel('Find a text').fill(key);
      await page.getByLabel(key, { exact: true }).fill(text);
    }
    await saveBy(page, 'Save translations', /\/api\/config\/translations$/);
    // The answer is handled after it arrives (on a busy machine, noticeably): leaving before that asked
    // about unsaved texts that were saved already.
    await expect(page.getByRole('button', { name: 'Save translations' })).toBeDisabled({ timeout: 15_000 });

    await page.goto('/#/search/*');
    await speak(page, 'français');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await page.locator('[data-result-button]').first().click();
    const details = page.getByRole('region', { name: /^Details of / });
    await expect(details).toContainText('Catégorie');
    await expect(details).toContainText('Taille du fichier');
    await expect(details).not.toContainText('File size');

    await details.getByRole('link', { name: 'Open asset page' }).click();
    await expect(page).toHaveURL(/#\/asset\//);
    const article = page.getByRole('article');
    await expect(article).toContainText('Catégorie');
    await expect(article).toContainText('Taille du fichier');
    await expect(article).not.toContainText('File size');

    await page.goto('/#/search/*');
    await page.getByRole('button', { name: 'List', exact: true }).click();
    const headers = page.getByRole('table', { name: 'Results' }).getByRole('columnheader');
    await expect(headers.filter({ hasText: 'Taille du fichier' })).toHaveCount(1);
    await expect(headers.filter({ hasText: 'File size' })).toHaveCount(0);
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
  });
});

/** A date field the settings declare (`fields`): a facet of values, not a range. */
const shotOn = {
  field_name: 'shot_on',
  default_labels: { en: 'Shot on', de: 'Aufgenommen am' },
  is_facet: true,
  range_facet: false,
  multi_valued: false,
  origin: 'settings',
  type: 'date',
  options: {},
};

test.describe('on a portal with a date field of its own', () => {
  const origin = `http://127.0.0.1:${ownPort}`;
  test.use({ baseURL: origin, storageState: toursSeen(origin) });

  let server: OwnServer | undefined;
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    // The journeys' settings and a date field that is no range in the index: its days are values
    // to tick, as a photo's day is.
    server = await startOwnServer(
      (vitrine, folder, dataDir) => {
        const files = path.join(folder, 'import', 'shots');
        mkdirSync(files, { recursive: true });
        const manifest: Record<string, { fields: { shot_on: string } }> = {};
        for (const [name, day, colour] of [
          ['spring.svg', '2024-03-05', '#4caf50'],
          ['autumn.svg', '2024-11-20', '#ff9800'],
        ] as const) {
          writeFileSync(
            path.join(files, name),
            `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="${colour}"/></svg>\n`,
          );
          manifest[name] = { fields: { shot_on: day } };
        }
        writeFileSync(path.join(files, 'manifest.json'), JSON.stringify(manifest));
        vitrine('import', path.join(folder, 'import'));
        execFileSync(process.execPath, ['apps/server/bin/vitrine.mjs', 'users', 'add', admin, '--groups', 'admins'], {
          cwd: root,
          input: 'journey secret\n',
          stdio: ['pipe', 'pipe', 'pipe'],
          env: {
            ...process.env,
            DATA_DIR: dataDir,
            SETTINGS_FILE: path.join(folder, 'settings.json'),
            LOG_LEVEL: 'warn',
          },
        });
      },
      (journeySettings) => ({ ...journeySettings, fields: [shotOn] }),
    );
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a date facet the admin shows as checkboxes lists its days as dates, in English and in German (portal-spec §3 "Facet config" filterVal)', async ({
    page,
  }) => {
    await logIn(page, admin);
    await openAdminArea(page);
    await openAdminSection(page, 'Search settings');
    const filters = page.getByRole('region', { name: 'Filters' });
    await choose(page, filters, 'Field', 'shot_on');
    await filters.getByRole('button', { name: 'Add filter' }).click();
    const facet = filters.getByRole('group', { name: 'shot_on' });
    await choose(page, facet, 'Selection', 'Checkboxes');
    await saveConfig(page);

    await page.goto('/#/search/*');
    await expect(page.getByRole('heading', { level: 2, name: /^2 results/ })).toBeVisible({ timeout: 15_000 });
    const group = page.getByRole('group', { name: 'Shot on' });
    await expect(group.getByRole('checkbox')).toHaveCount(2, { timeout: 15_000 });
    await expect(group.getByRole('checkbox', { name: /^3\/5\/24/ })).toBeVisible();
    await expect(group.getByRole('checkbox', { name: /^11\/20\/24/ })).toBeVisible();
    await speak(page, 'Deutsch');
    const german = page.getByRole('group', { name: 'Aufgenommen am' });
    await expect(german.getByRole('checkbox', { name: /^05\.03\.24/ })).toBeVisible();
    await expect(german.getByRole('checkbox', { name: /^20\.11\.24/ })).toBeVisible();
    // A ticked day filters the results to the asset of that day.
    await german.getByRole('checkbox', { name: /^05\.03\.24/ }).check();
    await expect(page.getByRole('heading', { level: 2, name: /^1 Ergebnis/ })).toBeVisible();
  });
});
