import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/journey.ts';

const API = '/assetportal/api/';

test.use({ locale: 'en-GB' });

/** The first demo asset of a kind, as a guest finds it. */
async function firstOf(request: APIRequestContext, group: string): Promise<{ id: string; page_count?: number }> {
  const res = await request.get(`${API}search`, {
    params: { solr_q: '*', filter: JSON.stringify([{ key: 'asset_groups', values: [group] }]), solr_rows: '50' },
  });
  const docs = ((await res.json()) as { response: { docs: { id: string; page_count?: number }[] } }).response.docs;
  const doc = group === 'document' ? docs.find((d) => (d.page_count ?? 0) >= 2) : docs[0];
  if (!doc) throw new Error(`The demo catalogue has no ${group} asset`);
  return doc;
}

/** What the browser refused under the Content-Security-Policy, as the page reported it. */
const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => {
      // Playwright's own evaluate() runs code the test sends with eval (CDP lets it past the
      // policy, the browser still reports it); such reports carry no file of the portal.
      if (e.blockedURI === 'eval' && !e.sourceFile.startsWith(location.origin)) return;
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`);
    });
  });
});

test.describe('Content-Security-Policy (docs/security.md "Other measures")', () => {
  test('the page carries the policy with frame-ancestors', async ({ request }) => {
    const res = await request.get('/');
    const csp = res.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    // Pictures and fonts from the portal only: an uploaded style sheet reaches no other server.
    expect(csp).toContain("img-src 'self' data: blob:;");
    expect(csp).toContain("font-src 'self' data: blob:;");
    expect(csp).not.toContain('https:');
  });

  test('the dashboard, the search page and its views run without a refused resource', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('dashboard-hero')).toBeVisible({ timeout: 15_000 });
    await page.goto('/#/search?solr_q=*');
    await expect(page.getByRole('main').locator('a[href*="/asset/"]').first()).toBeVisible({ timeout: 15_000 });
    expect(await violations(page)).toEqual([]);
  });

  test('video (Plyr), document pages and 3D views run without a refused resource', async ({ page, request }) => {
    const video = await firstOf(request, 'video');
    await page.goto(`/#/asset/${video.id}`);
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    await expect
      .poll(() => page.locator('video').evaluate((v) => (v as HTMLVideoElement).currentTime), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await violations(page)).toEqual([]);

    const pdf = await firstOf(request, 'document');
    await page.goto(`/#/asset/${pdf.id}`);
    const pages = page.getByRole('region', { name: 'Pages of the document' });
    await pages.getByRole('button', { name: 'Next page' }).click();
    await expect
      .poll(() => pages.getByRole('img').evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await violations(page)).toEqual([]);

    const model = await firstOf(request, '3d');
    await page.goto(`/#/asset/${model.id}`);
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Asset', { timeout: 15_000 });
    // The viewer has loaded the model and drawn it, or said that it cannot.
    const viewer = page.getByRole('application', { name: /^Interactive 3D view of / });
    const cannot = page.getByRole('status').filter({ hasText: 'The 3D model could not be shown' });
    await expect(viewer.or(cannot)).toBeVisible({ timeout: 30_000 });
    expect(await violations(page)).toEqual([]);
  });
});
