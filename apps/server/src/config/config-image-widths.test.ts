import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { putUpload, startTestApp, testStores, type TestApp } from '../../test/app.ts';
import { gate } from '../../test/gate.ts';
import { makeImage } from '../../test/media-fixtures.ts';
import { probeImage } from '../adapters/media.ts';

const api = '/assetportal/api/';
const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="600"><rect width="2000" height="600" fill="teal"/></svg>';

const title = 'uploaded images in the widths of screens (config/{name}?w=640|1080|1600|2400), uploads in the %s store';

describe.each(testStores)(title, (store) => {
  let t: TestApp;
  let dir: string;
  const sizedFiles = async () =>
    (await t.app.services.stores.uploads.list('sized')).filter((f) => f.startsWith('dashboardHero.'));
  /** Uploads a picture made for the test; answers its bytes. */
  const upload = async (name: string, picture: Parameters<typeof makeImage>[1]) => {
    const file = path.join(dir, name);
    await makeImage(file, picture);
    await putUpload(t, name, readFileSync(file));
    return readFileSync(file);
  };
  let hero: Buffer;
  beforeAll(async () => {
    // One slot for pictures and no line: a request that finds it taken is not kept waiting.
    t = await startTestApp({ store, settings: { work: { thumbnail: { perProcess: 1, total: 1 }, queue: 0 } } });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-widths-'));
    hero = await upload('dashboardHero', { width: 3000, height: 1000 });
    await upload('loginHero', { width: 900, height: 600, format: 'png' });
    await putUpload(t, 'dashboardLogo', svg);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a photo as WebP at most the width asked for, the original without w, an SVG as it is', async () => {
    for (const w of [640, 2400]) {
      const res = await t.app.inject(`${api}config/dashboardHero?w=${w}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('no-cache');
      const picture = await probeImage(res.rawPayload);
      expect(picture).toMatchObject({ format: 'webp', width: w, height: Math.round(w / 3) });
    }
    const original = await t.app.inject(`${api}config/dashboardHero`);
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(original.rawPayload.equals(hero)).toBe(true);
    // An SVG scales by itself: it is served as it is, whatever the width.
    const drawing = await t.app.inject(`${api}config/dashboardLogo?w=640`);
    expect(drawing.statusCode).toBe(200);
    expect(drawing.headers['content-type']).toBe('image/svg+xml');
    expect(drawing.body).toBe(svg);
  });

  it('never makes a picture wider than the upload', async () => {
    const res = await t.app.inject(`${api}config/loginHero?w=1600`);
    expect(res.headers['content-type']).toBe('image/webp');
    expect((await probeImage(res.rawPayload)).width).toBe(900);
  });

  it('makes a width once, also for callers asking at the same time, and reuses the file', async () => {
    const writes = vi.spyOn(t.app.services.stores.uploads, 'write');
    try {
      const [a, b] = await Promise.all([
        t.app.inject(`${api}config/dashboardHero?w=1080`),
        t.app.inject(`${api}config/dashboardHero?w=1080`),
      ]);
      expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
      expect((await sizedFiles()).filter((f) => f.endsWith('.1080.webp'))).toHaveLength(1);
      const again = await t.app.inject(`${api}config/dashboardHero?w=1080`);
      expect(again.rawPayload.equals(a.rawPayload)).toBe(true);
      expect(writes).toHaveBeenCalledTimes(1);
    } finally {
      writes.mockRestore();
    }
  });

  it('answers a new upload with pictures of it, and drops those of the one before', async () => {
    const old = await t.app.inject(`${api}config/dashboardHero?w=640`);
    await upload('dashboardHero', { width: 2000, height: 2000 });
    const res = await t.app.inject(`${api}config/dashboardHero?w=640`);
    expect(res.rawPayload.equals(old.rawPayload)).toBe(false);
    expect(await probeImage(res.rawPayload)).toMatchObject({ width: 640, height: 640 });
    expect(new Date(String(res.headers['last-modified'])).getTime()).toBeGreaterThanOrEqual(
      new Date(String(old.headers['last-modified'])).getTime(),
    );
    expect(await sizedFiles()).toHaveLength(1);
  });

  it('serves the upload as it is while the server is too busy to make a width', async () => {
    const busy = gate();
    const holding = t.app.services.work.run('thumbnail', 'job', () => busy.wait);
    try {
      const res = await t.app.inject(`${api}config/dashboardHero?w=1600`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect((await sizedFiles()).some((f) => f.endsWith('.1600.webp'))).toBe(false);
    } finally {
      busy.open();
      await holding;
    }
    const later = await t.app.inject(`${api}config/dashboardHero?w=1600`);
    expect(later.headers['content-type']).toBe('image/webp');
  });

  it.each(['700', 'wide', '0'])('answers 400 validation for the width %s', async (w) => {
    const res = await t.app.inject(`${api}config/dashboardHero?w=${w}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('validation');
  });
});
