import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importWithDerivatives, startTestApp, testStores, type TestApp } from '../../test/app.ts';
import { makeClip, makeImage, makePdf } from '../../test/media-fixtures.ts';
import { mediaWindows, signMediaUrl } from '../access/media-url.ts';

const title = 'media file route (signed thumbnail, preview and video URLs), media in the %s store';

describe.each(testStores)(title, (store) => {
  let t: TestApp;
  let dir: string;
  const ids: Record<string, number> = {};
  const sign = (p: string, window: number = mediaWindows.view, now?: number) =>
    signMediaUrl(t.settings.secret, p, window, now);

  beforeAll(async () => {
    t = await startTestApp({ store });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-media-'));
    await makeImage(path.join(dir, 'photo.jpg'), { width: 1200, height: 800 });
    makeClip(path.join(dir, 'clip.webm'), { seconds: 1 });
    makePdf(
      path.join(dir, 'manual.pdf'),
      Array.from({ length: 12 }, (_, i) => `Page ${i + 1}`),
    );
    await makeImage(path.join(dir, 'later', 'waiting.png'), { format: 'png' });
    // Derivatives for everything but the folder "later", whose jobs stay queued.
    Object.assign(
      ids,
      await importWithDerivatives(t, dir, async () => {
        const waiting = await t.app.db.kysely
          .selectFrom('asset')
          .select('id')
          .where('filename', '=', 'waiting.png')
          .executeTakeFirstOrThrow();
        await t.app.db.kysely.deleteFrom('job').where('key', 'like', `%:${waiting.id}:%`).execute();
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a thumbnail with its type, an ETag, cached no longer than its signature is valid', async () => {
    const url = sign(`thumb/${ids['photo.jpg']}`);
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    const expires = Number(new URL(url, 'http://x').searchParams.get('exp'));
    const maxAge = Number(/^public, max-age=(\d+)$/.exec(String(res.headers['cache-control']))?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(Date.now() / 1000 + maxAge).toBeLessThanOrEqual(expires + 1);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{16}-thumb-0"$/);
    expect(res.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);

    const again = await t.app.inject({
      url: sign(`thumb/${ids['photo.jpg']}`),
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('keeps the derivatives in its store: the data folder, or a bucket and nothing in the folder', () => {
    expect(existsSync(path.join(t.settings.dataDir, 'derivatives'))).toBe(store === 'folder');
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: sign(`preview/${ids['photo.jpg']}`) });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(1000);
    expect(res.body).toBe('');
  });

  it('answers byte ranges of the web video, and 416 for a range outside the file', async () => {
    const url = sign(`video/${ids['clip.webm']}`);
    const whole = await t.app.inject({ url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    const size = whole.rawPayload.length;

    const part = await t.app.inject({ url, headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${size}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));

    const tail = await t.app.inject({ url, headers: { range: 'bytes=-50' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload).toEqual(whole.rawPayload.subarray(size - 50));

    const outside = await t.app.inject({ url, headers: { range: `bytes=${size + 10}-` } });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${size}`);
  });

  it('answers PDF pages made ahead of time and renders a later page when first asked for', async () => {
    const id = ids['manual.pdf'];
    const page2 = await t.app.inject({ url: sign(`preview/${id}/2`) });
    expect(page2.statusCode).toBe(200);
    expect(page2.headers['content-type']).toBe('image/jpeg');

    const stored = () =>
      t.app.db.kysely
        .selectFrom('derivative')
        .select('page')
        .where('asset_id', '=', id ?? 0)
        .where('page', '=', 12)
        .execute();
    expect(await stored()).toEqual([]);
    const page12 = await t.app.inject({ url: sign(`preview/${id}/12`) });
    expect(page12.statusCode).toBe(200);
    expect(page12.headers['content-type']).toBe('image/jpeg');
    expect(page12.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(await stored()).toEqual([{ page: 12 }]);

    // A page the document does not have: the typed placeholder.
    const page13 = await t.app.inject({ url: sign(`preview/${id}/13`) });
    expect(page13.headers['content-type']).toBe('image/svg+xml');
  });

  it('refuses a tampered or expired signature with a stable error id', async () => {
    const good = sign(`thumb/${ids['photo.jpg']}`);
    const tampered = good.replace(`thumb/${ids['photo.jpg']}`, `thumb/${ids['clip.webm']}`);
    const res = await t.app.inject({ url: tampered });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden' });

    const old = sign(`thumb/${ids['photo.jpg']}`, 60, Date.now() - 3600_000);
    const expired = await t.app.inject({ url: old });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toMatch(/expired/);

    const unsigned = await t.app.inject({ url: `/media/thumb/${ids['photo.jpg']}` });
    expect(unsigned.statusCode).toBe(403);
  });

  it('answers a typed placeholder picture while a thumbnail is not made yet, never a broken image', async () => {
    const res = await t.app.inject({ url: sign(`thumb/${ids['waiting.png']}`) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.body).toContain('aria-label="image PNG"');
  });

  it('answers 404 with an error id for a video not made yet and for an unknown asset', async () => {
    const video = await t.app.inject({ url: sign(`video/${ids['photo.jpg']}`) });
    expect(video.statusCode).toBe(404);
    expect(video.json()).toMatchObject({ error: 'not_found' });
    const unknown = await t.app.inject({ url: sign('thumb/999999') });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'not_found' });
  });
});

describe('media files answered by the object store itself (S3_PRESIGN_SECONDS)', () => {
  let t: TestApp;
  let dir: string;
  let id: number | undefined;

  beforeAll(async () => {
    // The store's host name serves every bucket on it: the redirects name another of its names, as
    // a host of the bucket's own (S3_PRESIGN_ENDPOINT).
    t = await startTestApp({
      store: 's3',
      env: (bucket) => ({
        S3_PRESIGN_SECONDS: '600',
        S3_PRESIGN_ENDPOINT: (bucket.S3_ENDPOINT ?? '').replace('127.0.0.1', 'localhost'),
      }),
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-presign-'));
    makeClip(path.join(dir, 'clip.mp4'), { seconds: 1 });
    id = (await importWithDerivatives(t, dir))['clip.mp4'];
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('redirects a signed media URL to a URL of the bucket, which answers the file and its ranges', async () => {
    const url = signMediaUrl(t.settings.secret, `video/${id}`, mediaWindows.view);
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    const location = String(res.headers.location);
    const own = t.settings.mediaStore.kind === 's3' ? t.settings.mediaStore.presignEndpoint : '';
    expect(location.startsWith(`${own}/`)).toBe(true);
    expect(location).toMatch(/X-Amz-Expires=600/);
    // The same URL within one window, so browsers and CDNs cache the bytes.
    expect((await t.app.inject({ url })).headers.location).toBe(location);

    const whole = await fetch(location);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('cache-control')).toBe('public, max-age=300');
    const bytes = Buffer.from(await whole.arrayBuffer());
    const part = await fetch(location, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(10, 20));

    // The portal's signature is still checked first.
    const tampered = await t.app.inject({ url: url.replace(`video/${id}`, 'video/999999') });
    expect(tampered.statusCode).toBe(403);
  });

  it("lets the web app's pages show, play and fetch what the bucket answers (CSP img-src, media-src, connect-src)", async () => {
    const location = String(
      (await t.app.inject({ url: signMediaUrl(t.settings.secret, `video/${id}`, mediaWindows.view) })).headers.location,
    );
    const origin = new URL(location).origin;
    const csp = String((await t.app.inject('/')).headers['content-security-policy']);
    for (const directive of ['img-src', 'media-src', 'connect-src']) {
      const sources = csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .find(([name]) => name === directive);
      expect(sources, directive).toContain(origin);
    }
    // Nothing else is opened up: scripts, styles and fonts still come from the portal only.
    expect(csp).not.toMatch(new RegExp(`(script|style|font)-src[^;]*${origin.replace(/[.:/]/g, '\\$&')}`));
  });
});
