import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { addUser, logIn } from '../support/accounts.ts';
import { openAdminArea, openAdminSection } from '../support/admin.ts';
import { seriousViolations } from '../support/axe.ts';
import { journeyPortal } from '../support/portals.ts';
import { expect, test } from '../support/journey.ts';

/**
 * People in the admin area (issue #50): an admin invites a person by keyboard, the person sets a
 * password from the mail's link and logs in, is made an editor and sees the editing controls, is
 * disabled and their open page is logged out on its next call. The section is axe-clean in both
 * themes, at 375 px too.
 */

const ADMIN = 'journey-people-admin';
const run = Date.now().toString(36);
const INVITEE = `invitee-${run}`;
const MAIL = `${INVITEE}@example.org`;
const PASSWORD = 'a password of my own';

/** The set-password link of the newest mail to `to` in the portal's outbox (no SMTP in the journeys). */
async function linkMailedTo(to: string): Promise<string> {
  const outbox = path.join(journeyPortal().dataDir, 'outbox');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mails = readdirSync(outbox)
          .sort()
          .map((f) => readFileSync(path.join(outbox, f), 'utf8'))
          .filter((m) => m.includes(to));
        // Quoted-printable: soft line breaks and "=" written as =3D.
        const text = (mails.at(-1) ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        link = /https?:\/\/\S+/.exec(text)?.[0];
        return link;
      },
      { timeout: 10_000 },
    )
    .toContain('#/');
  return link ?? '';
}

/** Opens the account's dialog from the People list, found by its name. */
async function openPerson(page: Page, name: string) {
  await page.getByRole('searchbox', { name: 'Search by name, display name or mail' }).fill(name);
  await page.getByRole('table', { name: 'Accounts' }).getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('people in the admin area (issue #50)', () => {
  test.beforeAll(() => addUser(ADMIN, 'users,admins'));

  test('an invited person sets a password from the mail and logs in, becomes an editor, and is logged out when disabled', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await logIn(page, ADMIN);
    await openAdminArea(page);
    await openAdminSection(page, 'People');
    expect(await seriousViolations(page)).toEqual([]);

    // The invitation, by keyboard alone.
    const invite = page.getByRole('button', { name: 'Invite', exact: true });
    await invite.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Invite a person' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toBeFocused();
    await page.keyboard.type(INVITEE);
    await page.keyboard.press('Tab');
    await page.keyboard.type(MAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Ines Invited');
    await page.keyboard.press('Tab');
    const groups = dialog.getByRole('combobox', { name: 'Groups' });
    await expect(groups).toBeFocused();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'users', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(groups).toBeFocused();
    await expect(groups).toHaveText('users');
    expect(await seriousViolations(page)).toEqual([]);
    const send = dialog.getByRole('button', { name: 'Send invitation' });
    for (let i = 0; i < 5 && !(await send.evaluate((b) => b === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    await expect(send).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: `Invitation sent to ${MAIL}` })).toBeVisible();
    await expect(dialog).toBeHidden();

    // The person, in a browser of their own, follows the mail's link.
    const link = await linkMailedTo(MAIL);
    expect(link.startsWith(baseURL ?? '')).toBe(true);
    const theirs = await browser.newContext({ baseURL });
    const person = await theirs.newPage();
    await person.goto(link);
    await person.getByLabel(/^New password/).fill(PASSWORD);
    await person.getByLabel(/^Repeat the new password/).fill(PASSWORD);
    await person.getByRole('button', { name: 'Save password' }).click();
    await expect(person.getByText('Your new password is saved. You can log in now.')).toBeVisible();
    await logIn(person, INVITEE, PASSWORD);
    const asset = (
      (await (await person.request.get('/assetportal/api/search', { params: { solr_q: '*' } })).json()) as {
        response: { docs: { id: string }[] };
      }
    ).response.docs[0]?.id;
    expect(asset).toBeDefined();
    await person.goto(`/#/asset/${asset}`);
    await expect(person.getByRole('button', { name: 'Download' })).toBeVisible();
    await expect(person.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);

    // The admin makes them an editor; their next page has the editing controls.
    let account = await openPerson(page, INVITEE);
    const handGroups = account.getByRole('combobox', { name: 'Groups (given here)' });
    await handGroups.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'editors', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(handGroups).toHaveText('users, editors');
    await account.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: `${INVITEE} saved` })).toBeVisible();
    await person.reload();
    await expect(person.getByRole('button', { name: 'Edit', exact: true })).toBeVisible({ timeout: 15_000 });

    // Disabled: the open page's next call finds its session gone and goes to the login page.
    account = await openPerson(page, INVITEE);
    await account.getByRole('button', { name: 'Disable' }).click();
    // The notice shows under the dialog, which stays open (and hides the page from assistive technology).
    await expect(page.getByText(`${INVITEE} is disabled and logged out`)).toBeVisible();
    await expect(account.getByRole('button', { name: 'Enable' })).toBeVisible();
    await person.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Search' }).click();
    await expect(person).toHaveURL(/#\/login/, { timeout: 15_000 });
    await theirs.close();
  });

  for (const [theme, width] of [
    ['dark', 1280],
    ['light', 375],
  ] as const) {
    test(`the People section and its dialogs are axe-clean in the ${theme} theme at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.addInitScript((key) => localStorage.setItem('theme', key), theme);
      await logIn(page, ADMIN);
      await openAdminArea(page);
      await openAdminSection(page, 'People');
      await expect(page.getByRole('table', { name: 'Accounts' })).toBeVisible();
      const found = await seriousViolations(page);
      // The page itself does not scroll sideways at 375 px: the table scrolls in its own box.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.getByRole('button', { name: 'Invite', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Invite a person' })).toBeVisible();
      found.push(...(await seriousViolations(page)));
      await page.keyboard.press('Escape');
      const account = await openPerson(page, ADMIN);
      found.push(...(await seriousViolations(page)));
      await page.keyboard.press('Escape');
      await expect(account).toBeHidden();
      expect(found).toEqual([]);
    });
  }
});
