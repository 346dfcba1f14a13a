import type { Page } from '@playwright/test';
import { expect, test } from '../support/journey.ts';

// A browser that has never seen the tour (the other journeys start with it seen).
test.use({ storageState: { cookies: [], origins: [] } });

/** Walks the tour with the keyboard (Enter on the focused button) and answers the step keys it showed. */
async function walkTour(page: Page): Promise<{ keys: string[]; total: number }> {
  const tour = page.getByRole('dialog', { name: /Guided tour/ });
  // It waits for the page's content (collections, or the results) on a machine that may be busy.
  await expect(tour).toBeVisible({ timeout: 20_000 });
  const total = Number(/of (\d+)/.exec((await tour.getByRole('heading').textContent()) ?? '')?.[1]);
  const keys: string[] = [];
  for (let n = 1; n <= total; n++) {
    await expect(tour.getByRole('heading')).toContainText(`Step ${n} of ${total}`);
    // The step's element is on the page and marked while its step shows.
    const active = page.locator('[data-tour-active]');
    await expect(active).toHaveCount(1);
    keys.push((await active.getAttribute('data-tour')) ?? '');
    const button = tour.getByRole('button', { name: n === total ? 'Done' : 'Next' });
    await expect(button).toBeFocused();
    await page.keyboard.press('Enter');
  }
  await expect(tour).toBeHidden();
  await expect(page.locator('[data-tour-active]')).toHaveCount(0);
  return { keys, total };
}

async function expectNoTour(page: Page): Promise<void> {
  // The tour looks for its elements 600 ms after the page is ready; give it well more than that.
  await page.waitForTimeout(2000);
  await expect(page.getByRole('dialog', { name: /Guided tour/ })).toHaveCount(0);
}

test.describe('guided tour (portal-spec §2 "Guided tour")', () => {
  test('runs through its steps on the dashboard and on search, skipping absent ones, and does not start again', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.goto('/');
    const dashboard = await walkTour(page);
    // Language, bookmark, search input and collection are on the dashboard; tiles are not configured.
    expect(dashboard.keys).toEqual(['language', 'bookmark', 'search_input', 'collection']);
    expect(await page.evaluate(() => localStorage.getItem('tour'))).toBe('["dashboard"]');
    await page.reload();
    await expect(page.getByTestId('dashboard-hero')).toBeVisible();
    await expectNoTour(page);

    // §4: on search it starts when the total changes.
    await page.goto('/#/search/*');
    const search = await walkTour(page);
    expect(search.keys).toEqual(
      expect.arrayContaining([
        'language',
        'search_input',
        'sort',
        'views',
        'facets',
        'result',
        'result_view',
        'info_panel',
      ]),
    );
    // The info panel step opens the first result's panel and points at it; no tiles on search.
    expect(search.keys.indexOf('info_panel')).toBe(search.keys.indexOf('result_view') + 1);
    await expect(page.getByRole('region', { name: /^Details of / })).toBeVisible();
    expect(search.keys).not.toContain('tile');
    expect(search.keys).toHaveLength(search.total);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('tour'))) ?? '[]')).toEqual([
      'dashboard',
      'search',
    ]);
    // The info panel the tour opened holds focus; a click in the search box takes it from there.
    const input = page.getByRole('search').getByRole('combobox', { name: 'Search' });
    await input.click();
    await input.fill('sunset');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 2 }).first()).toContainText('sunset');
    await expectNoTour(page);
  });

  test('speaks German and ends on Escape', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('locale', 'de'));
    await page.reload();
    const tour = page.getByRole('dialog', { name: /Rundgang/ });
    await expect(tour).toBeVisible({ timeout: 20_000 });
    await expect(tour).toContainText('Hier wählen Sie die Sprache des Portals.');
    await expect(tour.getByRole('button', { name: 'Weiter' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(tour).toBeHidden();
    await page.reload();
    await expectNoTour(page);
  });
});
