import type { Page, TestInfo } from '@playwright/test';
import { addUser } from '../support/accounts.ts';
import { seriousViolations } from '../support/axe.ts';
import { expect, test } from '../support/journey.ts';
import { storedMedia } from '../support/media.ts';
import { MEDIA_TAG } from '../support/portals.ts';
import { storeConfigFiles } from '../support/storedConfig.ts';

test.beforeAll(() => {
  addUser('visitor', 'users');
  addUser('curator', 'admins');
});

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
  });
});

async function keepScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

async function openDashboard(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('dashboard-hero')).toBeVisible();
}

/** From the dashboard, by the header's "Log in" only, as a guest who knows no addresses. */
async function logInFromDashboard(page: Page, user: string) {
  await openDashboard(page);
  await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill('journey secret');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/**
 * On a portal without a stored config the admin area first asks whether to reset it to the factory
 * settings (admin-spec §4); these journeys are about the account menu, so they decline.
 */
async function declineFactorySettings(page: Page) {
  await expect(page).toHaveURL(/#\/admin\/general$/);
  const question = page.getByRole('dialog', { name: 'Please confirm' });
  await question
    .getByRole('button', { name: 'No' })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await expect(question).toBeHidden();
}

test.describe('account entry (portal-spec §2 "Navigation rules", "Login", §4 "Logout")', () => {
  test('a guest finds "Log in" on the dashboard, logs in, and logs out from the account menu', async ({ page }) => {
    await logInFromDashboard(page, 'visitor');
    await expect(page).toHaveURL(/#\/$/);
    const account = page.getByRole('button', { name: 'Account of visitor' });
    await expect(account).toContainText('visitor');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await account.click();
    const menu = page.getByRole('menu', { name: 'Logged in as visitor' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem')).toHaveText(['My shares', 'Log out']);
    await menu.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Logged out' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
    const check = await page.request.get('/assetportal/api/session/check', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await check.json()).toEqual({ isGuiAdmin: false, sessionValid: false });
  });

  test('an admin who is also an asset user lands on /admin/general and moves between portal and admin area', async ({
    page,
  }) => {
    await logInFromDashboard(page, 'curator');
    await expect(page).toHaveURL(/#\/admin\/general$/);
    await declineFactorySettings(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
    await page.getByRole('button', { name: 'Account of curator' }).click();
    await page.getByRole('menuitem', { name: 'Portal' }).click();
    await expect(page).toHaveURL(/#\/$/);
    await expect(page.getByTestId('dashboard-hero')).toBeVisible();
    await page.getByRole('button', { name: 'Account of curator' }).click();
    await page.getByRole('menuitem', { name: 'Administration' }).click();
    await declineFactorySettings(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
  });

  test('the keyboard opens the account menu and the menu is announced as such', async ({ page }) => {
    await logInFromDashboard(page, 'visitor');
    const account = page.getByRole('button', { name: 'Account of visitor' });
    await account.focus();
    await page.keyboard.press('Enter');
    // The menu opens with its first item focused.
    await expect(page.getByRole('menuitem', { name: 'My shares' })).toBeFocused();
    // While the menu is open the page behind it is hidden from assistive technology, so the button
    // is found by what it controls.
    await expect(page.locator('header [aria-controls="account-menu"]')).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(account).toBeFocused();
  });

  test('the menu opens when the mouse rests on the account entry and closes after it leaves (portal-spec §9)', async ({
    page,
  }) => {
    await logInFromDashboard(page, 'visitor');
    const account = page.getByRole('button', { name: 'Account of visitor' });
    await account.hover();
    const menu = page.getByRole('menu', { name: 'Logged in as visitor' });
    await expect(menu).toBeVisible();
    // Opened by the pointer, the page stays reachable: the button keeps its name and role.
    await expect(account).toBeVisible();
    await menu.getByRole('menuitem', { name: 'Log out' }).hover();
    await page.waitForTimeout(400);
    await expect(menu).toBeVisible();
    await page.mouse.move(10, 600);
    await expect(menu).toBeHidden();
  });

  test('with the account menu open, no serious accessibility violation on a desktop', async ({ page }, testInfo) => {
    await logInFromDashboard(page, 'curator');
    await declineFactorySettings(page);
    await page.getByRole('button', { name: 'Account of curator' }).click();
    await expect(page.getByRole('menuitem', { name: 'Portal' })).toBeVisible();
    await keepScreenshot(page, testInfo, 'account-menu-desktop');
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test.describe('account entry on a phone', () => {
  test.use({ viewport: { width: 375, height: 667 }, hasTouch: true, isMobile: true });

  test('"Log in" and the account menu are in the header; no serious accessibility violation', async ({
    page,
  }, testInfo) => {
    await logInFromDashboard(page, 'visitor');
    await expect(page).toHaveURL(/#\/$/);
    const account = page.getByRole('banner').getByRole('button', { name: 'Account of visitor' });
    await account.click();
    const logout = page.getByRole('menuitem', { name: 'Log out' });
    await expect(logout).toBeVisible();
    await keepScreenshot(page, testInfo, 'account-menu-phone');
    expect(await seriousViolations(page)).toEqual([]);
    // Nothing sticks out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await logout.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Logged out' })).toBeVisible();
  });
});

test.describe('login branding (admin-spec §3 "login", §7 "config/{name}")', () => {
  // A 1×1 PNG, uploaded as an admin does.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );

  test('the login page shows an uploaded login logo and background', { tag: MEDIA_TAG }, async ({ page }, testInfo) => {
    const restore = await storeConfigFiles([
      { name: 'loginLogo', content: png },
      { name: 'loginHero', content: png },
    ]);
    try {
      expect(await storedMedia('config-files')).toEqual(expect.arrayContaining(['loginLogo', 'loginHero']));
      const hero = page.waitForResponse((r) => r.url().endsWith('/assetportal/api/config/loginHero'));
      await page.goto('/#/login');
      const logo = page.getByRole('img', { name: 'Logo of Vitrine' });
      await expect(logo).toBeVisible();
      await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
      await expect(logo).toHaveCSS('height', '128px');
      expect((await hero).status()).toBe(200);
      await expect(page.getByTestId('login-background')).toHaveCSS(
        'background-image',
        /\/assetportal\/api\/config\/loginHero/,
      );
      await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
      await keepScreenshot(page, testInfo, 'login-branding');
    } finally {
      await restore();
    }
  });
});
