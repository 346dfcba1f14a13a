import { holdEntryModule } from '../support/entry.ts';
import { expect, test } from '../support/journey.ts';

test.use({ locale: 'en-GB' });

test.describe('dashboard (portal-spec §2 "Dashboard")', () => {
  test('shows the hero with the search input; submitting searches the trimmed text', async ({ page }) => {
    await page.goto('/');
    const hero = page.getByTestId('dashboard-hero');
    await expect(hero).toBeVisible();
    expect((await hero.boundingBox())?.height).toBeGreaterThanOrEqual(350);
    const input = page.getByRole('search').getByRole('combobox', { name: 'Search' });
    await input.fill('  forest  ');
    await input.press('Enter');
    await expect(page).toHaveURL(/#\/search\/forest$/);
  });

  test("a phone's first visit paints the hero before the app's code runs; the app's hero takes its place (decision 0242)", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    // The app's entry module comes late, as on a slow connection.
    const entry = await holdEntryModule(page);
    await page.goto('/');
    const painted = page.locator('#vt-first-paint .vt-hero');
    await expect(painted).toBeVisible();
    await expect(painted.locator('img')).toHaveJSProperty('complete', true);
    await expect(painted).toContainText('Find your media');
    const box = await painted.boundingBox();
    // The app's screen is drawn behind it, hidden until then.
    await expect(page.getByTestId('dashboard-hero')).toBeHidden();
    entry.release();
    await expect(page.locator('#vt-first-paint')).toHaveCount(0, { timeout: 15_000 });
    const hero = page.getByTestId('dashboard-hero');
    await expect(hero).toBeVisible();
    expect(await hero.boundingBox()).toEqual(box);
    await expect(hero.getByRole('combobox', { name: 'Search' })).toBeVisible();
    // The page's script runs under the Content-Security-Policy (its hash), and nothing else failed.
    expect(errors).toEqual([]);
    // A screen the first paint does not stand for (the login page) has none, going there or coming first.
    await page.goto('/#/login');
    await expect(page.getByRole('main').getByRole('button', { name: 'Log in', exact: true })).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.locator('#vt-first-paint')).toHaveCount(0);
    const login = await page.context().newPage();
    await login.goto('/#/login');
    await expect(login.getByRole('main')).toBeVisible();
    await expect(login.locator('#vt-first-paint')).toHaveCount(0);
  });

  test('an empty search goes to /search/*', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Start search' }).click();
    await expect(page).toHaveURL(/#\/search\/\*$/);
  });

  test('shows the demo collections as poster rows with real thumbnails and More results', async ({ page }) => {
    await page.goto('/');
    const rows = page.getByRole('main').locator('section[aria-labelledby^="collection-"]');
    await expect(rows.first()).toBeVisible({ timeout: 15_000 });
    const firstImage = rows.first().getByRole('img').first();
    await expect(firstImage).toBeVisible();
    await expect.poll(() => firstImage.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await rows
      .first()
      .getByRole('link', { name: /^More results/ })
      .click();
    await expect(page).toHaveURL(/#\/search\//);
  });
});

test.describe('dashboard search suggestions (portal-spec §2 "Search")', () => {
  test('typing shows keyword suggestions; a chosen one becomes a chip and the search filters by it', async ({
    page,
  }) => {
    await page.goto('/');
    const input = page.getByRole('search').getByRole('combobox', { name: 'Search' });
    await input.fill('ph');
    const keywords = page.getByRole('listbox').getByRole('group', { name: 'Keywords' });
    const photo = keywords.getByRole('option', { name: 'photo', exact: true });
    await expect(photo).toBeVisible({ timeout: 10_000 });
    await photo.click();
    await expect(page.getByRole('search').getByRole('button', { name: 'Keywords: photo' })).toBeVisible();
    await expect(photo).toHaveAttribute('aria-disabled', 'true');
    await input.press('Enter');
    await expect(page).toHaveURL(/#\/search\/\*\?%2Bkeywords=photo$/);
  });
});
