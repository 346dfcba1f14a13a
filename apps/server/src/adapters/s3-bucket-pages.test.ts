import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { startTestBucket, type TestBucket } from '../../test/s3.ts';
import { loadSettings, SettingsError } from '../settings.ts';
import { S3Bucket } from './s3-store.ts';

const API = '/assetportal/api/';

/** A built web app of one page, so / answers the page with its boot data. */
function webDist(root: string): string {
  const dist = path.join(root, 'dist');
  mkdirSync(dist, { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><head></head><div id="root"></div>');
  return dist;
}

const bootFiles = (page: string) =>
  (
    JSON.parse(/<script type="application\/json" id="[^"]+">(.*?)<\/script>/s.exec(page)?.[1] ?? '{}') as {
      files?: Record<string, boolean>;
    }
  ).files;

const directivesOf = (csp: unknown) =>
  new Map(
    String(csp)
      .split(';')
      .map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
  );

describe('the uploaded files of a portal on an object store, listed once for many pages', () => {
  let t: TestApp;
  let dir: string;
  const listings = () => (t.bucket?.requests ?? []).filter((r) => /[?&]list-type=2/.test(r)).length;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-listing-'));
    t = await startTestApp({ store: 's3', env: { WEB_DIST: webDist(dir) } });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves ten pages and their file lists on one listing of the bucket, and lists again after an upload here', async () => {
    const before = listings();
    for (let i = 0; i < 5; i++) {
      const page = await t.app.inject('/');
      expect(page.statusCode).toBe(200);
      expect(bootFiles(page.body)?.logo).toBe(false);
      const files = await t.app.inject(`${API}config`);
      expect(files.json()).toMatchObject({ logo: false });
    }
    expect(listings() - before).toBe(1);

    const admin = await signIn(t, { groups: ['admins'] });
    const form = new FormData();
    form.append('file', new Blob(['<svg xmlns="http://www.w3.org/2000/svg"/>']), 'logo.svg');
    const upload = await t.app.inject({
      method: 'POST',
      url: `${API}config/logo`,
      headers: admin.headers,
      payload: form,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    expect(bootFiles((await t.app.inject('/')).body)?.logo).toBe(true);
    expect((await t.app.inject(`${API}config`)).json()).toMatchObject({ logo: true });
    expect(listings() - before).toBe(2);

    const removal = new FormData();
    removal.append('file', new Blob([]), 'logo.svg');
    const removed = await t.app.inject({
      method: 'POST',
      url: `${API}config/logo`,
      headers: admin.headers,
      payload: removal,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(bootFiles((await t.app.inject('/')).body)?.logo).toBe(false);
    expect(listings() - before).toBe(3);
  });
});

describe('a listing another process changed', () => {
  let bucket: TestBucket;
  beforeAll(async () => {
    bucket = await startTestBucket();
  });
  afterAll(async () => bucket.close());
  afterEach(() => vi.useRealTimers());

  it('is listed again once S3_LIST_CACHE_SECONDS have passed, and at every call with 0', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const here = new S3Bucket({ ...bucket.settings, listCacheSeconds: 10 }).store('config-files/');
    const elsewhere = new S3Bucket(bucket.settings).store('config-files/');
    expect(await here.list('')).toEqual([]);
    await elsewhere.write(['logo'], ([scratch = '']) => writeFile(scratch, 'x'));
    expect(await here.list('')).toEqual([]);
    vi.setSystemTime(Date.now() + 10_001);
    expect(await here.list('')).toEqual(['logo']);

    const uncached = new S3Bucket({ ...bucket.settings, listCacheSeconds: 0 }).store('config-files/');
    expect(await uncached.list('')).toEqual(['logo']);
    await elsewhere.remove('logo');
    expect(await uncached.list('')).toEqual([]);
  });
});

describe('presigned redirects and the origin they name (S3_PRESIGN_SECONDS)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-presign-origin-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const env = (extra: Record<string, string>) => ({
    DATA_DIR: dir,
    S3_BUCKET: 'portal-media',
    S3_PRESIGN_SECONDS: '600',
    ...extra,
  });

  it('are refused at start with URLs naming the bucket in the path, unless the bucket has an address of its own', () => {
    for (const extra of <Record<string, string>[]>[
      { S3_ENDPOINT: 'https://s3.example.com', S3_FORCE_PATH_STYLE: 'true' },
      { S3_ENDPOINT: 'http://10.0.0.5:9000' },
      { S3_BUCKET: 'media.example.com' },
    ]) {
      expect(() => loadSettings(env(extra)), JSON.stringify(extra)).toThrow(SettingsError);
      expect(() => loadSettings(env(extra))).toThrow(
        /S3_PRESIGN_SECONDS: presigned redirects need an origin of the bucket's own.*Set S3_PRESIGN_ENDPOINT/s,
      );
    }
    expect(() => loadSettings(env({ S3_ENDPOINT: 'https://s3.example.com', S3_FORCE_PATH_STYLE: 'true' }))).toThrow(
      /name the bucket in the path \(S3_FORCE_PATH_STYLE=true\).*every bucket on https:\/\/s3\.example\.com/s,
    );
    // Virtual-hosted URLs (https://portal-media.s3.…/key) have an origin of their own.
    expect(loadSettings(env({})).mediaStore).toMatchObject({ kind: 's3', presignSeconds: 600 });
    const own = loadSettings(
      env({
        S3_ENDPOINT: 'https://s3.example.com',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PRESIGN_ENDPOINT: 'https://media.example.com',
      }),
    );
    expect(own.mediaStore).toMatchObject({ presignEndpoint: 'https://media.example.com' });
    // Without redirects the path style needs nothing more.
    expect(loadSettings(env({ S3_FORCE_PATH_STYLE: 'true', S3_PRESIGN_SECONDS: '0' })).mediaStore).toMatchObject({
      kind: 's3',
    });
  });

  it("name the bucket's own address, the only one the web app's CSP adds, and the store answers there", async () => {
    const t = await startTestApp({
      store: 's3',
      env: (bucketEnv) => ({
        WEB_DIST: webDist(dir),
        S3_PRESIGN_SECONDS: '600',
        // The same store under another host name, as a host of the bucket's own would be.
        S3_PRESIGN_ENDPOINT: (bucketEnv.S3_ENDPOINT ?? '').replace('127.0.0.1', 'localhost'),
      }),
    });
    try {
      const storeOrigin = new URL(t.bucket?.env.S3_ENDPOINT ?? '').origin;
      const own = storeOrigin.replace('127.0.0.1', 'localhost');
      const csp = directivesOf((await t.app.inject('/')).headers['content-security-policy']);
      for (const directive of ['img-src', 'media-src', 'connect-src']) {
        expect(csp.get(directive), directive).toContain(own);
        expect(csp.get(directive), directive).not.toContain(storeOrigin);
      }
      const store = t.app.services.stores.derivatives;
      await store.write(['ab/file.txt'], ([scratch = '']) => writeFile(scratch, 'bytes'));
      const url = (await store.presign?.('ab/file.txt', 600, { type: 'text/plain', cacheControl: 'no-store' })) ?? '';
      expect(new URL(url).origin).toBe(own);
      const answer = await fetch(url);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('bytes');
    } finally {
      await t.close();
    }
  }, 60_000);
});
