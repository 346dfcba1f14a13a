import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect as baseExpect, test } from '../support/journey.ts';
import { seriousViolations } from '../support/axe.ts';
import { demoAssetId } from '../support/catalogue.ts';

// A model is fetched, parsed and drawn in software (SwiftShader) on a machine that may be busy.
const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ locale: 'en-GB' });
test.describe.configure({ timeout: 120_000 });

/** A demo 3D model's id by its file name. */
const modelId = (request: APIRequestContext, filename: string) => demoAssetId(request, '3d', filename);

/**
 * Console errors and warnings of the page, collected from now on; not the software renderer's notes
 * on how slow it is to read pixels back (which the test's screenshots do).
 */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warning') && !m.text().includes('GL Driver Message')) {
      problems.push(`${m.type()}: ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

const viewerOf = (page: Page) => page.getByRole('application', { name: /^Interactive 3D view of / });

/** The viewer once its model is drawn (it says its view in data-view from the first frame on). */
async function openViewer(page: Page, id: string): Promise<Locator> {
  await page.goto(`/#/asset/${id}`);
  const viewer = viewerOf(page);
  await expect(viewer).toHaveAttribute('data-view', /^-?\d/);
  return viewer;
}

/** azimuth and polar angle in degrees, distance: as the viewer writes them. */
async function viewOf(viewer: Locator): Promise<[number, number, number]> {
  const [azimuth = NaN, polar = NaN, distance = NaN] = ((await viewer.getAttribute('data-view')) ?? '')
    .split(' ')
    .map(Number);
  return [azimuth, polar, distance];
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('locale')) localStorage.setItem('locale', 'en');
  });
});

test.describe('the 3D viewer of the asset page (issue #27)', () => {
  test('turns the model by keyboard and by dragging, zooms, and the reset brings the first view back', async ({
    page,
    request,
  }) => {
    const id = await modelId(request, '2CylinderEngine.glb');
    const problems = consoleProblems(page);
    const fetched: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/media/download/')) fetched.push(r.url());
    });
    const viewer = await openViewer(page, id);
    // The model's file comes from its signed URL, like every other file of the portal.
    expect(fetched).toHaveLength(1);
    expect(fetched[0]).toMatch(/\/media\/download\/\d+\/0\?.*sig=/);
    await expect(page.getByText('Drag to turn, scroll or pinch to zoom.', { exact: false })).toBeVisible();
    const start = await viewOf(viewer);
    const firstPicture = await viewer.screenshot();

    // From the keyboard: the canvas takes focus, with a visible ring.
    await page.getByRole('button', { name: 'Back' }).focus();
    for (let i = 0; i < 10 && !(await viewer.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    await expect(viewer).toBeFocused();
    expect(await viewer.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await viewOf(viewer))[0]).toBeCloseTo(start[0] + 15, 0);
    await page.keyboard.press('ArrowUp');
    await expect.poll(async () => (await viewOf(viewer))[1]).toBeCloseTo(start[1] + 15, 0);
    await page.keyboard.press('+');
    await expect.poll(async () => (await viewOf(viewer))[2]).toBeLessThan(start[2] * 0.9);
    // The arrow keys turn the model and leave the page where it is.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.keyboard.press('Home');
    await expect.poll(() => viewOf(viewer)).toEqual(start);

    // Dragging turns it; what the canvas shows changes with it.
    const box = await viewer.boundingBox();
    if (!box) throw new Error('The viewer has no box');
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x - 120, y - 40, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await viewOf(viewer))[0]).toBeGreaterThan(start[0] + 5);
    expect((await viewer.screenshot()).equals(firstPicture)).toBe(false);
    // The wheel zooms.
    await page.mouse.move(x, y);
    await page.mouse.wheel(0, 400);
    await expect.poll(async () => (await viewOf(viewer))[2]).toBeGreaterThan(start[2] * 1.05);

    await page.getByRole('button', { name: 'Reset view' }).click();
    await expect.poll(() => viewOf(viewer)).toEqual(start);
    expect(problems).toEqual([]);
  });

  for (const filename of ['2CylinderEngine.glb', 'Spider_binary.stl', 'Wuson.ply', 'WusonOBJ.obj', 'duck.dae']) {
    test(`shows ${filename} shaded, not as a flat silhouette`, async ({ page, request }) => {
      const id = await modelId(request, filename);
      const problems = consoleProblems(page);
      const viewer = await openViewer(page, id);
      // A lit surface has many shades, none of which covers most of it; a flat silhouette (a model
      // drawn black before its texture came) is one shade, with a few more on its edges.
      const picture = (await viewer.screenshot()).toString('base64');
      const shades = await page.evaluate(async (png) => {
        const img = new Image();
        img.src = `data:image/png;base64,${png}`;
        await img.decode();
        const canvas = new OffscreenCanvas(img.width, img.height);
        const ctx = canvas.getContext('2d');
        if (!ctx) return { distinct: 0, commonest: 1 };
        ctx.drawImage(img, 0, 0);
        const { data } = ctx.getImageData(0, 0, img.width, img.height);
        const luminance = (i: number) =>
          Math.round(0.3 * (data[i] ?? 0) + 0.59 * (data[i + 1] ?? 0) + 0.11 * (data[i + 2] ?? 0));
        const background = luminance(0);
        const counts = new Map<number, number>();
        let model = 0;
        for (let i = 0; i < data.length; i += 4) {
          const l = luminance(i);
          if (l === background) continue;
          model++;
          counts.set(l, (counts.get(l) ?? 0) + 1);
        }
        return { distinct: counts.size, commonest: Math.max(...counts.values()) / model };
      }, picture);
      expect(shades.distinct).toBeGreaterThan(30);
      expect(shades.commonest).toBeLessThan(0.3);
      expect(problems).toEqual([]);
    });
  }

  test('keeps the picture, and logs nothing, where the browser has no WebGL', async ({ page, request }) => {
    const id = await modelId(request, 'Spider_binary.stl');
    // A browser without WebGL: its canvases answer no WebGL context (and draw in 2D as before).
    await page.addInitScript(() => {
      const prototype = HTMLCanvasElement.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
      const getContext = prototype.getContext;
      prototype.getContext = function (this: HTMLCanvasElement, type: unknown, ...rest: unknown[]) {
        return String(type).startsWith('webgl') ? null : getContext?.call(this, type, ...rest);
      };
    });
    const problems = consoleProblems(page);
    const fetched: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/media/download/')) fetched.push(r.url());
    });
    await page.goto(`/#/asset/${id}`);
    const picture = page.getByRole('article').locator('img[src*="/media/preview/"]');
    await expect(picture).toBeVisible();
    await expect(picture).toHaveJSProperty('complete', true);
    await expect(viewerOf(page)).toHaveCount(0);
    expect(fetched).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('keeps the picture and says so when three.js cannot read the model (a glTF 1.0 file)', async ({
    page,
    request,
  }) => {
    await page.goto(`/#/asset/${await modelId(request, 'BoxTextured.glb')}`);
    await expect(page.getByRole('status').filter({ hasText: 'The 3D model could not be shown' })).toBeVisible();
    await expect(page.getByRole('article').locator('img[src*="/media/preview/"]')).toBeVisible();
    await expect(viewerOf(page)).toBeHidden();
  });

  test('keeps the picture and says so when the model cannot be loaded', async ({ page, request }) => {
    const id = await modelId(request, 'Spider_binary.stl');
    await page.route('**/media/download/**', (route) => route.fulfill({ status: 500, body: 'broken' }));
    await page.goto(`/#/asset/${id}`);
    await expect(page.getByRole('status').filter({ hasText: 'The 3D model could not be shown' })).toBeVisible();
    await expect(page.getByRole('article').locator('img[src*="/media/preview/"]')).toBeVisible();
    await expect(viewerOf(page)).toBeHidden();
  });
});

test.describe('the 3D viewer with axe-core (WCAG 2.2 AA)', () => {
  const viewports = { desktop: { width: 1280, height: 900 }, phone: { width: 375, height: 667 } } as const;
  for (const theme of ['light', 'dark'] as const) {
    for (const [device, viewport] of Object.entries(viewports)) {
      test(`${theme} theme, ${device}`, async ({ page, request }) => {
        const id = await modelId(request, '2CylinderEngine.glb');
        await page.setViewportSize(viewport);
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.addInitScript((key) => localStorage.setItem('theme', key), theme);
        await openViewer(page, id);
        await expect(page.getByRole('button', { name: 'Reset view' })).toBeEnabled();
        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      });
    }
  }
});
