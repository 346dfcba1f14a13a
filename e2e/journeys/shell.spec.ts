import type { Page } from '@playwright/test';
import { seriousViolations } from '../support/axe.ts';
import { expect, test } from '../support/journey.ts';
import { storedMedia } from '../support/media.ts';
import { MEDIA_TAG } from '../support/portals.ts';
import { scrollThrough } from '../support/scroll.ts';
import { storeConfigFiles, storeGlobalConfig } from '../support/storedConfig.ts';

test.use({ locale: 'de-DE' });

async function openDashboard(page: Page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeAttached();
  await expect(page.getByTestId('dashboard-hero')).toBeVisible();
}

test.describe('interface language (portal-spec §1, §2 "Navigation rules")', () => {
  test('starts in the browser language, switches to English and keeps it after a reload', async ({ page }) => {
    await openDashboard(page);
    await expect(page).toHaveTitle('Vitrine | Startseite');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await page.getByRole('button', { name: /^Sprache/ }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await expect(page).toHaveTitle('Vitrine | Home');
    await expect(page.getByRole('alert')).toContainText('Language updated');
    await expect(page.getByText('Find your media')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Navigated to' })).toHaveText(
      'Navigated to Vitrine | Home',
    );
    await page.reload();
    await expect(page).toHaveTitle('Vitrine | Home');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('contentinfo')).toContainText('Imprint');
  });
});

test.describe('themes (admin-spec §3 "Theme")', () => {
  test('the dark theme applies when the browser prefers dark', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openDashboard(page);
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(18, 18, 18)');
    await expect(page.getByRole('banner')).toHaveCSS('background-color', 'rgb(26, 26, 26)');
  });

  test('a theme chosen in the theme selection applies and is kept', async ({ page }) => {
    await openDashboard(page);
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(247, 247, 247)');
    await page.getByRole('button', { name: 'Farbschema' }).click();
    await page.getByRole('menuitemradio', { name: 'Dunkel' }).click();
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(18, 18, 18)');
    await page.reload();
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(18, 18, 18)');
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`the dashboard has no serious accessibility violation in the ${scheme} theme, screenshot kept`, async ({
      page,
    }, testInfo) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openDashboard(page);
      // Rows load as they come near the screen: scrolled through, every row is there.
      await scrollThrough(page);
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      const path = testInfo.outputPath(`dashboard-${scheme}.png`);
      await page.screenshot({ path, fullPage: true });
      await testInfo.attach(`dashboard-${scheme}`, { path, contentType: 'image/png' });
      expect(await seriousViolations(page)).toEqual([]);
      // Nothing sticks out sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    });
  }
});

test.describe('footer (admin-spec §3 "Footer link")', () => {
  test('shows the default entries with the copyright from 2020 and internal links as routes', async ({ page }) => {
    await openDashboard(page);
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(`© 2020–${new Date().getFullYear()} Vitrine`);
    await footer.getByRole('link', { name: 'Impressum' }).click();
    await expect(page).toHaveURL(/#\/custom$/);
  });
});

test.describe('configuration (portal-spec §2 "Navigation rules")', () => {
  test('with hide_dashboard set, / goes to /search/*', async ({ page }) => {
    const restore = await storeGlobalConfig({ global: { hide_dashboard: true, website_title: 'Archiv' } });
    try {
      await page.goto('/');
      await expect(page).toHaveURL(/#\/search\/\*$/);
      await expect(page).toHaveTitle('Archiv | Suche');
      await expect(page.getByRole('navigation').getByRole('link', { name: 'Startseite' })).toHaveCount(0);
    } finally {
      await restore();
    }
  });

  test('the hero height and texts come from the config', async ({ page }) => {
    const restore = await storeGlobalConfig({ dashboard: { heroImage: { height: 420 } } });
    try {
      await openDashboard(page);
      const box = await page.getByTestId('dashboard-hero').boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(420);
    } finally {
      await restore();
    }
  });
});

test.describe('drawer on a phone (portal-spec §4 "Sidebar / drawer")', () => {
  test.use({ viewport: { width: 375, height: 667 }, hasTouch: true, isMobile: true });

  test('opens by the menu button and closes on navigation', async ({ page }) => {
    await openDashboard(page);
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Menü öffnen' }).click();
    await expect(nav).toBeVisible();
    const width = (await page.locator('#main-navigation').boundingBox())?.width;
    expect(width).toBeCloseTo(256, 0);
    // The first entry is not hidden under the header (hidden from assistive technology while the
    // drawer is open, so found by its element).
    const header = await page.locator('header').boundingBox();
    const home = await nav.getByRole('link', { name: 'Startseite' }).boundingBox();
    expect(home?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
    await nav.getByRole('link', { name: 'Merkliste' }).click();
    await expect(page).toHaveURL(/#\/bookmark$/);
    await expect(nav).toBeHidden();
  });
});

test.describe('uploaded style sheet and font (portal-spec §8 "Error catalogue")', () => {
  test(
    'applies the custom style sheet, and says so when the font cannot be loaded',
    { tag: MEDIA_TAG },
    async ({ page }) => {
      const restore = await storeConfigFiles([
        { name: 'style', content: 'main#main { border-top: 7px solid rgb(1, 2, 3); }' },
        // A WOFF2 file by its first bytes, as the upload checks, and nothing a browser can load.
        { name: 'custom_font', content: 'wOF2 this is not a font' },
      ]);
      try {
        expect(await storedMedia('config-files')).toEqual(expect.arrayContaining(['style', 'custom_font']));
        await openDashboard(page);
        await expect(page.getByRole('main')).toHaveCSS('border-top-width', '7px');
        await expect(page.getByRole('alert')).toContainText('Die Schriftart konnte nicht geladen werden.');
      } finally {
        await restore();
      }
    },
  );
});

test.describe('an upgrade while the portal is open', () => {
  test('a screen whose code chunk is gone loads the new version instead of failing', async ({ page }) => {
    await openDashboard(page);
    // The portal was upgraded since the page loaded: the login screen's chunk of that build is gone.
    await page.route(/\/assets\/LoginPage-[\w-]+\.js$/, (route) => route.fulfill({ status: 404, body: 'Not found' }), {
      times: 1,
    });
    await page.getByRole('link', { name: 'Anmelden', exact: true }).click();
    await expect(page).toHaveURL(/#\/login/);
    await expect(page.getByLabel('Benutzername')).toBeVisible({ timeout: 15_000 });
  });
});
