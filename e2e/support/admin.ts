import { expect, type Page } from '@playwright/test';

/** The admin area's sections, named as its navigation names them (admin-spec §2). */
export const adminSections = [
  'General',
  'Appearance',
  'Dashboard',
  'Language settings',
  'Search settings',
  'Login',
  'Own pages',
] as const;

/**
 * Opens the admin area as the admin who is logged in. A first visit may ask to store the factory
 * settings; it is answered no, so the config stays as it is for the other journeys.
 */
export async function openAdminArea(page: Page): Promise<void> {
  await page.goto('/#/admin/general');
  await expect(page.getByRole('heading', { level: 2, name: 'General', includeHidden: true })).toBeAttached({
    timeout: 15_000,
  });
  const question = page.getByRole('dialog', { name: 'Please confirm' });
  const asked = await question.waitFor({ timeout: 2000 }).then(
    () => true,
    () => false,
  );
  if (asked) await question.getByRole('button', { name: 'No' }).click();
}

/** Goes to a section through the admin navigation and waits until it has loaded. */
export async function openAdminSection(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 15_000 });
}
