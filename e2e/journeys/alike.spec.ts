import type { Locator, Page } from '@playwright/test';
import { addUser, logIn } from '../support/accounts.ts';
import { seriousViolations } from '../support/axe.ts';
import { demoAssetId } from '../support/catalogue.ts';
import { expect, test } from '../support/journey.ts';

/**
 * Find alike (issue #52) on the demo catalogue, whose three "Yellow rose" pictures are one photo in
 * three encodings: the asset page of one shows the other two first among the similar assets; a
 * colour picked in the filter sidebar narrows the results and survives going to an asset and back;
 * an editor's duplicates report lists the roses as one group. Axe-clean in both themes, at 375 px.
 */

const EDITOR = 'journey-alike-editor';
const roses = ['yellow_rose.lossy.webp', 'yellow_rose.lossless.webp', 'yellow_rose.lossy-with-alpha.webp'];

/** The number in the results heading ("12 results"). */
async function resultCount(page: Page): Promise<number> {
  const heading = page.getByRole('main').locator('h2[data-tour="result"]');
  await expect(heading).toHaveText(/^\d+ results?/, { timeout: 15_000 });
  return Number(/^(\d+)/.exec((await heading.textContent()) ?? '')?.[1]);
}

/**
 * The asset page's similar row, scrolled to: it is asked for only when its place, below the metadata
 * (and an editor's history), comes near the screen, so it is not there to scroll to before.
 */
async function similarRow(page: Page): Promise<Locator> {
  const similar = page.getByRole('region', { name: 'Similar' });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 15_000 });
  await expect(async () => {
    await page.mouse.move(700, 450);
    await page.mouse.wheel(0, 4000);
    await expect(similar).toBeAttached({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await similar.scrollIntoViewIfNeeded();
  return similar;
}

test.describe('find alike (issue #52)', () => {
  test.use({ locale: 'en-GB' });
  test.beforeAll(() => addUser(EDITOR, 'users,editors'));

  test("a rose's asset page shows the other two roses first among the similar assets", async ({ page, request }) => {
    const [shown, ...others] = await Promise.all(roses.map((file) => demoAssetId(request, 'image', file)));
    await page.goto(`/#/asset/${shown}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Yellow rose' })).toBeVisible({ timeout: 15_000 });
    const similar = await similarRow(page);
    const links = similar.getByRole('link');
    await expect(links.first()).toBeVisible({ timeout: 15_000 });
    const firstTwo = await Promise.all([0, 1].map((i) => links.nth(i).getAttribute('href')));
    expect(firstTwo.map((href) => href?.split('/').pop()).sort()).toEqual([...others].sort());
    expect(await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')))).not.toContain(`#/asset/${shown}`);
    // A poster leads to its asset's page.
    await links.first().click();
    await expect(page).toHaveURL(new RegExp(`#/asset/(${others.join('|')})$`));
  });

  test('a colour picked in the sidebar narrows the results and survives going to an asset and back', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1350, height: 900 });
    await page.goto('/#/search/*');
    const all = await resultCount(page);
    await page.getByRole('button', { name: 'Search by the colour yellow' }).click();
    await expect(page).toHaveURL(/colour/);
    await expect.poll(() => resultCount(page)).toBeLessThan(all);
    const narrowed = await resultCount(page);
    expect(narrowed).toBeGreaterThan(0);
    const tag = page.getByRole('button', { name: /^Remove filter Colour: #[0-9a-f]{6}$/ });
    await expect(tag).toBeVisible();
    // The colour is the tag; the search box shows no query syntax the visitor never typed.
    const box = page.getByRole('search').getByRole('combobox', { name: 'Search' });
    await expect(box).toHaveValue('');

    const results = page.getByRole('region', { name: 'Results', exact: true });
    await results.locator('[data-asset-id]').first().getByRole('link', { name: 'Open asset page' }).click();
    await expect(page).toHaveURL(/#\/asset\//);
    await page.goBack();
    await expect(page).toHaveURL(/colour/);
    expect(await resultCount(page)).toBe(narrowed);
    await expect(tag).toBeVisible();
    await expect(box).toHaveValue('');
  });

  test("an editor's duplicates report lists the three roses as one group", async ({ page, request }) => {
    const ids = await Promise.all(roses.map((file) => demoAssetId(request, 'image', file)));
    await logIn(page, EDITOR);
    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Duplicates' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Duplicates' })).toBeVisible({ timeout: 15_000 });
    // The demo has other near copies too: the roses' group is the one that holds the first rose.
    const group = page
      .getByRole('region', { name: /^Near copies/ })
      .filter({ has: page.locator(`a[href$="/asset/${ids[0]}"]`) });
    await expect(group).toBeVisible({ timeout: 15_000 });
    await expect(group).toHaveAccessibleName('Near copies (3 assets)');
    const hrefs = await group.getByRole('link').evaluateAll((all) => all.map((a) => a.getAttribute('href') ?? ''));
    expect([...new Set(hrefs.map((h) => h.split('/').pop()))].sort()).toEqual([...ids].sort());
  });

  for (const [theme, width] of [
    ['light', 1350],
    ['dark', 1350],
    ['light', 375],
  ] as const) {
    test(`the similar row, the colour picker and the duplicates report are axe-clean in the ${theme} theme at ${width} px`, async ({
      page,
      request,
    }) => {
      // Three pages with axe run on each, on a busy machine.
      test.setTimeout(60_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.addInitScript((key) => localStorage.setItem('theme', key), theme);
      const id = await demoAssetId(request, 'image', roses[0]!);
      await logIn(page, EDITOR);
      await page.goto(`/#/asset/${id}`);
      const similar = await similarRow(page);
      await expect(similar.getByRole('link').first()).toBeVisible({ timeout: 15_000 });
      const found = await seriousViolations(page);
      if (width > 600) {
        await page.goto('/#/search/*');
        await expect(page.getByRole('button', { name: 'Search by the colour yellow' })).toBeVisible({
          timeout: 15_000,
        });
        found.push(...(await seriousViolations(page)));
      }
      await page.goto('/#/duplicates');
      await expect(page.getByRole('region', { name: /^Near copies/ }).first()).toBeVisible({ timeout: 15_000 });
      found.push(...(await seriousViolations(page)));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(found).toEqual([]);
    });
  }
});
