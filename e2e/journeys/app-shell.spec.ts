import { expect, test } from '../support/journey.ts';

test.describe('app shell (portal-spec §2 "Screens and routes")', () => {
  test('opening / renders the shell with the dashboard and its page title', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('banner')).toContainText('Vitrine');
    await expect(page.getByRole('main')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Startseite|Home/);
    await expect(page).toHaveTitle(/^Vitrine \| (Startseite|Home)$/);
  });

  test('an unknown hash route redirects to the dashboard', async ({ page }) => {
    await page.goto('/#/no/such/page');
    await expect(page).toHaveURL(/#\/$/);
  });

  test('the keyboard reaches the skip link first and it moves focus to the content', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: /Zum Inhalt springen|Skip to content/ });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
  });
});
