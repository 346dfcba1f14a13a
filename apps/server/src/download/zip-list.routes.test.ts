import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMediaUrl } from '@vitrine/contract/paths';
import { buildApp } from '../app.ts';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAssets, type NewAsset } from '../../test/factories.ts';
import { zipListRef } from './zip-list.ts';

const API = '/assetportal/api/';
const ASSETS = 1000;
/**
 * Asset ids are the catalogue's 32-bit integers (download-ids.ts `isAssetId`): ten digits is the
 * longest an id can be. The catalogue's ids are made to end at the highest there is, so every id of
 * the zip has ten digits and their GET (`id=…&id=…`) is a 14 KB request line.
 */
const LAST_ID = 2 ** 31 - 1;
/** nginx's default limit of a request line (large_client_header_buffers 4 8k). */
const NGINX_LINE_LIMIT = 8 * 1024;

const fileName = (i: number) => `list-asset-${String(i).padStart(4, '0')}.txt`;

/** The entry names of a zip, as Info-ZIP's own tool lists them. */
function zipEntries(zip: Buffer, dir: string): string[] {
  const file = path.join(mkdtempSync(path.join(dir, 'z')), 'bundle.zip');
  writeFileSync(file, zip);
  return execFileSync('zipinfo', ['-1', file]).toString('utf8').trim().split('\n');
}

describe.each(dialects)('zips of a list sent in the body on %s (POST download/zip, decision 0269)', (dialect) => {
  let t: TestApp;
  let dir: string;
  let user: Record<string, string>;
  /** The catalogue's ids, as the web app names them, in the order of the files. */
  let ids: string[];
  let hidden: string;

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: {
        groups: [
          { name: 'public', downloadSets: [0] },
          { name: 'users', downloadSets: [0] },
        ],
        download: { maxAssets: ASSETS },
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-zip-list-'));
    const media = path.join(dir, 'media');
    mkdirSync(media);
    const k = t.app.db.kysely;
    // The next ids continue from here (the asset table counts on from its sequence).
    const first = LAST_ID - ASSETS - 1;
    if (dialect === 'postgres') await sql`select setval(pg_get_serial_sequence('asset', 'id'), ${first})`.execute(k);
    else await sql`insert into sqlite_sequence (name, seq) values ('asset', ${first})`.execute(k);
    const assets: NewAsset[] = [];
    for (let i = 1; i <= ASSETS + 1; i++) {
      const content = `file ${i}\n`;
      writeFileSync(path.join(media, fileName(i)), content);
      assets.push({
        filename: fileName(i),
        source_path: path.join(media, fileName(i)),
        import_root: media,
        file_size: Buffer.byteLength(content),
        sha256: createHash('sha256').update(content).digest('hex'),
        mime: 'text/plain',
        format: 'txt',
        asset_group: 'document',
        // The last one only the admins see.
        access: i > ASSETS ? ['admins'] : ['public', 'users'],
      });
    }
    const made = (await buildAssets(t.app.db, assets)).map(String);
    ids = made.slice(0, ASSETS);
    hidden = made[ASSETS] ?? '';
    user = (await signIn(t, { groups: ['users'] })).headers;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (body: object, headers: Record<string, string> = user) =>
    t.app.inject({ method: 'POST', url: `${API}download/zip`, headers, payload: body });
  const fetchZip = (url: string) => t.app.inject({ url });

  it('answers a URL of under 300 characters for 1,000 ten-digit ids, and its zip holds every file, named as its asset', async () => {
    expect(ids.every((id) => id.length === 10)).toBe(true);
    // What the GET would have needed: a request line nginx refuses with its default settings.
    expect(`GET ${API}download?operation=zip&csetid=0&${ids.map((id) => `id=${id}`).join('&')}`.length).toBeGreaterThan(
      NGINX_LINE_LIMIT,
    );
    const res = await post({ csetid: 0, ids });
    expect(res.statusCode).toBe(200);
    const { url, rejected_asset_ids } = res.json<{ url: string; rejected_asset_ids: string[] }>();
    expect(rejected_asset_ids).toEqual([]);
    expect(url.length).toBeLessThan(300);
    expect(url).toMatch(/^\/media\/zip\/0\/[\w-]{43}\?by=u\d+&exp=\d+&sig=[\w-]+$/);

    const zip = await fetchZip(url);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toContain(`filename="assets-${ASSETS}.zip"`);
    const names = zipEntries(zip.rawPayload, dir);
    expect(names).toHaveLength(ASSETS);
    expect(names).toEqual(Array.from({ length: ASSETS }, (_, i) => fileName(i + 1)));
  });

  it('gives the same list the same reference, kept in the database until its URL expires, for any process', async () => {
    const some = ids.slice(0, 3);
    const first = (await post({ csetid: 0, ids: some })).json<{ url: string }>().url;
    const again = (await post({ csetid: 0, ids: some })).json<{ url: string }>().url;
    expect(again).toBe(first);
    const read = readMediaUrl(first);
    const ref = read?.file.kind === 'zipList' ? String(read.file.ref) : '';
    expect(ref).toBe(zipListRef(some.join(',')));
    const rows = await t.app.db.kysely.selectFrom('zip_list').selectAll().where('ref', '=', ref).execute();
    expect(rows).toEqual([{ ref, ids: some.join(','), expires_at: Number(read?.exp) * 1000 }]);
    // Another process on the same database (and secret) serves the zip: nothing is kept in memory.
    const other = await buildApp(t.settings, { logger: false });
    try {
      const zip = await other.inject({ url: first });
      expect(zip.statusCode).toBe(200);
      expect(zipEntries(zip.rawPayload, dir)).toEqual([fileName(1), fileName(2), fileName(3)]);
    } finally {
      await other.close();
    }
    // The purge removes the list once its URL has expired, and not before.
    const purge = (now: number) => t.app.services.repositories.downloads.purgeExpiredZipLists(now);
    await purge(Date.now());
    expect(await t.app.db.kysely.selectFrom('zip_list').select('ref').where('ref', '=', ref).execute()).toHaveLength(1);
    await purge(Number(read?.exp) * 1000 + 1);
    expect(await t.app.db.kysely.selectFrom('zip_list').select('ref').where('ref', '=', ref).execute()).toHaveLength(0);
  });

  it('refuses a changed reference, signature, downloader or list with 403 forbidden', async () => {
    // A list of its own: its row is changed below.
    const url = (await post({ csetid: 0, ids: ids.slice(10, 12) })).json<{ url: string }>().url;
    const ref = url.split('/')[4]?.split('?')[0] ?? '';
    // Another list the server keeps: its reference is real, but this signature is not for it.
    const otherUrl = (await post({ csetid: 0, ids: ids.slice(12, 14) })).json<{ url: string }>().url;
    const otherRef = otherUrl.split('/')[4]?.split('?')[0] ?? '';
    const sig = new URL(url, 'http://x').searchParams.get('sig') ?? '';
    const tampered = [
      url.replace(ref, otherRef),
      url.replace(`sig=${sig}`, `sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`),
      url.replace(/by=u\d+/, 'by=guest'),
      url.replace('/media/zip/0/', '/media/zip/1/'),
    ];
    for (const changed of tampered) {
      const res = await fetchZip(changed);
      expect(res.statusCode, changed).toBe(403);
      expect(res.json().error, changed).toBe('forbidden');
    }
    // The list behind a reference changed in the database: the reference no longer is its hash.
    await t.app.db.kysely
      .updateTable('zip_list')
      .set({ ids: [ids[10], hidden].join(',') })
      .where('ref', '=', ref)
      .execute();
    const changed = await fetchZip(url);
    expect(changed.statusCode).toBe(403);
    expect(changed.json()).toMatchObject({ error: 'forbidden', message: 'This download link is not valid.' });
  });

  it('names an asset the caller may not see, and does not bundle it', async () => {
    const res = await post({ csetid: 0, ids: [ids[0], hidden, ids[1]] });
    expect(res.statusCode).toBe(200);
    const answer = res.json<{ url: string; rejected_asset_ids: string[] }>();
    expect(answer.rejected_asset_ids).toEqual([hidden]);
    expect(zipEntries((await fetchZip(answer.url)).rawPayload, dir)).toEqual([fileName(1), fileName(2)]);
    // Only the hidden one: nothing to zip, no URL.
    const none = (await post({ csetid: 0, ids: [hidden] })).json<{ url?: string; rejected_asset_ids: string[] }>();
    expect(none).toEqual({ rejected_asset_ids: [hidden] });
  });

  it.each([
    ['no ids', { csetid: 0, ids: [] }, 'ids'],
    ['no list', { csetid: 0 }, 'ids'],
    ['an empty id', { csetid: 0, ids: [''] }, 'ids'],
    ['a negative set', { csetid: -1, ids: ['1'] }, 'csetid'],
    ['a set as text', { csetid: 'zero', ids: ['1'] }, 'csetid'],
    [
      'more ids than any zip may name',
      { csetid: 0, ids: Array.from({ length: 10_001 }, (_, i) => String(i + 1)) },
      'ids',
    ],
  ])('refuses %s with 400 validation naming the field', async (_what, body, field) => {
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    const answer = res.json<{ error: string; message: string; details: { path: string }[] }>();
    expect(answer.error).toBe('validation');
    expect(answer.details.map((d) => d.path).join(' ')).toContain(field);
  });

  it('refuses more than 10,000 ids with 400 validation naming the list, also when maxAssets sets no limit', async () => {
    const { download } = t.settings.file;
    const before = download.maxAssets;
    download.maxAssets = -1;
    try {
      const many = Array.from({ length: 10_001 }, (_, i) => String(i + 1));
      const res = await post({ csetid: 0, ids: many });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation', details: [{ path: expect.stringContaining('ids') }] });
    } finally {
      download.maxAssets = before;
    }
  });

  it('refuses an unknown set and more assets than maxAssets as the GET does', async () => {
    const unknown = await post({ csetid: 99, ids: ids.slice(0, 2) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'validation', details: [{ path: 'csetid' }] });
    const tooMany = [...ids, hidden];
    const res = await post({ csetid: 0, ids: tooMany });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'validation',
      message: `A zip may hold at most ${ASSETS} assets.`,
      details: [{ path: 'ids', message: `at most ${ASSETS}` }],
    });
    const get = await t.app.inject({
      url: `${API}download`,
      headers: user,
      query: { operation: 'zip', csetid: '0', id: tooMany },
    });
    expect(get.json()).toMatchObject({ error: 'validation', message: res.json<{ message: string }>().message });
  });

  it('serves guests as the GET does (a URL for a guest), and asks for the XSRF pair like any POST', async () => {
    const guest = await post({ csetid: 0, ids: ids.slice(0, 2) }, xsrfHeaders);
    expect(guest.statusCode).toBe(200);
    const { url } = guest.json<{ url: string }>();
    expect(url).toContain('by=guest');
    expect(zipEntries((await fetchZip(url)).rawPayload, dir)).toEqual([fileName(1), fileName(2)]);
    const without = await post({ csetid: 0, ids: ids.slice(0, 2) }, {});
    expect(without.statusCode).toBe(403);
    expect(without.json().error).toBe('xsrf');
  });
});
