import type { Page } from '@playwright/test';
import { expect, test } from '../support/journey.ts';
import { addUser } from '../support/accounts.ts';

test.beforeAll(() => {
  addUser('reader', 'users');
  addUser('blocky', 'users');
  addUser('config-admin', 'gui');
  addUser('outsider', '');
});

/** A login checks the password at full cost; on a loaded machine it can take several seconds. */
const LOGGED_IN = 15_000;

async function logIn(page: Page, user: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
  });
  await page.goto('/#/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
});

test.describe('login (portal-spec §2 "Login", §4 "Login", §8 "Login")', () => {
  test('a wrong password shows the wrong-credentials message', async ({ page }) => {
    await logIn(page, 'reader', 'not the password');
    await expect(page.getByRole('alert')).toHaveText('Incorrect username or password');
    await expect(page).toHaveURL(/#\/login$/);
  });

  test('the sixth try after five failures shows the blocked message', async ({ page }) => {
    for (let i = 1; i <= 5; i++) {
      await logIn(page, 'blocky', `wrong ${i}`);
      await expect(page.getByRole('alert')).toHaveText('Incorrect username or password');
      await page.getByRole('alert').getByRole('button', { name: 'Close' }).click();
    }
    await logIn(page, 'blocky', 'journey secret');
    await expect(page.getByRole('alert')).toHaveText(
      'You have had too many failed login attempts. No further login attempts possible for 15 minutes.',
    );
  });

  test('an asset user lands on the dashboard', async ({ page }) => {
    await logIn(page, 'reader', 'journey secret');
    await expect(page).toHaveURL(/#\/$/, { timeout: LOGGED_IN });
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  });

  test('a GUI admin without portal access lands on /admin/general', async ({ page }) => {
    await logIn(page, 'config-admin', 'journey secret');
    await expect(page).toHaveURL(/#\/admin\/general$/, { timeout: LOGGED_IN });
  });

  test('a user without rights is told so and sees the no-permission page', async ({ page }) => {
    await logIn(page, 'outsider', 'journey secret');
    await expect(page.getByRole('alert')).toHaveText('Account has no authorization');
    await expect(page.getByRole('heading', { level: 1, name: 'No permission' })).toBeVisible();
  });
});

test.describe('logout (portal-spec §2 "Logout and no-permission", §4 "Logout")', () => {
  test('the logout page ends the session and offers to reload and log in again', async ({ page }) => {
    await logIn(page, 'reader', 'journey secret');
    await expect(page).toHaveURL(/#\/$/, { timeout: LOGGED_IN });
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await page.goto('/#/logout');
    await expect(page.getByRole('heading', { level: 1, name: 'Logged out' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).not.toBe(token);
    const check = await page.request.get('/assetportal/api/session/check', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await check.json()).toEqual({ isGuiAdmin: false, sessionValid: false });
    await page.getByRole('link', { name: 'Reload the portal and log in again' }).click();
    await expect(page).toHaveURL(/\/(#\/)?$/);
  });
});
