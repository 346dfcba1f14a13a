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
  await declineUpgradeQuestion(page);
}

/**
 * Answers no to the question an entry to the admin area may ask (admin-spec §4 step 6: store the
 * factory settings, adopt changes). The check waits for the stored config and texts and the bundled
 * texts, which take longer on a busy machine than any fixed pause: it waits until the check decided.
 */
export async function declineUpgradeQuestion(page: Page): Promise<void> {
  await expect(page.locator('[data-admin-upgrade-check="done"]')).toBeAttached({ timeout: 15_000 });
  const question = page.getByRole('dialog', { name: 'Please confirm' });
  if (await question.isVisible()) await question.getByRole('button', { name: 'No' }).click();
}

/** Goes to a section through the admin navigation and waits until it has loaded. */
export async function openAdminSection(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 15_000 });
}

/** The admin area's dialogs (admin-spec §2 "Modals in the admin area"), by the section that opens them. */
const adminDialogs: readonly {
  section: (typeof adminSections)[number];
  name: string | RegExp;
  button: string | RegExp;
}[] = [
  { section: 'Appearance', name: /^Theme colours: /, button: /^Colours of / },
  { section: 'Dashboard', name: 'Add pre-search', button: 'Add pre-search' },
  { section: 'Language settings', name: 'Add language', button: 'Add language' },
  { section: 'Language settings', name: 'Add translation', button: 'Add translation' },
];

/**
 * Opens each dialog of the section shown, hands it to `visit` while open, and closes it by Escape;
 * focus goes back to the button that opened it.
 */
export async function eachAdminDialog(
  page: Page,
  section: string,
  visit: (name: string) => Promise<void>,
): Promise<void> {
  for (const { name, button } of adminDialogs.filter((d) => d.section === section)) {
    const opener = page.getByRole('button', { name: button }).first();
    await opener.click();
    const dialog = page.getByRole('dialog', { name });
    await expect(dialog).toBeVisible();
    await visit(`${section}: dialog ${String(name)}`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  }
}
