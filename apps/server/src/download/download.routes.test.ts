import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importWithDerivatives, startTestApp, storeSetups, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { editAsset } from '../../test/factories.ts';
import { makeClip, makeImage, makePdf } from '../../test/media-fixtures.ts';
import { startSmtp } from '../../test/smtp.ts';
import { probeImage } from '../adapters/media.ts';
import { ConfigRepository } from '../config/config.repository.ts';

const API = '/assetportal/api/';

/** Unzips with Info-ZIP's own tool, as a person would, and answers the files it wrote. */
function unzip(zip: Buffer, dir: string): Record<string, Buffer> {
  const file = path.join(dir, 'bundle.zip');
  writeFileSync(file, zip);
  const out = path.join(dir, 'out');
  execFileSync('unzip', ['-q', '-o', file, '-d', out]);
  const listing = execFileSync('zipinfo', ['-1', file]).toString('utf8').trim().split('\n');
  return Object.fromEntries(listing.map((name) => [name, readFileSync(path.join(out, name))]));
}

const title = 'downloads on $dialect, media in the $store store (portal-spec §4 "Download flow", §7 download calls)';

describe.each(storeSetups)(title, ({ dialect, store }) => {
  let t: TestApp;
  let dir: string;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let user: Record<string, string>;
  let partner: Record<string, string>;
  const ids: Record<string, number> = {};
  const id = (name: string) => String(ids[name]);

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({
      dialect,
      store,
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://portal.example.org' },
      settings: {
        catalogue: { defaultAccessGroups: ['public', 'users', 'partners'] },
        groups: [
          { name: 'public', downloadSets: [0, 1] },
          { name: 'users', downloadSets: [0] },
          { name: 'partners', downloadSets: [] },
        ],
        download: { maxAssets: 10, orderAddress: 'orders@example.org' },
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-download-'));
    await makeImage(path.join(dir, 'media', 'Straße café.jpg'), { width: 1200, height: 800 });
    await makeImage(path.join(dir, 'media', 'chart.png'), { width: 640, height: 480, format: 'png' });
    await makeImage(path.join(dir, 'media', 'big.tif'), { width: 3000, height: 2400, format: 'tiff' });
    await makeImage(path.join(dir, 'media', 'secret.jpg'), { width: 300, height: 200 });
    makeClip(path.join(dir, 'media', 'clip.mp4'), { seconds: 1 });
    makePdf(path.join(dir, 'media', 'manual.pdf'), ['One', 'Two']);
    makeClip(path.join(dir, 'media', 'tone.wav'), { seconds: 1, video: false });
    Object.assign(ids, await importWithDerivatives(t, path.join(dir, 'media')));
    await editAsset(t.app.db, ids['secret.jpg'] ?? 0, { access: ['admins'] });
    await new ConfigRepository(t.app.db).put('global', '', { global: { run_order_process: true } });
    user = (await signIn(t, { groups: ['users'] })).headers;
    partner = (await signIn(t, { groups: ['partners'] })).headers;
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = user, query?: Record<string, string | string[]>) =>
    t.app.inject({ url: url.startsWith('/') ? url : API + url, headers, query });

  it('offers the original and the sets that apply to the asset, titled in the caller’s language', async () => {
    const photo = await get(
      'session/csets',
      { ...user, 'accept-language': 'de-DE' },
      { asset_id: id('Straße café.jpg') },
    );
    expect(photo.statusCode).toBe(200);
    expect(photo.json().convert_sets).toEqual([
      { id: 0, title: 'Originaldatei' },
      { id: 1, title: 'Web-JPEG (2048 px)' },
      { id: 2, title: 'Druck-TIFF (300 ppi)' },
    ]);
    const clip = await get('session/csets', user, { asset_id: id('clip.mp4') });
    expect(clip.json().convert_sets.map((s: { id: number }) => s.id)).toEqual([0, 3, 4]);
    const none = await get('session/csets', partner, { asset_id: id('clip.mp4') });
    expect(none.json().convert_sets).toEqual([]);
    expect((await get('session/csets', user, { asset_id: id('secret.jpg') })).statusCode).toBe(404);
    expect((await get('info/downloads')).json()).toEqual({ max_assets: 10 });
  });

  it('answers previews with a url only for callers who may download, and 404 for invisible assets', async () => {
    const mine = await get('download/preview', user, { id: id('manual.pdf'), page: '2' });
    expect(mine.json()).toMatchObject({ asset_groups: ['document'], page_count: 2 });
    const page = await get(mine.json().url);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('image/jpeg');
    const theirs = await get('download/preview', partner, { id: id('manual.pdf') });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toEqual({ asset_groups: ['document'], page_count: 2 });
    expect((await get('download/preview', user, { id: id('secret.jpg') })).statusCode).toBe(404);
  });

  it('downloads the original with its UTF-8 name (RFC 6266), HEAD and Range', async () => {
    const res = await get('download/', user, { id: id('Straße café.jpg'), csetid: '0' });
    expect(res.statusCode).toBe(200);
    const { url } = res.json();
    expect(url).toMatch(/^\/media\/download\/\d+\/0\?by=u\d+&exp=\d+&sig=/);
    const file = await get(url, {});
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Stra_e caf_.jpg"; filename*=UTF-8''Stra%C3%9Fe%20caf%C3%A9.jpg`,
    );
    expect(file.rawPayload).toEqual(readFileSync(path.join(dir, 'media', 'Straße café.jpg')));
    const head = await t.app.inject({ method: 'HEAD', url });
    expect(Number(head.headers['content-length'])).toBe(file.rawPayload.length);
    const part = await t.app.inject({ url, headers: { range: 'bytes=10-19' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload).toEqual(file.rawPayload.subarray(10, 20));
  });

  it('converts on demand: a web JPEG of at most 2048 px, stripped, cached by content and set', async () => {
    const res = await get('download/', user, { id: id('big.tif'), csetid: '1' });
    expect(res.statusCode).toBe(200);
    const file = await get(res.json().url, {});
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['content-disposition']).toContain('filename="big.jpg"');
    const meta = await probeImage(file.rawPayload);
    expect([meta.format, meta.width, meta.height, meta.density]).toEqual(['jpeg', 2048, 1638, 72]);
    const rows = await t.app.db.kysely.selectFrom('conversion').select(['status', 'bytes']).execute();
    expect(rows).toContainEqual({ status: 'done', bytes: file.rawPayload.length });
  });

  it('does concurrent requests for the same conversion once', async () => {
    const repo = t.app.services.repositories.downloads;
    const a = await signIn(t, { groups: ['users'] });
    const b = await signIn(t, { groups: ['users'] });
    const [ra, rb] = await Promise.all([
      get('download/', a.headers, { id: id('chart.png'), csetid: '2' }),
      get('download/', b.headers, { id: id('chart.png'), csetid: '2' }),
    ]);
    expect([ra.statusCode, rb.statusCode]).toEqual([200, 200]);
    const [fa, fb] = await Promise.all([get(ra.json().url, {}), get(rb.json().url, {})]);
    expect(fa.rawPayload).toEqual(fb.rawPayload);
    expect((await probeImage(fa.rawPayload)).format).toBe('tiff');
    const sha = (await repo.sources([ids['chart.png'] ?? 0]))[0]?.sha256 ?? '';
    const made = await t.app.db.kysely.selectFrom('conversion').select('path').where('sha256', '=', sha).execute();
    expect(made).toHaveLength(1);
  });

  it('allows one conversion download at a time per user: a second one is 429 rate_limit_reached', async () => {
    const me = await signIn(t, { groups: ['users'] });
    // Another server process holds this user's lock.
    expect(await t.app.services.repositories.downloads.acquireLock(`user:${me.userId}`, Date.now(), 60_000)).toBe(true);
    const refused = await get('download/', me.headers, { id: id('chart.png'), csetid: '1' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('rate_limit_reached');
    // A download of the original needs no conversion and is not held up.
    expect((await get('download/', me.headers, { id: id('chart.png'), csetid: '0' })).statusCode).toBe(200);

    // Once the running conversion ends (the lock is released), the next one goes through.
    await t.app.services.repositories.downloads.releaseLock(`user:${me.userId}`);
    expect((await get('download/', me.headers, { id: id('chart.png'), csetid: '1' })).statusCode).toBe(200);
  });

  it('keeps one conversion at a time per client address for guests without a session', async () => {
    const locks = t.app.services.repositories.downloads;
    const asGuest = (remoteAddress: string) =>
      t.app.inject({ url: `${API}download/`, query: { id: id('Straße café.jpg'), csetid: '1' }, remoteAddress });
    // A guest at 192.0.2.7 is converting (in this or another process).
    expect(await locks.acquireLock('client:192.0.2.7', Date.now(), 60_000)).toBe(true);
    const refused = await asGuest('192.0.2.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('rate_limit_reached');
    // Another guest without a session is not held up by it (they used to share one lock).
    expect((await asGuest('192.0.2.8')).statusCode).toBe(200);
    await locks.releaseLock('client:192.0.2.7');
  });

  it('answers 403 for an asset the caller may see but not download, 404 for one it may not see', async () => {
    const res = await get('download/', partner, { id: id('chart.png'), csetid: '0' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
    expect((await get('download/', user, { id: id('clip.mp4'), csetid: '1' })).statusCode).toBe(403);
    expect((await get('download/', user, { id: id('secret.jpg'), csetid: '0' })).statusCode).toBe(404);
    expect((await get('download/', user, { id: id('chart.png'), csetid: '99' })).statusCode).toBe(400);
  });

  it('refuses an expired or tampered signed URL', async () => {
    const { url } = (await get('download/', user, { id: id('chart.png'), csetid: '0' })).json();
    const tampered = url.replace(/\/download\/\d+\//, `/download/${id('secret.jpg')}/`);
    expect((await get(tampered, {})).statusCode).toBe(403);
    const expired = url.replace(/exp=\d+/, 'exp=1000');
    const res = await get(expired, {});
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
  });

  describe('zip (§7 "download?operation=zip")', () => {
    const zipOf = async (csetid: string, names: string[]) => {
      const res = await get('download', user, { operation: 'zip', csetid, id: names.map(id) });
      expect(res.statusCode).toBe(200);
      const answer: { url?: string; rejected_asset_ids: string[] } = res.json();
      return answer;
    };

    it('bundles converted entries with unique safe names, rejecting assets not downloadable in the set', async () => {
      const answer = await zipOf('1', ['Straße café.jpg', 'chart.png', 'clip.mp4', 'manual.pdf']);
      expect(answer.rejected_asset_ids).toEqual([id('clip.mp4')]);
      const res = await get(answer.url ?? '', {});
      expect(res.headers['content-type']).toBe('application/zip');
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect(res.headers['content-disposition']).toContain('filename="assets-3-jpg.zip"');
      const files = unzip(res.rawPayload, mkdtempSync(path.join(dir, 'z')));
      expect(Object.keys(files)).toEqual(['Straße café.jpg', 'chart.jpg', 'manual.jpg']);
      const chart = await probeImage(files['chart.jpg'] ?? Buffer.alloc(0));
      expect([chart.format, chart.width, chart.height]).toEqual(['jpeg', 640, 480]);
      expect((await probeImage(files['Straße café.jpg'] ?? Buffer.alloc(0))).width).toBe(1200);
    });

    it('stores originals byte for byte and names assets of other sets in rejected_asset_ids', async () => {
      const answer = await zipOf('0', ['chart.png', 'secret.jpg', 'clip.mp4']);
      expect(answer.rejected_asset_ids).toEqual([id('secret.jpg')]);
      const files = unzip((await get(answer.url ?? '', {})).rawPayload, mkdtempSync(path.join(dir, 'z')));
      expect(files['chart.png']).toEqual(readFileSync(path.join(dir, 'media', 'chart.png')));
      expect(files['clip.mp4']?.length).toBe(readFileSync(path.join(dir, 'media', 'clip.mp4')).length);
      const partners = await get('download', partner, { operation: 'zip', csetid: '0', id: [id('chart.png')] });
      expect(partners.json()).toEqual({ rejected_asset_ids: [id('chart.png')] });
    });

    it('names the assets of the zip in its query, so that hundreds of seven-digit ids fit the URL', async () => {
      const answer = await zipOf('0', ['chart.png', 'manual.pdf']);
      const url = new URL(answer.url ?? '', 'http://portal');
      expect(url.pathname).toBe('/media/zip/0');
      expect(url.searchParams.get('ids')).toBe(`${id('chart.png')}-${id('manual.pdf')}`);
      expect(
        Object.keys(unzip((await get(answer.url ?? '', {})).rawPayload, mkdtempSync(path.join(dir, 'z')))),
      ).toEqual(['chart.png', 'manual.pdf']);
      // The old form with the ids in the path is not served, whatever it carries.
      const inPath = `${url.pathname}/${url.searchParams.get('ids')}?exp=${url.searchParams.get('exp')}&sig=${url.searchParams.get('sig')}`;
      expect((await get(inPath, {})).statusCode).toBe(404);
      // Its signature covers the ids: another list is refused.
      url.searchParams.set('ids', id('chart.png'));
      expect((await get(`${url.pathname}${url.search}`, {})).statusCode).toBe(403);
    });

    it('gives identical bytes for the same selection, and a middle range equal to the same bytes of the whole', async () => {
      const names = ['chart.png', 'Straße café.jpg', 'manual.pdf', 'clip.mp4'];
      const first = await get((await zipOf('0', names)).url ?? '', {});
      const second = await get((await zipOf('0', names)).url ?? '', {});
      expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(second.headers.etag).toBe(first.headers.etag);
      const size = first.rawPayload.length;
      const from = Math.floor(size / 3);
      const to = Math.floor((2 * size) / 3);
      const part = await t.app.inject({
        url: (await zipOf('0', names)).url ?? '',
        headers: { range: `bytes=${from}-${to}` },
      });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes ${from}-${to}/${size}`);
      expect(part.rawPayload.equals(first.rawPayload.subarray(from, to + 1))).toBe(true);
    });

    it('answers HEAD with the length and ETag of the zip, and no body', async () => {
      const names = ['chart.png', 'clip.mp4'];
      const whole = await get((await zipOf('0', names)).url ?? '', {});
      const head = await t.app.inject({ method: 'HEAD', url: (await zipOf('0', names)).url ?? '' });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(whole.rawPayload.length));
      expect(head.headers.etag).toBe(whole.headers.etag);
      expect(head.rawPayload.length).toBe(0);
    });

    it('refuses more assets than info/downloads allows', async () => {
      const many = Array.from({ length: 11 }, (_, i) => String(i + 1));
      const res = await get('download', user, { operation: 'zip', csetid: '0', id: many });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('validation');
    });
  });

  it('plays the web video: the video call’s URL answers Range requests with 206 and the right bytes', async () => {
    const { url } = (await get(`download/video/${id('clip.mp4')}`)).json();
    const whole = await get(url, {});
    expect(whole.headers['content-type']).toBe('video/mp4');
    const part = await t.app.inject({ url, headers: { range: 'bytes=1000-1999' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${whole.rawPayload.length}`);
    expect(part.rawPayload.equals(whole.rawPayload.subarray(1000, 2000))).toBe(true);
    expect((await get(`download/video/${id('chart.png')}`)).statusCode).toBe(404);
    expect((await get(`download/video/${id('clip.mp4')}`, partner)).statusCode).toBe(403);
    // A sound plays from its AAC preview, not from the original file.
    const sound = await get((await get(`download/video/${id('tone.wav')}`)).json().url, {});
    expect(sound.statusCode).toBe(200);
    expect(sound.headers['content-type']).toBe('audio/mp4');
    const codec = execFileSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', '-'],
      {
        input: sound.rawPayload,
      },
    );
    expect(codec.toString().trim()).toBe('aac');
  });

  it('logs who, what, when and which set once the file was delivered; the fold counts it for the sort', async () => {
    const count = async () =>
      (
        await t.app.db.kysely
          .selectFrom('asset')
          .select('obj_dload_cnt')
          .where('id', '=', ids['manual.pdf'] ?? 0)
          .executeTakeFirstOrThrow()
      ).obj_dload_cnt;
    // What the tests before delivered is counted first.
    await t.app.services.downloads.settled();
    await t.app.services.downloads.foldDownloads();
    const before = await count();
    const { url } = (await get('download/', user, { id: id('manual.pdf'), csetid: '5' })).json<{ url: string }>();
    expect((await get(url, {})).statusCode).toBe(200);
    await t.app.services.downloads.settled();
    const log = await t.app.db.kysely
      .selectFrom('download')
      .select(['cset_id', 'kind', 'user_name', 'asset_ids'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({ cset_id: 5, kind: 'single', asset_ids: id('manual.pdf') });
    expect(log.user_name).toMatch(/^user\d+$/);
    await t.app.services.downloads.foldDownloads();
    expect(await count()).toBe(before + 1);
    const rows = await t.app.db.kysely
      .selectFrom('asset')
      .select(['id', 'obj_dload_cnt'])
      .where('id', '!=', ids['secret.jpg'] ?? 0)
      .execute();
    const expected = rows.sort((a, b) => b.obj_dload_cnt - a.obj_dload_cnt || b.id - a.id).map((r) => String(r.id));
    const sorted = await get('search', user, { solr_q: '*', solr_sort: 'obj_dload_cnt desc', solr_rows: '20' });
    expect(sorted.json().response.docs.map((d: { id: string }) => d.id)).toEqual(expected);
  });

  it('mails an order to the order address through SMTP, with the requester, the message and asset links', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}download/order`,
      headers: user,
      payload: { id: [id('chart.png'), id('secret.jpg')], message: 'For the annual report, please.' },
    });
    expect(res.statusCode).toBe(200);
    const mail = smtp.mails.at(-1)?.replace(/=\r?\n/g, '') ?? '';
    expect(mail).toMatch(/^To: orders@example\.org/m);
    expect(mail).toContain('For the annual report, please.');
    expect(mail).toContain(`https://portal.example.org/#/asset/${id('chart.png')}`);
    expect(mail).not.toContain(`#/asset/${id('secret.jpg')}`);
  });
});
