import type { Page } from '@playwright/test';
import { expect, test } from '../support/journey.ts';
import { demoAssetId } from '../support/catalogue.ts';

// A first visit on a phone (issue #28): what arrives late (the page's data, its preview, more
// results) takes a place kept for it, so nothing the visitor sees moves.
test.use({ locale: 'en-GB', viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
test.describe.configure({ timeout: 60_000 });

interface Shift {
  value: number;
  nodes: string[];
}

/** Records every layout shift from the first paint on, with the elements that moved. */
async function recordShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: { value: number; nodes: string[] }[] = [];
    (window as unknown as { layoutShifts: typeof shifts }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: { node?: Node }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        const nodes = entry.sources.map((s) => {
          const el = s.node as Element | undefined;
          return el?.tagName ? `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? ''}` : '#text';
        });
        shifts.push({ value: entry.value, nodes });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/**
 * Opens `path` as a slow phone would (4x slower processor, answers 300 ms late), waits until the
 * page has settled and gives the shifts seen.
 */
async function shiftsOfFirstVisit(page: Page, path: string): Promise<Shift[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.route('**/assetportal/api/**', async (route) => {
    await new Promise((r) => setTimeout(r, 300));
    await route.continue();
  });
  await recordShifts(page);
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1500);
  return page.evaluate(() => (window as unknown as { layoutShifts: Shift[] }).layoutShifts);
}

const total = (shifts: Shift[]) => shifts.reduce((sum, s) => sum + s.value, 0);

test('the asset page keeps its layout while the asset and its preview load (CLS ≤ 0.1)', async ({ page }) => {
  const shifts = await shiftsOfFirstVisit(page, '/#/asset/3');
  await expect(page.getByRole('toolbar', { name: 'Asset actions' })).toBeVisible();
  expect(total(shifts), JSON.stringify(shifts)).toBeLessThanOrEqual(0.1);
});

test("a 3D model's viewer takes the place of its picture without moving anything (CLS ≤ 0.1)", async ({
  page,
  request,
}) => {
  const model = await demoAssetId(request, '3d', 'Spider_binary.stl');
  const shifts = await shiftsOfFirstVisit(page, `/#/asset/${model}`);
  await expect(page.getByRole('application', { name: /^Interactive 3D view of / })).toBeVisible();
  expect(total(shifts), JSON.stringify(shifts)).toBeLessThanOrEqual(0.1);
});

test('the search page keeps its layout while the results load (CLS ≤ 0.1)', async ({ page }) => {
  const shifts = await shiftsOfFirstVisit(page, '/#/search/*');
  await expect(page.getByRole('region', { name: 'Results' })).toBeVisible();
  expect(total(shifts), JSON.stringify(shifts)).toBeLessThanOrEqual(0.1);
});

test('the dashboard keeps its layout while the collection rows load (CLS ≤ 0.1)', async ({ page }) => {
  const shifts = await shiftsOfFirstVisit(page, '/');
  await expect(page.getByRole('main').locator('section[aria-labelledby^="collection-"] img').first()).toBeVisible();
  expect(total(shifts), JSON.stringify(shifts)).toBeLessThanOrEqual(0.1);
});

test.describe('on a wide screen', () => {
  test.use({ viewport: { width: 1350, height: 940 }, isMobile: false, hasTouch: false });

  test("a video's player takes the place of its picture without moving anything (CLS ≤ 0.1)", async ({
    page,
    request,
  }) => {
    const api = '/assetportal/api';
    const { session } = (await (await request.post(`${api}/session/get`, { data: {} })).json()) as { session: string };
    const answer = (await (
      await request.get(`${api}/assets?assetid=${Array.from({ length: 150 }, (_, i) => i + 1).join(',')}`, {
        headers: { authorization: `Bearer ${session}` },
      })
    ).json()) as { response: { docs: { id: string; asset_groups?: string[] }[] } };
    const video = answer.response.docs.find((d) => d.asset_groups?.includes('video'));
    expect(video, 'the demo catalogue has a video').toBeDefined();
    const shifts = await shiftsOfFirstVisit(page, `/#/asset/${video?.id}`);
    await expect(page.locator('.plyr video')).toBeVisible();
    expect(total(shifts), JSON.stringify(shifts)).toBeLessThanOrEqual(0.1);
  });
});
