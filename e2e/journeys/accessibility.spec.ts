import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from '../support/journey.ts';
import { addUser, logIn } from '../support/accounts.ts';
import { adminSections, eachAdminDialog, openAdminArea, openAdminSection } from '../support/admin.ts';
import { seriousViolations } from '../support/axe.ts';

// The first visit of a page waits for its content on a machine that may be busy.
const expect = baseExpect.configure({ timeout: 15_000 });
test.use({ locale: 'en-GB' });
test.describe.configure({ timeout: 240_000 });

const viewports = { desktop: { width: 1280, height: 900 }, phone: { width: 375, height: 667 } } as const;

/** Checks the page as it is now and files any serious or critical violation under `what`. */
async function check(page: Page, found: string[], what: string): Promise<void> {
  for (const v of await seriousViolations(page)) found.push(`${what}: ${v}`);
}

/**
 * Opens a header menu from the keyboard: a mouse resting on its button would open it again as a
 * hover menu right after Escape closed it (portal-spec §9 menu delays).
 */
async function openMenu(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('button', { name }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toBeVisible();
}

// The checker itself: a page with known violations is reported, and one without them is not, also
// when axe is already in the page from an earlier check (support/axe.ts puts it there once).
test('the axe check reports serious and critical violations, and none on a clean page', async ({ page }) => {
  await page.setContent(
    '<html lang="en"><title>Probe</title><main><h1>Probe</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">' +
      '<p style="color:#ccc;background:#fff">Faint text</p><button></button></main></html>',
  );
  const ids = (violations: string[]) => violations.map((v) => v.slice(0, v.indexOf(':'))).sort();
  expect(ids(await seriousViolations(page))).toEqual(['button-name', 'color-contrast', 'image-alt']);
  await page.locator('img').evaluate((img) => img.setAttribute('alt', 'A dot'));
  expect(ids(await seriousViolations(page))).toEqual(['button-name', 'color-contrast']);
  await page.setContent('<html lang="en"><title>Probe</title><main><h1>Probe</h1><p>Plain text</p></main></html>');
  expect(await seriousViolations(page)).toEqual([]);
});

test.describe('axe-core on every screen, both default themes, desktop and 375×667 (WCAG 2.2 AA)', () => {
  test.beforeAll(() => addUser('inspector', 'users'));

  for (const theme of ['light', 'dark'] as const) {
    for (const [device, viewport] of Object.entries(viewports)) {
      test(`${theme} theme, ${device}: screens, dialogs, menus, drawer and info panel`, async ({ page, request }) => {
        await page.setViewportSize(viewport);
        // Without motion, popups (tooltips, menus) are measured at full opacity, not halfway through
        // fading in, which axe would report as low contrast.
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.addInitScript((key) => {
          localStorage.setItem('theme', key);
          if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
        }, theme);
        const phone = device === 'phone';
        const found: string[] = [];

        // Login, with the theme menu open.
        await page.goto('/#/login');
        await expect(page.getByLabel('Username')).toBeVisible();
        await check(page, found, 'login');
        // The theme menu (a dialog-like popup of the header).
        await openMenu(page, 'Theme');
        await check(page, found, 'theme menu');
        await page.keyboard.press('Escape');
        await expect(page.getByRole('menu')).toBeHidden();

        // Dashboard, with the language menu and (on phones) the navigation drawer open.
        await page.goto('/');
        await expect(page.getByTestId('dashboard-hero')).toBeVisible();
        await expect(page.locator('section[aria-labelledby^="collection-"]').first()).toBeVisible();
        await check(page, found, 'dashboard');
        // The guided tour's dialog: the browser forgets having seen it on the dashboard.
        await page.evaluate(() => localStorage.setItem('tour', JSON.stringify(['search'])));
        await page.reload();
        const tour = page.getByRole('dialog', { name: /Guided tour/ });
        await expect(tour).toBeVisible({ timeout: 20_000 });
        await check(page, found, 'guided tour');
        await page.keyboard.press('Escape');
        await expect(tour).toBeHidden();
        await openMenu(page, /^Language/);
        await check(page, found, 'language menu');
        await page.keyboard.press('Escape');
        await expect(page.getByRole('menu')).toBeHidden();
        if (phone) {
          await page.getByRole('button', { name: 'Open menu' }).click();
          await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
          await check(page, found, 'navigation drawer');
          await page.keyboard.press('Escape');
        }
        // No horizontal scrolling of the page.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

        // Search, with the info panel and (on phones) the filter drawer open.
        await page.goto('/#/search/*');
        const results = page.getByRole('region', { name: 'Results', exact: true });
        await expect(results.locator('[data-result-button]').first()).toBeVisible();
        await check(page, found, 'search');
        await results.locator('[data-result-button]').first().click();
        await expect(results.getByRole('region', { name: /^Details of/ })).toBeVisible();
        await check(page, found, 'info panel');
        await page.keyboard.press('Escape');
        if (phone) {
          await page.getByRole('button', { name: 'Show filters' }).click();
          await expect(page.getByRole('button', { name: 'Hide filters' })).toBeVisible();
          await check(page, found, 'filter drawer');
          await page.getByRole('button', { name: 'Hide filters' }).click();
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

        // Asset detail, then its download dialog with a set chosen (a picture: original and web JPEG).
        const res = await request.get('/assetportal/api/search', {
          params: {
            solr_q: 'sunset',
            solr_rows: '1',
            filter: JSON.stringify([{ key: 'asset_groups', values: ['image'] }]),
          },
        });
        const id = ((await res.json()) as { response: { docs: { id: string }[] } }).response.docs[0]?.id;
        await page.goto(`/#/asset/${id}`);
        await expect(page.getByRole('toolbar', { name: 'Asset actions' })).toBeVisible();
        await check(page, found, 'asset');
        await page.getByRole('toolbar', { name: 'Asset actions' }).getByRole('button', { name: 'Download' }).click();
        const download = page.getByRole('dialog', { name: 'Download options' });
        await download.getByRole('radio', { name: 'Web JPEG (2048 px)' }).check();
        await expect(download.getByRole('radio', { name: 'Web JPEG (2048 px)' })).toBeChecked();
        await check(page, found, 'download dialog');
        await page.keyboard.press('Escape');
        await expect(download).toBeHidden();

        // Bookmarks (empty, then with one) and the custom page.
        await page.goto('/#/bookmark');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await check(page, found, 'bookmarks, empty');
        await page.goto('/#/custom');
        await expect(page.getByRole('heading', { level: 1 })).toBeAttached();
        await check(page, found, 'custom page');

        // Signed in: the account menu, the bookmark list with a card, logout page.
        await logIn(page, 'inspector');
        await page.goto(`/#/asset/${id}`);
        const actions = page.getByRole('toolbar', { name: 'Asset actions' });
        // The toggle is disabled until the account's bookmarks are known; an earlier run may have added it.
        const toggle = actions.getByRole('button', { name: /^(Add to|Remove from) bookmarks$/ });
        await expect(toggle).toBeEnabled();
        if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
        // The share dialog, before and after it made a link with a password, and the list of links.
        await actions.getByRole('button', { name: 'Share', exact: true }).click();
        const share = page.getByRole('dialog', { name: 'Create a share link' });
        await share.getByLabel('Password (optional, at least 8 characters)').fill('open sesame');
        await share.getByRole('checkbox', { name: 'Original file' }).check();
        await check(page, found, 'share dialog');
        await share.getByRole('button', { name: 'Create link' }).click();
        const field = share.getByRole('textbox', { name: 'Share link' });
        await expect(field).toBeVisible();
        const link = await field.inputValue();
        await check(page, found, 'share dialog with its link');
        await share.getByRole('button', { name: 'Close' }).click();
        await page.goto('/#/shares');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.getByRole('row').nth(1)).toBeVisible();
        await check(page, found, 'share links');
        await page.goto('/#/bookmark');
        await expect(page.getByRole('list', { name: 'Bookmarked assets' }).getByRole('listitem').first()).toBeVisible();
        await check(page, found, 'bookmarks');
        await page
          .getByRole('toolbar', { name: 'Bookmark actions' })
          .getByRole('button', { name: 'Delete all' })
          .click();
        const confirm = page.getByRole('dialog');
        await expect(confirm).toContainText('Do you really want to delete all bookmarks?');
        await check(page, found, 'delete all bookmarks question');
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        await expect(confirm).toBeHidden();
        await openMenu(page, /Account of inspector/);
        await check(page, found, 'account menu');
        await page.getByRole('menuitem', { name: 'Log out' }).click();
        await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
        await check(page, found, 'after logout');
        // The share link as a visitor without an account sees it: the password question.
        await page.goto(link);
        await expect(page.getByText('This share link is protected by a password.')).toBeVisible();
        await check(page, found, 'share landing');

        expect(found).toEqual([]);
      });
    }
  }
});

test.describe('axe-core on every admin section: dark theme, and on a 375×667 phone (admin-spec, WCAG 2.2 AA)', () => {
  test.beforeAll(() => addUser('inspector-admin', 'admins'));

  for (const [theme, device] of [
    ['dark', 'desktop'],
    ['light', 'phone'],
    ['dark', 'phone'],
  ] as const) {
    test(`${theme} theme, ${device}: every admin section`, async ({ page }) => {
      await page.setViewportSize(viewports[device]);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.addInitScript((key) => {
        localStorage.setItem('theme', key);
        if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
      }, theme);
      await logIn(page, 'inspector-admin');
      await openAdminArea(page);
      const found: string[] = [];
      for (const name of adminSections) {
        await openAdminSection(page, name);
        await check(page, found, `admin ${name}`);
        await eachAdminDialog(page, name, (what) => check(page, found, `admin ${what}`));
      }
      expect(found).toEqual([]);
    });
  }
});
