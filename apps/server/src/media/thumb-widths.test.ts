import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importWithDerivatives, startTestApp, type TestApp } from '../../test/app.ts';
import { gate } from '../../test/gate.ts';
import { makeImage } from '../../test/media-fixtures.ts';
import { mediaWindows, signMediaUrl } from '../access/media-url.ts';
import { probeImage } from '../adapters/media.ts';
import { derivativeRoot } from '../derivatives/storage.ts';

describe('thumbnails in two widths (media/thumb/:id?w=400|800)', () => {
  let t: TestApp;
  let dir: string;
  let ids: Record<string, number> = {};
  const thumbUrl = (name: string, w?: string) =>
    `${signMediaUrl(t.settings.secret, `thumb/${ids[name]}`, mediaWindows.view)}${w === undefined ? '' : `&w=${w}`}`;
  const smallRow = (name: string) =>
    t.app.db.kysely
      .selectFrom('derivative')
      .selectAll()
      .where('asset_id', '=', ids[name] ?? 0)
      .where('kind', '=', 'thumb_small')
      .executeTakeFirst();

  beforeAll(async () => {
    // One thumbnail slot and no line: a request that finds it taken is refused at once.
    t = await startTestApp({ settings: { work: { thumbnail: { perProcess: 1, total: 1 }, queue: 0 } } });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-thumbs-'));
    await makeImage(path.join(dir, 'wide.jpg'), { width: 1200, height: 800 });
    await makeImage(path.join(dir, 'older.jpg'), { width: 900, height: 1200 });
    ids = await importWithDerivatives(t, dir);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes the small thumbnail at import with the large one and serves it for w=400', async () => {
    const row = await smallRow('wide.jpg');
    expect(row).toMatchObject({ mime: 'image/webp', width: 375, height: 250 });
    const res = await t.app.inject({ url: thumbUrl('wide.jpg', '400') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers.etag).toMatch(/-thumb_small-0"$/);
    const small = await probeImage(res.rawPayload);
    expect(small).toMatchObject({ format: 'webp', width: 375, height: 250 });
    const large = await probeImage((await t.app.inject({ url: thumbUrl('wide.jpg') })).rawPayload);
    expect(large.width).toBe(750);
    const asked = await t.app.inject({ url: thumbUrl('wide.jpg', '800') });
    expect(asked.headers.etag).toMatch(/-thumb-0"$/);
  });

  it('makes the small thumbnail on first request for an asset imported without one, and keeps it', async () => {
    const made = await smallRow('older.jpg');
    // The asset as a catalogue imported before small thumbnails were made has it: the large one only.
    await t.app.db.kysely
      .deleteFrom('derivative')
      .where('asset_id', '=', ids['older.jpg'] ?? 0)
      .where('kind', '=', 'thumb_small')
      .execute();
    const file = path.join(derivativeRoot(t.settings.dataDir), made?.path ?? 'missing');
    rmSync(file);

    const res = await t.app.inject({ url: thumbUrl('older.jpg', '400') });
    expect(res.statusCode).toBe(200);
    const picture = await probeImage(res.rawPayload);
    expect(picture.format).toBe('webp');
    expect(picture.width).toBeLessThanOrEqual(400);
    expect(picture.height).toBeLessThanOrEqual(250);
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d{4,}$/);

    const kept = await smallRow('older.jpg');
    expect(kept).toMatchObject({ width: picture.width, height: picture.height });
    expect(existsSync(path.join(derivativeRoot(t.settings.dataDir), kept?.path ?? 'missing'))).toBe(true);
    await t.app.inject({ url: thumbUrl('older.jpg', '400') });
    expect((await smallRow('older.jpg'))?.created_at).toBe(kept?.created_at);
  });

  it('lets the large thumbnail stand in, briefly cached, while the server is too busy to make the small one', async () => {
    await t.app.db.kysely
      .deleteFrom('derivative')
      .where('asset_id', '=', ids['wide.jpg'] ?? 0)
      .where('kind', '=', 'thumb_small')
      .execute();
    const busy = gate();
    const holding = t.app.services.work.run('thumbnail', 'job', () => busy.wait);
    try {
      const res = await t.app.inject({ url: thumbUrl('wide.jpg', '400') });
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toMatch(/-thumb-0"$/);
      expect(res.headers['cache-control']).toMatch(/^public, max-age=([1-5]?\d|60)$/);
      expect(await smallRow('wide.jpg')).toBeUndefined();
    } finally {
      busy.open();
      await holding;
    }
    const later = await t.app.inject({ url: thumbUrl('wide.jpg', '400') });
    expect(later.headers.etag).toMatch(/-thumb_small-0"$/);
  });

  it('answers 400 validation for a width it does not make, after checking the signature', async () => {
    const res = await t.app.inject({ url: thumbUrl('wide.jpg', '300') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation', details: [{ path: 'query.w' }] });
    const forged = await t.app.inject({ url: `/media/thumb/${ids['wide.jpg']}?exp=1&sig=x&w=300` });
    expect(forged.statusCode).toBe(403);
  });
});
