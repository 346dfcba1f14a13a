import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect as baseExpect, test } from '../support/journey.ts';
import { addUser, logIn } from '../support/accounts.ts';
import { adminSections, openAdminArea, openAdminSection } from '../support/admin.ts';

// The first visit of a page waits for its content on a machine that may be busy.
const expect = baseExpect.configure({ timeout: 15_000 });
test.use({ locale: 'en-GB' });
test.describe.configure({ timeout: 180_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
  });
});

/** The id of the first image the search finds for `text`. */
async function imageId(request: APIRequestContext, text: string): Promise<string> {
  const res = await request.get('/assetportal/api/search', {
    params: { solr_q: text, solr_rows: '1', filter: JSON.stringify([{ key: 'asset_groups', values: ['image'] }]) },
  });
  const id = ((await res.json()) as { response: { docs: { id: string }[] } }).response.docs[0]?.id;
  expect(id).toBeTruthy();
  return id ?? '';
}

/**
 * A finger on the middle of `target`, sent as real touch events (Chrome DevTools protocol): Playwright's
 * touchscreen only taps. It rests `holdMs`, moving `moveY` px first if asked; `whileHeld` runs before
 * it lifts.
 */
async function touch(
  page: Page,
  target: Locator,
  { holdMs, moveY = 0, whileHeld }: { holdMs: number; moveY?: number; whileHeld?: () => Promise<void> },
): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  if (!box) throw new Error('the element to touch is not laid out');
  // The middle of the part of it that is on the screen.
  const x = box.x + box.width / 2;
  const y = (Math.max(box.y, 0) + Math.min(box.y + box.height, height)) / 2;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let step = 1; step <= 3 && moveY !== 0; step++)
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y + (moveY * step) / 3 }] });
  await page.waitForTimeout(holdMs);
  await whileHeld?.();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test.describe('phones: long-press selection (portal-spec §4 "Selection", the touch counterpart of ctrl-click)', () => {
  test.use({ viewport: { width: 375, height: 667 }, hasTouch: true, isMobile: true });

  test('a long press on a result selects it without opening it; a tap still opens the info panel', async ({ page }) => {
    await page.goto('/#/search/*');
    const results = page.getByRole('region', { name: 'Results', exact: true });
    const buttons = results.locator('[data-result-button]');
    await expect(buttons.nth(1)).toBeVisible();
    const url = page.url();

    // Held 700 ms: the item is selected while the finger still rests on it.
    await touch(page, buttons.first(), {
      holdMs: 700,
      whileHeld: () => expect(buttons.first()).toHaveAttribute('aria-pressed', 'true', { timeout: 2000 }),
    });
    await page.waitForTimeout(300);
    await expect(buttons.first()).toHaveAttribute('aria-pressed', 'true');
    await expect(buttons.first()).toHaveAttribute('aria-expanded', 'false');
    await expect(results.getByRole('region', { name: /^Details of/ })).toHaveCount(0);
    expect(page.url()).toBe(url);
    await expect(page.getByRole('status').filter({ hasText: '1 selected' })).toBeVisible();

    // A second long press adds the next one, a third takes the first out again.
    await touch(page, buttons.nth(1), { holdMs: 700 });
    await expect(page.getByRole('status').filter({ hasText: '2 selected' })).toBeVisible();
    await touch(page, buttons.first(), { holdMs: 700 });
    await expect(buttons.first()).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByRole('status').filter({ hasText: '1 selected' })).toBeVisible();

    // A tap is a click: it makes the item the selection and opens its info panel.
    await touch(page, buttons.first(), { holdMs: 50 });
    await expect(buttons.first()).toHaveAttribute('aria-expanded', 'true');
    await expect(results.getByRole('region', { name: /^Details of/ })).toBeVisible();
    await expect(buttons.nth(1)).toHaveAttribute('aria-pressed', 'false');
  });

  test('a bookmark card is selected by a long press, and not while the finger moves', async ({ page, request }) => {
    await page.goto(`/#/asset/${await imageId(request, 'photo')}`);
    await page.getByRole('toolbar', { name: 'Asset actions' }).getByRole('button', { name: 'Add to bookmarks' }).tap();
    await page.goto('/#/bookmark');
    const card = page.getByRole('list', { name: 'Bookmarked assets' }).getByRole('checkbox').first();
    await expect(card).toBeVisible();
    // A finger that moves 30 px is scrolling, however long it rests.
    await touch(page, card, { holdMs: 700, moveY: 30 });
    await expect(card).toHaveAttribute('aria-checked', 'false');
    await touch(page, card, { holdMs: 700 });
    await expect(card).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByRole('status').filter({ hasText: '1 selected' })).toBeVisible();
    await expect(page).toHaveURL(/#\/bookmark$/);
  });
});

/**
 * A swipe across the screen at the height of the page's middle, sent as touch events with their own
 * times: it moves from `from` to `to` in 10 ms steps of `stepPx`, rests `restMs`, then lifts.
 */
async function swipe(page: Page, from: number, to: number, stepPx: number, restMs = 0): Promise<void> {
  const y = (page.viewportSize()?.height ?? 0) / 2;
  const cdp = await page.context().newCDPSession(page);
  let time = Date.now() / 1000;
  const send = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }], timestamp: time });
  await send('touchStart', from);
  const steps = Math.round(Math.abs(to - from) / stepPx);
  for (let i = 1; i <= steps; i++) {
    time += 0.01;
    await send('touchMove', from + ((to - from) * i) / steps);
  }
  time += restMs / 1000 + 0.01;
  await send('touchEnd', to);
  await cdp.detach();
}

test.describe('phones: the navigation drawer follows swipes (portal-spec §9: edge 25 px, sampling 100 ms, 20 samples)', () => {
  test.use({ viewport: { width: 375, height: 667 }, hasTouch: true, isMobile: true });

  test('a short fling from the 25 px edge opens the drawer; from further in, or one that stopped first, does not; a fling back closes it', async ({
    page,
  }) => {
    await page.goto('/#/custom');
    await expect(page.getByRole('heading', { level: 1 })).toBeAttached();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav).toBeHidden();
    // 80 px in 40 ms (2000 px/s): far less than half the drawer's 256 px, so only its speed can open it.
    await swipe(page, 40, 120, 20);
    await page.waitForTimeout(500);
    await expect(nav).toBeHidden();
    await swipe(page, 10, 90, 20, 200);
    await page.waitForTimeout(500);
    await expect(nav).toBeHidden();
    await swipe(page, 10, 90, 20);
    await expect(nav).toBeVisible();
    const paper = await nav.evaluate((el) => el.closest('.MuiDrawer-paper')?.getBoundingClientRect().width);
    expect(paper).toBe(256);
    // While it is open, a fling to the left from anywhere closes it.
    await swipe(page, 200, 60, 20);
    await expect(nav).toBeHidden();
    // A slow pull from the edge past half the drawer's width, which rests before it lifts, opens it
    // by the distance pulled (the drawer is mounted once the pull starts).
    await swipe(page, 10, 200, 10, 200);
    await expect(nav).toBeVisible();
  });
});

/**
 * Whether the page scrolls sideways; when it does, the outermost elements that stick out past the
 * right edge, to say what to fix.
 */
async function sideways(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return undefined;
    const out = Array.from(document.body.querySelectorAll<HTMLElement>('*')).filter((el) => {
      if (el.getBoundingClientRect().right <= root.clientWidth + 0.5) return false;
      const parent = el.parentElement;
      return !parent || parent.getBoundingClientRect().right <= root.clientWidth + 0.5;
    });
    const name = (el: HTMLElement) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${Array.from(el.classList).slice(0, 2).join('.')} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    return `${root.scrollWidth} > ${root.clientWidth}: ${out.slice(0, 5).map(name).join('; ')}`;
  });
}

test.describe('no sideways scrolling of the page at 320 px width (issue #13 "Phones")', () => {
  test.use({ viewport: { width: 320, height: 568 } });
  test.beforeAll(() => {
    addUser('narrow', 'users');
    addUser('narrow-admin', 'admins');
  });

  test('the progress of a running download stays on the screen', async ({ page, request }) => {
    const id = await imageId(request, 'photo');
    // The file answers slowly, so the progress is seen while it comes.
    await page.route('**/media/download/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue();
    });
    await page.goto(`/#/asset/${id}`);
    await page.getByRole('toolbar', { name: 'Asset actions' }).getByRole('button', { name: 'Download' }).click();
    const options = page.getByRole('dialog', { name: 'Download options' });
    await options.getByRole('button', { name: 'Download' }).click();
    const progress = page.getByRole('status').filter({ hasText: /^Downloading / });
    await expect(progress).toBeVisible();
    const box = await progress.boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(320);
  });

  test('login, dashboard, search with and without filters, asset, bookmarks, shares, custom page, admin', async ({
    page,
    request,
  }) => {
    const found: string[] = [];
    const check = async (what: string) => {
      const wide = await sideways(page);
      if (wide) found.push(`${what}: ${wide}`);
    };

    await page.goto('/#/login');
    await expect(page.getByLabel('Username')).toBeVisible();
    await check('login');
    await page.goto('/');
    await expect(page.getByTestId('dashboard-hero')).toBeVisible();
    await expect(page.locator('section[aria-labelledby^="collection-"]').first()).toBeVisible();
    await check('dashboard');
    await page.goto('/#/search/*');
    const results = page.getByRole('region', { name: 'Results', exact: true });
    await expect(results.locator('[data-result-button]').first()).toBeVisible();
    await check('search');
    for (const view of ['Thumbnails', 'List']) {
      await page.getByRole('button', { name: view, exact: true }).click();
      await expect(results.locator('[data-result-button]').first()).toBeVisible();
      await check(`search, ${view}`);
    }
    await results.locator('[data-result-button]').first().click();
    await expect(results.getByRole('region', { name: /^Details of/ })).toBeVisible();
    await check('search, info panel');
    await page.getByRole('button', { name: 'Show filters' }).click();
    await expect(page.getByRole('button', { name: 'Hide filters' })).toBeVisible();
    await check('search, filter drawer');
    await page.getByRole('button', { name: 'Hide filters' }).click();

    const id = await imageId(request, 'photo');
    await page.goto(`/#/asset/${id}`);
    await expect(page.getByRole('toolbar', { name: 'Asset actions' })).toBeVisible();
    await check('asset');
    await page.goto('/#/custom');
    await expect(page.getByRole('heading', { level: 1 })).toBeAttached();
    await check('custom page');

    await logIn(page, 'narrow');
    await page.goto(`/#/asset/${id}`);
    const toggle = page
      .getByRole('toolbar', { name: 'Asset actions' })
      .getByRole('button', { name: /^(Add to|Remove from) bookmarks$/ });
    await expect(toggle).toBeEnabled();
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
    // A share link, so its list has a row.
    await page
      .getByRole('toolbar', { name: 'Asset actions' })
      .getByRole('button', { name: 'Share', exact: true })
      .click();
    const share = page.getByRole('dialog', { name: 'Create a share link' });
    await share.getByLabel('Name (optional)').fill('A share link with a rather long name for a narrow screen');
    await share.getByRole('checkbox', { name: 'Original file' }).check();
    await share.getByRole('button', { name: 'Create link' }).click();
    await expect(share.getByRole('textbox', { name: 'Share link' })).toBeVisible();
    await check('share dialog');
    await share.getByRole('button', { name: 'Close' }).click();
    await page.goto('/#/bookmark');
    await expect(page.getByRole('list', { name: 'Bookmarked assets' }).getByRole('listitem').first()).toBeVisible();
    await check('bookmarks');
    await page.goto('/#/shares');
    await expect(page.getByRole('row', { name: /A share link with a rather long name/ }).first()).toBeVisible();
    await check('shares');

    await logIn(page, 'narrow-admin');
    await openAdminArea(page);
    for (const name of adminSections) {
      await openAdminSection(page, name);
      await check(`admin ${name}`);
    }

    expect(found).toEqual([]);
  });
});
