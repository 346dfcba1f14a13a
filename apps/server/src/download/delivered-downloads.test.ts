import { request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { makeClip, makeImage } from '../../test/media-fixtures.ts';
import { mediaWindows, signMediaUrl } from '../access/media-url.ts';
import { buildApp } from '../app.ts';

const API = '/assetportal/api/';

/**
 * Downloads are logged when their file or zip was delivered and counted on the assets by a job
 * (docs/security.md "What is logged", docs/decisions/0123-downloads-logged-at-delivery.md and
 * 0125-download-counts-folded-by-a-job.md).
 */
describe.each(dialects)('delivered downloads on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  let user: { userId: number; headers: Record<string, string> };
  const ids: Record<string, number> = {};
  const id = (name: string) => String(ids[name]);

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: {
        catalogue: { defaultAccessGroups: ['public', 'users'] },
        groups: [
          { name: 'public', downloadSets: [0] },
          { name: 'users', downloadSets: [0] },
        ],
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-delivered-'));
    for (const name of ['north.jpg', 'south.jpg', 'east.jpg', 'west.jpg']) {
      await makeImage(path.join(dir, 'media', name), { width: 320, height: 200 });
    }
    // Larger than what the sockets of a connection buffer, so a client can break a transfer off.
    makeClip(path.join(dir, 'media', 'long.wav'), { seconds: 600, video: false });
    await t.app.services.importer().importFolder(path.join(dir, 'media'));
    for (const a of await t.app.db.kysely.selectFrom('asset').select(['id', 'filename']).execute()) {
      ids[a.filename] = Number(a.id);
    }
    user = await signIn(t, { groups: ['users'] });
  }, 120_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (
    url: string,
    headers: Record<string, string> = {},
    method: 'GET' | 'HEAD' = 'GET',
    remoteAddress = '127.0.0.1',
    app: FastifyInstance = t.app,
  ) => app.inject({ method, url: url.startsWith('/') ? url : API + url, headers, remoteAddress });
  /** A download URL of one asset as the server signs it for `by`, in the window of `now`. */
  const signedFor = (name: string, by: string, now = Date.now()) =>
    signMediaUrl(t.settings.secret, `download/${id(name)}/0?by=${by}`, mediaWindows.download, now);
  /** A signed URL to download assets (one: a file; several: a zip), as the web app asks for it. */
  const handOut = async (names: string[]): Promise<string> => {
    const res =
      names.length === 1
        ? await get(`download/?id=${id(names[0] ?? '')}&csetid=0`, user.headers)
        : await get(`download?operation=zip&csetid=0&${names.map((n) => `id=${id(n)}`).join('&')}`, user.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ url: string }>().url;
  };
  const generation = async () =>
    Number(
      (await t.app.db.kysely.selectFrom('catalogue_state').select('generation').executeTakeFirstOrThrow()).generation,
    );
  const counts = async () =>
    new Map(
      (await t.app.db.kysely.selectFrom('asset').select(['id', 'obj_dload_cnt']).execute()).map((r) => [
        Number(r.id),
        Number(r.obj_dload_cnt),
      ]),
    );
  const logged = async () => {
    await t.app.services.downloads.settled();
    return t.app.db.kysely.selectFrom('download').selectAll().orderBy('id').execute();
  };

  it('handing out a download or zip URL counts nothing and is no catalogue change', async () => {
    const [before, countsBefore] = [await generation(), await counts()];
    const single = await handOut(['north.jpg']);
    const zip = await handOut(['north.jpg', 'south.jpg']);
    expect(await generation()).toBe(before);
    expect(await counts()).toEqual(countsBefore);
    // The URL names whom it was handed to, under its signature.
    expect(single).toMatch(new RegExp(`^/media/download/${id('north.jpg')}/0\\?by=u${user.userId}&exp=\\d+&sig=`));
    expect(zip).toMatch(/^\/media\/zip\/0\?ids=\d+-\d+&by=u\d+&exp=/);
    expect(await logged()).toEqual([]);
  });

  it('logs a file or zip once it was delivered whole: not for HEAD, a part, a 304 or a resumed range', async () => {
    const single = await handOut(['east.jpg']);
    const zip = await handOut(['east.jpg', 'west.jpg']);
    const before = (await logged()).length;
    const head = await get(single, {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    const resumed = await get(single, { range: 'bytes=100-' });
    expect(resumed.statusCode).toBe(206);
    const part = await get(single, { range: 'bytes=0-99' });
    expect(part.statusCode).toBe(206);
    const cached = await get(single, { 'if-none-match': head.headers.etag as string });
    expect(cached.statusCode).toBe(304);
    expect((await get(zip, {}, 'HEAD')).statusCode).toBe(200);
    expect((await get(zip, { range: 'bytes=10-' })).statusCode).toBe(206);
    expect((await logged()).length).toBe(before);

    const whole = await get(single);
    expect(whole.statusCode).toBe(200);
    const fromStart = await get(single, { range: 'bytes=0-' });
    expect(fromStart.statusCode).toBe(206);
    expect(fromStart.rawPayload).toEqual(whole.rawPayload);
    expect((await get(zip)).statusCode).toBe(200);
    const rows = (await logged()).slice(before);
    // The file went out whole twice through one URL: one download.
    expect(rows.map((r) => [r.kind, r.asset_ids, r.asset_count])).toEqual([
      ['single', id('east.jpg'), 1],
      ['zip', `${id('east.jpg')},${id('west.jpg')}`, 2],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ user_id: user.userId, share_id: null, cset_id: 0, counted_at: null });
      expect(row.user_name).toMatch(/^user\d+$/);
    }
  });

  it('logs one signed URL once per caller however often it is fetched, whole or in ranges; a later URL or another caller again', async () => {
    const before = (await logged()).length;
    const since = async () => (await logged()).slice(before).map((r) => [r.user_id, r.asset_ids]);
    const url = await handOut(['west.jpg']);
    expect(url).toBe(signedFor('west.jpg', `u${user.userId}`));
    for (let i = 0; i < 3; i++) expect((await get(url)).statusCode).toBe(200);
    // Another address replaying the user's URL is still that user's one download.
    expect((await get(url, {}, 'GET', '192.0.2.9')).statusCode).toBe(200);
    expect(await since()).toEqual([[user.userId, id('west.jpg')]]);

    // A download manager's pieces, and the whole file in one range, of a fresh URL: one download.
    const later = signedFor('west.jpg', `u${user.userId}`, Date.now() + mediaWindows.download * 1000);
    expect(later).not.toBe(url);
    for (const range of ['bytes=0-99', 'bytes=100-', 'bytes=0-']) {
      expect((await get(later, { range })).statusCode).toBe(206);
    }
    expect((await get(later)).statusCode).toBe(200);
    expect(await since()).toEqual([
      [user.userId, id('west.jpg')],
      [user.userId, id('west.jpg')],
    ]);

    // Another user has a URL of their own.
    const other = await signIn(t, { groups: ['users'] });
    const theirs = signedFor('west.jpg', `u${other.userId}`);
    expect((await get(theirs)).statusCode).toBe(200);
    expect((await get(theirs)).statusCode).toBe(200);
    // Guests share one URL in a window: each address counts once.
    const guests = signedFor('west.jpg', 'guest');
    for (const address of ['198.51.100.1', '198.51.100.1', '198.51.100.2', '198.51.100.1']) {
      expect((await get(guests, {}, 'GET', address)).statusCode).toBe(200);
    }
    expect(await since()).toEqual([
      [user.userId, id('west.jpg')],
      [user.userId, id('west.jpg')],
      [other.userId, id('west.jpg')],
      [null, id('west.jpg')],
      [null, id('west.jpg')],
    ]);
  });

  it('logs a URL fetched through two processes at once once', async () => {
    const before = (await logged()).length;
    // SQLite serves one process (README): there, one process answering both at once.
    const other: FastifyInstance = dialect === 'postgres' ? await buildApp(t.settings, { logger: false }) : t.app;
    try {
      const url = signedFor('south.jpg', `u${user.userId}`, Date.now() + 2 * mediaWindows.download * 1000);
      const answers = await Promise.all(
        [t.app, other, t.app, other].map((app) => get(url, {}, 'GET', '127.0.0.1', app)),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
      await other.services.downloads.settled();
      expect((await logged()).slice(before).map((r) => r.asset_ids)).toEqual([id('south.jpg')]);
    } finally {
      if (other !== t.app) await other.close();
    }
  });

  it('forgets the keys of URLs that expired, with a batch it writes', async () => {
    const now = Date.now();
    await t.app.db.kysely
      .insertInto('download_once')
      .values([
        { key: 'expired', expires_at: now - 1 },
        { key: 'valid', expires_at: now + 60_000 },
      ])
      .execute();
    await t.app.services.repositories.downloads.recordDeliveries([], now);
    const keys = await t.app.db.kysely
      .selectFrom('download_once')
      .select('key')
      .where('key', 'in', ['expired', 'valid'])
      .execute();
    expect(keys.map((k) => k.key)).toEqual(['valid']);
  });

  it('does not log a transfer that broke off', async () => {
    const url = await handOut(['long.wav']);
    const before = (await logged()).length;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const served = new Promise<ServerResponse>((resolve) => {
      t.app.server.once('request', (_req, res: ServerResponse) => res.once('close', () => resolve(res)));
    });
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: url }, (res) => {
        expect(res.statusCode).toBe(200);
        // The first bytes arrived: the visitor closes the tab.
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', reject);
      req.end();
    });
    const res = await served;
    expect(res.writableFinished).toBe(false);
    expect((await logged()).length).toBe(before);
  });

  it('the fold counts every delivered download once on its assets, also when two processes fold at once, and search sorts by the counts', async () => {
    const countsBefore = await counts();
    // North is downloaded by four people, one of them in a zip.
    for (const downloader of [user, await signIn(t, { groups: ['users'] }), await signIn(t, { groups: ['users'] })]) {
      expect((await get(signedFor('north.jpg', `u${downloader.userId}`))).statusCode).toBe(200);
    }
    for (const names of [['north.jpg', 'south.jpg'], ['south.jpg']]) {
      expect((await get(await handOut(names))).statusCode).toBe(200);
    }
    const pending = (await logged()).filter((r) => r.counted_at === null);
    const expected = await counts();
    for (const row of pending) {
      for (const asset of row.asset_ids.split(',')) expected.set(Number(asset), (expected.get(Number(asset)) ?? 0) + 1);
    }
    // SQLite serves one process (README): there, two folds of one process at once.
    const other: FastifyInstance = dialect === 'postgres' ? await buildApp(t.settings, { logger: false }) : t.app;
    try {
      const folded = await Promise.all([
        t.app.services.downloads.foldDownloads(2),
        other.services.downloads.foldDownloads(2),
      ]);
      expect(folded[0] + folded[1]).toBe(pending.length);
      expect(await counts()).toEqual(expected);
      expect((await logged()).filter((r) => r.counted_at === null)).toEqual([]);
      // Nothing left: a fold changes nothing, not even the catalogue generation.
      const before = await generation();
      expect(await t.app.services.downloads.foldDownloads()).toBe(0);
      expect(await generation()).toBe(before);
      expect(await counts()).toEqual(expected);

      const byDownloads = [...expected].sort((a, b) => b[1] - a[1] || b[0] - a[0]).map(([asset]) => String(asset));
      const north = Number(id('north.jpg'));
      expect((expected.get(north) ?? 0) - (countsBefore.get(north) ?? 0)).toBe(4);
      for (const app of [t.app, other]) {
        const sorted = await app.inject({
          url: `${API}search?solr_q=*&solr_sort=obj_dload_cnt%20desc&solr_rows=20`,
          headers: user.headers,
        });
        expect(sorted.statusCode, sorted.body).toBe(200);
        expect(sorted.json().response.docs.map((d: { id: string }) => d.id)).toEqual(byDownloads);
      }
    } finally {
      if (other !== t.app) await other.close();
    }
  });
});
