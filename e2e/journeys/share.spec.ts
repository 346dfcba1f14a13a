import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/journey.ts';
import { addUser, logIn } from '../support/accounts.ts';

const API = '/assetportal/api/';

test.use({ locale: 'en-GB' });

/** A demo image as a guest finds it. */
async function image(request: APIRequestContext): Promise<string> {
  const res = await request.get(`${API}search`, {
    params: { solr_q: '*', filter: JSON.stringify([{ key: 'format', values: ['png', 'jpeg'] }]), solr_rows: '1' },
  });
  expect(res.ok()).toBe(true);
  const [doc] = ((await res.json()) as { response: { docs: { id: string }[] } }).response.docs;
  expect(doc).toBeDefined();
  return doc?.id ?? '';
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
  });
});

test.describe('share links (docs/security.md "Share links")', () => {
  test.beforeAll(() => addUser('sharer', 'users'));

  test('a user shares an asset with a password; a visitor without an account opens it, downloads, and is refused once it is revoked', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(90_000);
    const id = await image(request);
    await logIn(page, 'sharer');
    await page.goto(`/#/asset/${id}`);
    await page
      .getByRole('toolbar', { name: 'Asset actions' })
      .getByRole('button', { name: 'Share', exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Create a share link' });
    await dialog.getByLabel('Name (optional)').fill('Journey share');
    await dialog.getByLabel('Password (optional, at least 8 characters)').fill('open sesame');
    await dialog.getByRole('checkbox', { name: 'Original file' }).check();
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const field = dialog.getByRole('textbox', { name: 'Share link' });
    await expect(field).toBeVisible();
    const link = await field.inputValue();
    expect(link).toMatch(/#\/share\/[\w-]{40,}$/);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // A fresh browser context: no account, no session, no stored token.
    const visitorContext = await browser.newContext({ locale: 'en-GB', acceptDownloads: true });
    const visitor = await visitorContext.newPage();
    await visitor.addInitScript(() => localStorage.setItem('locale', 'en'));
    await visitor.goto(link);
    await expect(visitor.getByText('This share link is protected by a password.')).toBeVisible({ timeout: 15_000 });
    await visitor.getByLabel('Password').fill('wrong guess');
    await visitor.getByRole('button', { name: 'Open' }).click();
    await expect(visitor.getByRole('alert').filter({ hasText: 'The password is not correct.' })).toBeVisible();
    await visitor.getByLabel('Password').fill('open sesame');
    await visitor.getByRole('button', { name: 'Open' }).click();
    await expect(visitor).toHaveURL(/#\/search/, { timeout: 15_000 });
    await expect(visitor.getByRole('status').filter({ hasText: 'shared with you: Journey share' })).toBeVisible();
    // Exactly the shared asset, nothing else of the catalogue.
    await expect(visitor.locator('[data-asset-id]')).toHaveCount(1, { timeout: 15_000 });
    await expect(visitor.locator(`[data-asset-id="${id}"]`)).toBeVisible();
    const thumbnail = await visitor.locator(`[data-asset-id="${id}"] img`).first().getAttribute('src');
    expect(thumbnail).toContain('share=');

    await visitor.goto(`${new URL(link).origin}/#/asset/${id}`);
    // The link grants the original file only: with one set the download starts without the options
    // dialog, so the journey listens for it before the click that may start it at once.
    const downloading = visitor.waitForEvent('download');
    await visitor.getByRole('toolbar', { name: 'Asset actions' }).getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    await expect(visitor.getByRole('dialog', { name: 'Download options' })).toHaveCount(0);
    expect(download.suggestedFilename()).toMatch(/\.(jpe?g|png)$/i);

    // The creator sees the counts and revokes the link.
    await page.goto('/#/shares');
    const row = page.getByRole('row', { name: /Journey share/ });
    await expect(row).toContainText('active');
    // Cells after the name (the row header): assets, created, expires, state, views, downloads.
    await expect(row.getByRole('cell').nth(4)).toHaveText('1');
    await expect(row.getByRole('cell').nth(5)).toHaveText('1');
    await row.getByRole('button', { name: 'Revoke Journey share' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect(row).toContainText('revoked');

    // The link, and the media URL handed out through it before, are refused now.
    const media = await visitor.request.get(new URL(thumbnail ?? '', link).toString());
    expect(media.status()).toBe(403);
    await visitor.goto(link);
    await expect(visitor.getByText('This share link cannot be opened')).toBeVisible({ timeout: 15_000 });
    await visitorContext.close();
  });
});
