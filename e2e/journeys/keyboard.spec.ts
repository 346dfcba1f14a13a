import type { Locator, Page } from '@playwright/test';
import { expect as baseExpect, test } from '../support/journey.ts';
import { addUser } from '../support/accounts.ts';

// The first visit of a page waits for its content on a machine that may be busy.
const expect = baseExpect.configure({ timeout: 15_000 });

test.use({ locale: 'en-GB' });
test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
  });
});

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
}

/** The focused element shows a visible focus indicator (an outline or a box shadow). */
async function expectVisibleFocus(page: Page): Promise<void> {
  const style = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const s = getComputedStyle(el);
    return { outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0, shadow: s.boxShadow !== 'none' };
  });
  expect(style.outline || style.shadow, 'visible focus').toBe(true);
}

test.describe('keyboard only (portal-spec §2, §4; accessible by default)', () => {
  test.beforeAll(() => addUser('keyboarder', 'users'));

  test('skip link, search, filter, open an asset with arrow keys and Enter, and download it in a chosen set', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    await expect(page.getByTestId('dashboard-hero')).toBeVisible();
    // The first Tab reaches the skip link; Enter moves the focus to the content.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('#main')).toBeFocused();

    // Search from the hero.
    const heroSearch = page.getByRole('search').getByRole('combobox', { name: 'Search' });
    await tabTo(page, heroSearch);
    await page.keyboard.type('photo');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#\/search\/photo/);
    const heading = page.getByRole('heading', { level: 2, name: /results? for/ });
    await expect(heading).toBeVisible();

    // Filter to pictures with Space, so the asset opened offers more than one conversion set (original
    // and web JPEG) and the download goes through the dialog.
    const facets = page.getByRole('complementary', { name: 'Filters' });
    const pictures = facets.getByRole('group', { name: 'Asset type' }).getByRole('checkbox', { name: /^image\b/ });
    await tabTo(page, pictures);
    await expectVisibleFocus(page);
    const count = /\((\d+)\)/.exec((await pictures.evaluate((el) => el.closest('label')?.textContent)) ?? '')?.[1];
    await page.keyboard.press('Space');
    await expect(page).toHaveURL(/%2Basset_groups=image|\+asset_groups=image/);
    await expect(pictures).toBeChecked();
    await expect(heading).toHaveText(`${count} results for “photo”`);

    // Results: Tab reaches the first, arrow keys move between them, Enter opens the info panel.
    const results = page.getByRole('region', { name: 'Results', exact: true });
    const buttons = results.locator('[data-result-button]');
    await tabTo(page, buttons.first());
    await expectVisibleFocus(page);
    if ((await buttons.count()) > 1) {
      await page.keyboard.press('ArrowRight');
      await expect(buttons.nth(1)).toBeFocused();
      await page.keyboard.press('ArrowLeft');
      await expect(buttons.first()).toBeFocused();
    }
    await page.keyboard.press('Enter');
    await expect(buttons.first()).toHaveAttribute('aria-expanded', 'true');
    const panel = results.getByRole('region', { name: /^Details of/ });
    await expect(panel).toBeVisible();
    // Escape closes the panel and the focus goes back to the result.
    await expect(panel).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(buttons.first()).toBeFocused();
    await page.keyboard.press('Enter');
    await tabTo(page, panel.getByRole('link', { name: 'Open' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#\/asset\/\d+/);

    // Download with the keyboard (portal-spec §4 "Download flow"): the button opens the conversion-set
    // dialog; the arrow key chooses the web JPEG, Space accepts the terms when they are shown, Enter downloads.
    const id = /#\/asset\/(\d+)/.exec(page.url())?.[1];
    const asset = await request.get('/assetportal/api/assets', { params: { assetid: id ?? '' } });
    const filename = ((await asset.json()) as { response: { docs: { filename?: string }[] } }).response.docs[0]
      ?.filename;
    expect(filename).toBeTruthy();
    await tabTo(page, page.getByRole('toolbar', { name: 'Asset actions' }).getByRole('button', { name: 'Download' }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Download options' });
    await expect(dialog).toBeVisible();
    const original = dialog.getByRole('radio', { name: 'Original file' });
    await tabTo(page, original);
    await expectVisibleFocus(page);
    await page.keyboard.press('ArrowDown');
    const web = dialog.getByRole('radio', { name: 'Web JPEG (2048 px)' });
    await expect(web).toBeFocused();
    await expect(web).toBeChecked();
    const terms = dialog.getByRole('checkbox');
    if ((await terms.count()) > 0) {
      await tabTo(page, terms);
      await page.keyboard.press('Space');
      await expect(terms).toBeChecked();
    }
    await tabTo(page, dialog.getByRole('button', { name: 'Download' }));
    const file = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    expect((await file).suggestedFilename()).toBe(`${(filename ?? '').replace(/\.[^.]+$/, '')}.jpg`);
    await expect(dialog).toBeHidden();
  });

  test('bookmark an asset and view the bookmarks', async ({ page, request }) => {
    const res = await request.get('/assetportal/api/search', { params: { solr_q: 'sunset', solr_rows: '1' } });
    const id = ((await res.json()) as { response: { docs: { id: string }[] } }).response.docs[0]?.id;
    expect(id).toBeTruthy();
    await page.goto(`/#/asset/${id}`);
    const actions = page.getByRole('toolbar', { name: 'Asset actions' });
    await tabTo(page, actions.getByRole('button', { name: 'Add to bookmarks' }));
    await expectVisibleFocus(page);
    await page.keyboard.press('Enter');
    await expect(actions.getByRole('button', { name: 'Remove from bookmarks' })).toBeFocused();

    await tabTo(
      page,
      page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Bookmarks' }),
      {
        back: true,
      },
    );
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#\/bookmark$/);
    await expect(page.getByText('1 bookmarked asset')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Bookmarked assets' }).getByRole('listitem')).toHaveCount(1);
  });

  test('log in and log out', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('dashboard-hero')).toBeVisible();
    await tabTo(page, page.getByRole('link', { name: 'Log in', exact: true }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#\/login/);
    await tabTo(page, page.getByLabel('Username'));
    await page.keyboard.type('keyboarder');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Password')).toBeFocused();
    await page.keyboard.type('journey secret');
    await page.keyboard.press('Enter');
    await expect(page).not.toHaveURL(/#\/login/);

    // The account menu opens with Enter, closes with Escape returning the focus, and logs out.
    const account = page.getByRole('button', { name: /Account of keyboarder/ });
    // The header is above the page: backwards is the short way there from the landing page's content.
    await tabTo(page, account, { back: true });
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(account).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    const logout = menu.getByRole('menuitem', { name: 'Log out' });
    for (let i = 0; i < 10 && !(await logout.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('ArrowDown');
    await expect(logout).toBeFocused();
    await page.keyboard.press('Enter');
    // The logout page also offers 'Reload the portal and log in again'.
    await expect(page.getByRole('link', { name: 'Log in', exact: true })).toBeVisible();
  });
});
