import { copyFile, writeFile } from 'node:fs/promises';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { makeImage, makePdf } from '../../test/media-fixtures.ts';
import { startTestBucket, TEST_BUCKET, type TestBucket } from '../../test/s3.ts';
import { probeImage } from '../adapters/media.ts';
import { S3Bucket } from '../adapters/s3-store.ts';
import { Originals } from '../derivatives/source-file.ts';
import { bucketStores } from '../services.ts';
import { CatalogueRepository } from './catalogue.repository.ts';
import { ImportService } from './import.service.ts';

const API = '/assetportal/api/';
const SOURCE = `s3://${TEST_BUCKET}/originals/press`;

describe('vitrine import s3://bucket/prefix: originals stay in the bucket and are read from there', () => {
  let bucket: TestBucket;
  let t: TestApp;
  let dir: string;
  let headers: Record<string, string>;
  const files: Record<string, string> = {};
  const originals = () => new S3Bucket({ ...bucket.settings, prefix: 'originals/press/' }).store('');
  const put = (key: string, file: string) => originals().write([key], ([scratch = '']) => copyFile(file, scratch));
  const get = (url: string, query?: Record<string, string>, extra: Record<string, string> = {}) =>
    t.app.inject({ url: url.startsWith('/') ? url : API + url, headers: { ...headers, ...extra }, query });
  const ids = async () =>
    Object.fromEntries(
      (await t.app.db.kysely.selectFrom('asset').select(['id', 'filename', 'source_path', 'status']).execute()).map(
        (a) => [a.filename, a],
      ),
    );
  const drain = async () => {
    const worker = t.app.services.jobWorker({ pollMs: 50 });
    await worker.drain();
    await worker.stop();
  };

  beforeAll(async () => {
    bucket = await startTestBucket('');
    // The service's address and keys only: the media store stays in DATA_DIR, the originals' bucket is another.
    const { S3_BUCKET: _b, S3_PREFIX: _p, ...connection } = bucket.env;
    t = await startTestApp({
      env: connection,
      settings: {
        catalogue: { defaultAccessGroups: ['users'] },
        groups: [{ name: 'users', downloadSets: [0, 1] }],
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bucket-import-'));
    files.photo = await makeImage(path.join(dir, 'photo.jpg'), { width: 1200, height: 800 });
    files.chart = await makeImage(path.join(dir, 'chart.png'), { width: 320, height: 240, format: 'png' });
    files.manual = makePdf(path.join(dir, 'manual.pdf'), ['One', 'Two']);
    await put('photo.jpg', files.photo);
    await originals().write(['photo.jpg.json'], ([scratch = '']) =>
      writeFile(scratch, JSON.stringify({ title: 'Harbour at dawn' })),
    );
    await put('docs/manual.pdf', files.manual);
    await put('docs/chart.png', files.chart);
    headers = (await signIn(t, { groups: ['users'] })).headers;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await bucket.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports the objects with their sidecar, keeps them in the bucket, and makes their derivatives from copies', async () => {
    const seen: number[] = [];
    const summary = await t.app.services.importer().importFrom(SOURCE, (p) => seen.push(p.done));
    expect(summary).toMatchObject({ imported: 3, updated: 0, unchanged: 0, gone: 0, failed: [], files: 3 });
    expect(seen).toEqual([1, 2, 3]);
    await drain();
    const assets = await ids();
    expect(assets['photo.jpg']?.source_path).toBe(`${SOURCE}/photo.jpg`);
    expect(assets['manual.pdf']?.source_path).toBe(`${SOURCE}/docs/manual.pdf`);
    const title = await t.app.db.kysely
      .selectFrom('asset_value')
      .select('value')
      .where('asset_id', '=', assets['photo.jpg']!.id)
      .where('field', '=', 'title')
      .executeTakeFirst();
    expect(title?.value).toBe('Harbour at dawn');
    const collections = await t.app.db.kysely.selectFrom('collection').select('path').orderBy('path').execute();
    expect(collections.map((c) => c.path)).toEqual(['press', 'press/docs']);
    const thumbs = await t.app.db.kysely
      .selectFrom('derivative')
      .select('asset_id')
      .where('kind', '=', 'thumb')
      .execute();
    expect(thumbs).toHaveLength(3);
    // Page previews of the document come from a copy of the object as well.
    const pages = await t.app.db.kysely
      .selectFrom('derivative')
      .select('page')
      .where('asset_id', '=', assets['manual.pdf']!.id)
      .where('kind', '=', 'preview')
      .execute();
    expect(pages.map((p) => p.page).sort()).toEqual([0, 1, 2]);
  });

  it('sends the original from the bucket, whole and by Range, and previews and converts it', async () => {
    const id = String((await ids())['photo.jpg']?.id);
    const { url } = (await get('download/', { id, csetid: '0' })).json<{ url: string }>();
    const whole = await get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload).toEqual(readFileSync(files.photo ?? ''));
    const part = await get(url, undefined, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${whole.rawPayload.length}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));

    const preview = await get('download/preview', { id, page: '0' });
    const picture = await get(preview.json<{ url: string }>().url);
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/webp');

    const converted = await get('download/', { id: String((await ids())['chart.png']?.id), csetid: '1' });
    const jpeg = await get(converted.json<{ url: string }>().url);
    expect(jpeg.statusCode).toBe(200);
    expect(await probeImage(jpeg.rawPayload)).toMatchObject({ format: 'jpeg', width: 320, height: 240 });

    const zip = await get('download', { operation: 'zip', csetid: '0', id: [id] as unknown as string });
    const zipped = await get(zip.json<{ url: string }>().url);
    expect(zipped.statusCode).toBe(200);
    expect(zipped.rawPayload.includes(whole.rawPayload)).toBe(true);
  });

  it('re-imports like a folder: unchanged objects skipped, a changed one updated, a removed one marked gone', async () => {
    const before = await ids();
    await put('photo.jpg', await makeImage(path.join(dir, 'photo-2.jpg'), { width: 800, height: 600 }));
    await originals().remove('docs/chart.png');
    const summary = await t.app.services.importer().importFrom(`${SOURCE}/`);
    expect(summary).toMatchObject({ imported: 0, updated: 1, unchanged: 1, gone: 1, failed: [] });
    const after = await ids();
    expect(after['photo.jpg']?.id).toBe(before['photo.jpg']?.id);
    expect(after['chart.png']?.status).toBe('gone');
    const size = await t.app.db.kysely
      .selectFrom('asset')
      .select(['pixel_x', 'pixel_y'])
      .where('id', '=', after['photo.jpg']!.id)
      .executeTakeFirstOrThrow();
    expect(size).toEqual({ pixel_x: 800, pixel_y: 600 });
  });

  it('says so when the bucket is missing or refuses the keys', async () => {
    await expect(t.app.services.importer().importFrom('s3://no-such-bucket/x')).rejects.toThrow(
      /s3:\/\/no-such-bucket\/x: The bucket no-such-bucket does not exist/,
    );
    const wrongKeys = {
      ...t.settings,
      s3: { ...t.settings.s3, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } },
    };
    const importer = new ImportService(
      new CatalogueRepository(t.app.db.kysely),
      wrongKeys,
      new Originals(bucketStores(wrongKeys)),
    );
    await expect(importer.importFrom(SOURCE)).rejects.toThrow(
      /refused access to the bucket vitrine-test: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
    );
  });
});
