import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from '../support/journey.ts';
import { addUser, logIn } from '../support/accounts.ts';

test.use({ locale: 'en-GB', viewport: { width: 1400, height: 1000 } });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
  });
});

/** Errors the page throws, collected for the whole journey. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
  return errors;
}

/** The id of a demo image, as a guest finds it. */
async function imageId(request: APIRequestContext): Promise<string> {
  const res = await request.get('/assetportal/api/search', {
    params: { solr_q: '*', solr_rows: '1', filter: JSON.stringify([{ key: 'asset_groups', values: ['image'] }]) },
  });
  const id = ((await res.json()) as { response: { docs: { id: string }[] } }).response.docs[0]?.id;
  expect(id).toBeTruthy();
  return id ?? '';
}

/** Opens a dialog with `opener`, closes it by Escape, then again by its `cancel` button; focus comes back each time. */
async function closesBothWays(page: Page, opener: Locator, dialog: Locator, cancel: string): Promise<void> {
  for (const close of ['Escape', cancel]) {
    await opener.click();
    await expect(dialog).toBeVisible();
    if (close === 'Escape') await page.keyboard.press('Escape');
    else await dialog.getByRole('button', { name: cancel, exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
  }
}

/** Opens the search page and the info panel of its first result; waits until the panel holds focus. */
async function openInfoPanel(page: Page): Promise<Locator> {
  await page.goto('/#/search/*');
  const first = page.locator('[data-result-button]').first();
  // The first search after the server started may still be building its index.
  await expect(first).toBeVisible({ timeout: 60_000 });
  await first.click();
  const panel = page.getByRole('region', { name: /^Details of / });
  await expect(panel).toBeVisible();
  // The panel takes focus 350 ms after it opens (portal-spec §9).
  await expect(panel).toBeFocused();
  return panel;
}

test.describe('one focus owner at a time (portal-spec §2 "Dialogs", §9 focus traps)', () => {
  for (const close of ['Escape', 'Cancel'] as const) {
    test(`search: with the info panel open, the download dialog closes by ${close} and gives focus back`, async ({
      page,
    }) => {
      test.slow();
      const errors = pageErrors(page);
      const panel = await openInfoPanel(page);
      const opener = page.getByRole('button', { name: 'Download selection' });
      await opener.click();
      const dialog = page.getByRole('dialog', { name: 'Download options' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('radio').first()).toBeVisible();
      if (close === 'Escape') await page.keyboard.press('Escape');
      else await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(opener).toBeFocused();
      // The page still answers: the panel's close button closes it.
      await panel.getByRole('button', { name: 'Close details' }).click();
      await expect(panel).toHaveCount(0);
      expect(errors).toEqual([]);
    });
  }
});

test.describe('dialogs on the other pages give focus back (portal-spec §2 "Dialogs")', () => {
  test('bookmarks: the download dialog closes by Escape and by Cancel', async ({ page, request }) => {
    test.slow();
    const errors = pageErrors(page);
    const id = await imageId(request);
    await page.goto(`/#/asset/${id}`);
    const actions = page.getByRole('toolbar', { name: 'Asset actions' });
    await actions.getByRole('button', { name: 'Add to bookmarks' }).click();
    await expect(actions.getByRole('button', { name: 'Remove from bookmarks' })).toBeVisible();
    await page.goto('/#/bookmark');
    const opener = page.getByRole('button', { name: 'Download all' });
    await closesBothWays(page, opener, page.getByRole('dialog', { name: 'Download options' }), 'Cancel');
    expect(errors).toEqual([]);
  });

  test('asset page: the share dialog closes by Escape and by Cancel', async ({ page, request }) => {
    test.slow();
    addUser('focus-sharer', 'users');
    const errors = pageErrors(page);
    const id = await imageId(request);
    await logIn(page, 'focus-sharer');
    await page.goto(`/#/asset/${id}`);
    const opener = page
      .getByRole('toolbar', { name: 'Asset actions' })
      .getByRole('button', { name: 'Share', exact: true });
    await closesBothWays(page, opener, page.getByRole('dialog', { name: 'Create a share link' }), 'Cancel');
    expect(errors).toEqual([]);
  });
});

test.describe('phones: the filter drawer and the info panel (portal-spec §4 "Sidebar / drawer")', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('with the info panel open, the filter drawer takes and keeps focus, and it and the menu close by Escape and give focus back', async ({
    page,
  }) => {
    test.slow();
    const errors = pageErrors(page);
    await openInfoPanel(page);
    const filters = page.getByRole('button', { name: 'Show filters' });
    await filters.click();
    const hide = page.getByRole('button', { name: 'Hide filters' });
    await expect(hide).toBeVisible();
    // 250 ms after it opened, the drawer has the focus and keeps it: Tab and Shift+Tab go round inside.
    const drawer = page.getByRole('dialog', { name: 'Filters' });
    await expect(drawer).toBeFocused();
    const focusInDrawer = () => drawer.evaluate((el) => el.contains(document.activeElement));
    await page.keyboard.press('Shift+Tab');
    expect(await focusInDrawer()).toBe(true);
    await page.keyboard.press('Tab');
    await expect(hide).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(hide).toBeHidden();
    await expect(filters).toBeFocused();
    await filters.click();
    await hide.click();
    await expect(hide).toBeHidden();
    await expect(filters).toBeFocused();
    // Escape at once after opening, before the drawer has taken the focus, closes it too.
    await filters.click();
    await page.keyboard.press('Escape');
    await expect(hide).toBeHidden();
    await expect(filters).toBeFocused();
    const menu = page.getByRole('button', { name: 'Open menu' });
    await menu.click();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden();
    await expect(menu).toBeFocused();
    expect(errors).toEqual([]);
  });
});
