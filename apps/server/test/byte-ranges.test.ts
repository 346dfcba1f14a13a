import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaSigned, type MediaFile } from '@vitrine/contract/paths';
import { mediaWindows, signMediaUrl } from '../src/access/media-url.ts';
import { startTestApp, testStores, type TestApp } from './app.ts';
import { makeImage } from './media-fixtures.ts';

/**
 * Files (http/send-file.ts) and zips (download/download.routes.ts) are sent by different code; both
 * read a Range header with the one parser and answer a range outside with the one 416. Originals
 * are read from their folder, conversions from the media store (a folder or an object store).
 */
const sent = ['file', 'zip', 'conversion', 'conversion zip'];

describe.each(testStores)('byte ranges of files and zips (RFC 9110 §14), media in the %s store', (store) => {
  let t: TestApp;
  let dir: string;
  const urls: Record<string, string> = {};
  const sizes: Record<string, number> = {};
  const wholes: Record<string, Buffer> = {};

  beforeAll(async () => {
    t = await startTestApp({ store });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-ranges-'));
    await makeImage(path.join(dir, 'photo.jpg'), { width: 400, height: 300 });
    await t.app.services.importer().importFolder(dir);
    const { id } = await t.app.db.kysely.selectFrom('asset').select('id').executeTakeFirstOrThrow();
    const files: Record<string, MediaFile> = {
      file: { kind: 'download', id, cset: 0 },
      zip: { kind: 'zip', cset: 0, ids: [id] },
      // Web JPEG, made on the first request.
      conversion: { kind: 'download', id, cset: 1 },
      'conversion zip': { kind: 'zip', cset: 1, ids: [id] },
    };
    for (const [name, file] of Object.entries(files)) {
      urls[name] = signMediaUrl(t.settings.secret, mediaSigned(file), mediaWindows.download);
      const whole = await t.app.inject({ url: urls[name] });
      expect(whole.statusCode).toBe(200);
      sizes[name] = whole.rawPayload.length;
      wholes[name] = whole.rawPayload;
    }
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the conversions in its store: the data folder, or a bucket and nothing in the folder', () => {
    expect(existsSync(path.join(t.settings.dataDir, 'conversions'))).toBe(store === 'folder');
  });

  const get = (name: string, range: string) => t.app.inject({ url: urls[name], headers: { range } });

  it.each(sent)('the %s: one range, an open end, a suffix, in any case and with an empty list item', async (name) => {
    const size = sizes[name] ?? 0;
    for (const [range, start, end] of [
      ['bytes=10-19', 10, 19],
      ['bytes=100-', 100, size - 1],
      ['bytes=-50', size - 50, size - 1],
      ['Bytes=0-9,', 0, 9],
    ] as const) {
      const res = await get(name, range);
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(Number(res.headers['content-length']), range).toBe(end - start + 1);
      expect(res.rawPayload.length, range).toBe(end - start + 1);
      expect(res.rawPayload.equals(wholes[name]?.subarray(start, end + 1) ?? Buffer.alloc(0)), range).toBe(true);
    }
  });

  it.each(sent)('the %s: malformed, inverted or several ranges get the whole', async (name) => {
    for (const range of ['bytes=500-100', 'bytes=0-1,5-6', 'bytes=x-y', 'lines=0-9']) {
      const res = await get(name, range);
      expect(res.statusCode, range).toBe(200);
      expect(res.headers['content-range'], range).toBeUndefined();
      expect(res.rawPayload.length, range).toBe(sizes[name]);
    }
  });

  it.each(sent)('the %s: a range outside is one 416 answer with a stable error id', async (name) => {
    const size = sizes[name] ?? 0;
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
      const res = await get(name, range);
      expect(res.statusCode, range).toBe(416);
      expect(res.headers['content-range'], range).toBe(`bytes */${size}`);
      expect(res.headers['content-disposition'], range).toBeUndefined();
      expect(res.json(), range).toEqual({
        error: 'range_not_satisfiable',
        message: `The requested range lies outside this file of ${size} bytes.`,
      });
    }
  });
});
