import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importWithDerivatives, startTestApp, type TestApp } from '../../test/app.ts';
import { openShareLink, signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { decodedPixels, makeClip, makeImage } from '../../test/media-fixtures.ts';
import { readEmbeddedMetadata, writeEmbeddedMetadata } from '../adapters/metadata.ts';

const API = '/assetportal/api/';

/** What no caller without an account may read from a file: positions, serial numbers, owners and contacts. */
const PRIVATE = /GPS|Serial|Owner|CreatorWork|CreatorCity|LocationInformation/i;
/** The tags the creator field is read from (hidden from guests in these tests). */
const CREATOR = ['Artist', 'Creator', 'By-line'];

/** A photo as a camera and an agency leave it: a position, serial numbers, its owner and a contact. */
async function cameraPhoto(file: string): Promise<string> {
  await makeImage(file, { width: 640, height: 480 });
  await writeEmbeddedMetadata(file, {
    GPSLatitude: 53.5461,
    GPSLatitudeRef: 'N',
    GPSLongitude: 9.9661,
    GPSLongitudeRef: 'E',
    'XMP-exif:GPSLatitude': '53.5461 N',
    'XMP-exif:GPSLongitude': '9.9661 E',
    SerialNumber: 'BODY-4711',
    LensSerialNumber: 'LENS-0815',
    'XMP-aux:SerialNumber': 'BODY-4711',
    OwnerName: 'Jane Doe',
    'XMP-iptcCore:CreatorWorkEmail': 'jane@example.org',
    'XMP-iptcCore:CreatorCity': 'Hamburg',
    Artist: 'Jane Doe',
    'XMP-dc:Creator': 'Jane Doe',
    'IPTC:By-line': 'Jane Doe',
    'XMP-dc:Title': 'Harbour at dawn',
    Make: 'Canon',
    Model: 'EOS R5',
  });
  return file;
}

/** The decoded pixels' digest: equal for two files that show the same picture, whatever their metadata. */
const pixels = async (file: string | Buffer) =>
  createHash('sha256')
    .update(await decodedPixels(file))
    .digest('hex');

/** A clip whose MP4 carries where it was shot, as phones write it. */
function clipWithLocation(dir: string, file: string): string {
  const plain = makeClip(path.join(dir, 'plain-clip.mp4'), { seconds: 1 });
  execFileSync('ffmpeg', [
    ...['-nostdin', '-loglevel', 'error', '-y', '-i', plain, '-c', 'copy'],
    ...['-metadata', 'location=+53.5461+009.9661/', '-metadata', 'title=Harbour', file],
  ]);
  rmSync(plain);
  return file;
}

describe.each(dialects)(
  'originals without private metadata for callers without an account on %s (docs/security.md "Stripped originals")',
  (dialect) => {
    let t: TestApp;
    let dir: string;
    let media: string;
    let user: Record<string, string>;
    const lines: string[] = [];
    let ids: Record<string, number>;
    let guests = 0;

    const logged = (msg: string) =>
      lines
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { msg: string; asset?: number })
        .filter((l) => l.msg === msg);

    /** A fresh guest session, as anyone on the internet gets one. */
    const guest = async (): Promise<Record<string, string>> => {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}session/get`,
        headers: xsrfHeaders,
        remoteAddress: `198.51.100.${++guests}`,
      });
      expect(res.statusCode).toBe(200);
      return { authorization: `Bearer ${res.json().session as string}` };
    };
    const get = (url: string, headers: Record<string, string> = {}, query?: Record<string, string | string[]>) =>
      t.app.inject({ url: url.startsWith('/') ? url : API + url, headers, query });
    /** The signed URL of a single download, and the file behind it. */
    const download = async (headers: Record<string, string>, name: string, csetid = '0') => {
      const answer = await get('download/', headers, { id: String(ids[name]), csetid });
      expect(answer.statusCode, answer.body).toBe(200);
      const url = answer.json<{ url: string }>().url;
      const file = await get(url);
      expect(file.statusCode).toBe(200);
      return { url, file };
    };
    /** The tags exiftool reads from a downloaded file. */
    const tagsOf = async (bytes: Buffer, ext: string) => {
      const file = path.join(mkdtempSync(path.join(dir, 'read-')), `download.${ext}`);
      writeFileSync(file, bytes);
      return Object.keys((await readEmbeddedMetadata(file)).raw);
    };
    const sha256Of = async (name: string) =>
      (
        await t.app.db.kysely
          .selectFrom('asset')
          .select('sha256')
          .where('id', '=', ids[name] ?? 0)
          .executeTakeFirstOrThrow()
      ).sha256;

    beforeAll(async () => {
      t = await startTestApp({
        dialect,
        settings: {
          catalogue: { defaultAccessGroups: ['public', 'users'] },
          groups: [
            { name: 'public', downloadSets: [0] },
            { name: 'users', downloadSets: [0, 1, 2] },
          ],
          conversionSets: [
            {
              id: 1,
              title: 'Print TIFF',
              format: 'tiff',
              colourSpace: 'keep',
              keepMetadata: true,
              userGroups: ['users'],
            },
            { id: 2, title: 'Video with metadata', format: 'mp4', keepMetadata: true, userGroups: ['users'] },
          ],
          fields: [{ field_name: 'creator', visibleTo: ['users'] }],
          shareLinks: { groups: ['users'] },
        },
        logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
      });
      dir = mkdtempSync(path.join(tmpdir(), 'vitrine-strip-'));
      media = path.join(dir, 'media');
      await cameraPhoto(path.join(media, 'harbour.jpg'));
      await makeImage(path.join(media, 'plain.jpg'), { width: 320, height: 200 });
      clipWithLocation(dir, path.join(media, 'quay.mp4'));
      // Matroska: exiftool reads its tags but cannot write them.
      execFileSync('ffmpeg', [
        ...['-nostdin', '-loglevel', 'error', '-y', '-i', path.join(media, 'quay.mp4'), '-c', 'copy'],
        ...['-metadata', 'SERIAL_NUMBER=CAM-0815', path.join(media, 'quay.mkv')],
      ]);
      ids = await importWithDerivatives(t, media);
      user = (await signIn(t, { groups: ['users'] })).headers;
    }, 120_000);
    afterAll(async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("gives a guest the original without its position, serial numbers, owner, contact and the hidden creator's tags, with the same pixels", async () => {
      const original = path.join(media, 'harbour.jpg');
      expect((await tagsOf(readFileSync(original), 'jpg')).filter((k) => PRIVATE.test(k)).length).toBeGreaterThan(5);
      const { url, file } = await download(await guest(), 'harbour.jpg');
      const tags = await tagsOf(file.rawPayload, 'jpg');
      expect(tags.filter((k) => PRIVATE.test(k))).toEqual([]);
      expect(tags.filter((k) => CREATOR.includes(k))).toEqual([]);
      // What guests may see stays.
      expect(tags).toEqual(expect.arrayContaining(['Title', 'Make', 'Model']));
      expect(await pixels(file.rawPayload)).toEqual(await pixels(original));
      // Its length, HEAD and byte ranges are the cleaned copy's.
      expect(Number(file.headers['content-length'])).toBe(file.rawPayload.length);
      expect(file.rawPayload.length).toBeLessThan(statSync(original).size);
      const head = await t.app.inject({ method: 'HEAD', url });
      expect(Number(head.headers['content-length'])).toBe(file.rawPayload.length);
      const part = await t.app.inject({ url, headers: { range: 'bytes=100-299' } });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload).toEqual(file.rawPayload.subarray(100, 300));
    });

    it('gives a logged-in user the original as it is, position and all', async () => {
      const { file } = await download(user, 'harbour.jpg');
      expect(file.rawPayload).toEqual(readFileSync(path.join(media, 'harbour.jpg')));
      expect(await tagsOf(file.rawPayload, 'jpg')).toEqual(
        expect.arrayContaining(['GPSLatitude', 'SerialNumber', 'Artist']),
      );
    });

    it("cleans the original for a share link's visitor, who is judged as a guest", async () => {
      const link = await openShareLink(t, user, { assetIds: [String(ids['harbour.jpg'])], downloadSets: [0] });
      const { url, file } = await download(link.headers, 'harbour.jpg');
      expect(url).toContain('share=');
      const tags = await tagsOf(file.rawPayload, 'jpg');
      expect(tags.filter((k) => PRIVATE.test(k) || CREATOR.includes(k))).toEqual([]);
      expect(await pixels(file.rawPayload)).toEqual(await pixels(path.join(media, 'harbour.jpg')));
    });

    it('cleans an original once: later guests are served the cached copy', async () => {
      const before = logged('original cleaned').filter((l) => l.asset === ids['harbour.jpg']);
      expect(before).toHaveLength(1);
      const sha256 = await sha256Of('harbour.jpg');
      const [row] = await t.app.db.kysely
        .selectFrom('conversion')
        .select(['path', 'status'])
        .where('sha256', '=', sha256)
        .execute();
      expect(row?.status).toBe('done');
      const copy = path.join(t.settings.dataDir, 'conversions', row?.path ?? '');
      const made = statSync(copy).mtimeMs;
      const { file } = await download(await guest(), 'harbour.jpg');
      expect(file.rawPayload).toEqual(readFileSync(copy));
      expect(logged('original cleaned').filter((l) => l.asset === ids['harbour.jpg'])).toHaveLength(1);
      expect(statSync(copy).mtimeMs).toBe(made);
    });

    it('serves an original without any private tag as it is, without a copy', async () => {
      const { file } = await download(await guest(), 'plain.jpg');
      expect(file.rawPayload).toEqual(readFileSync(path.join(media, 'plain.jpg')));
      const sha256 = await sha256Of('plain.jpg');
      expect(existsSync(path.join(t.settings.dataDir, 'conversions', sha256.slice(0, 2), sha256))).toBe(false);
      expect(logged('original cleaned').filter((l) => l.asset === ids['plain.jpg'])).toEqual([]);
    });

    it('serves an original in a format exiftool cannot write as it is, and says so in the log', async () => {
      const { file } = await download(await guest(), 'quay.mkv');
      expect(file.rawPayload.equals(readFileSync(path.join(media, 'quay.mkv')))).toBe(true);
      const warned = logged('exiftool cannot write this format: the original is served as it is');
      expect(warned.map((l) => l.asset)).toEqual([ids['quay.mkv']]);
    });

    it("cleans the originals in a guest's zip", async () => {
      const answer = await get('download', await guest(), {
        operation: 'zip',
        csetid: '0',
        id: [String(ids['harbour.jpg'])],
      });
      expect(answer.statusCode, answer.body).toBe(200);
      const zip = path.join(mkdtempSync(path.join(dir, 'zip-')), 'bundle.zip');
      writeFileSync(zip, (await get(answer.json<{ url: string }>().url)).rawPayload);
      const photo = execFileSync('unzip', ['-p', zip, 'harbour.jpg']);
      expect((await tagsOf(photo, 'jpg')).filter((k) => PRIVATE.test(k) || CREATOR.includes(k))).toEqual([]);
    });

    it('keeps positions, serial numbers and owners out of a set that keeps metadata, for everyone', async () => {
      const { file } = await download(user, 'harbour.jpg', '1');
      const tags = await tagsOf(file.rawPayload, 'tif');
      expect(tags.filter((k) => PRIVATE.test(k))).toEqual([]);
      // The rest of the metadata is kept, as the set asks (a TIFF keeps the XMP; libvips writes no EXIF into it).
      expect(tags).toEqual(expect.arrayContaining(['Creator', 'Title']));

      const clip = await download(user, 'quay.mp4', '2');
      expect(await tagsOf(readFileSync(path.join(media, 'quay.mp4')), 'mp4')).toContain('LocationInformation');
      const clipTags = await tagsOf(clip.file.rawPayload, 'mp4');
      expect(clipTags.filter((k) => PRIVATE.test(k))).toEqual([]);
      expect(clipTags).toContain('Title');
    });

    it("plays a video's web MP4 without the original's position, and offers guests no uncleaned original", async () => {
      const forGuest = await get(`download/video/${ids['quay.mp4']}`, await guest());
      expect(forGuest.statusCode, forGuest.body).toBe(200);
      const answer = forGuest.json<{ url: string; sources: unknown[] }>();
      expect(answer.sources).toHaveLength(1);
      const web = await get(answer.url);
      expect(web.statusCode).toBe(200);
      expect((await tagsOf(web.rawPayload, 'mp4')).filter((k) => PRIVATE.test(k))).toEqual([]);
      const forUser = await get(`download/video/${ids['quay.mp4']}`, user);
      expect(forUser.json<{ sources: unknown[] }>().sources).toHaveLength(2);
    });
  },
);

describe('cleaned originals with media in an object store', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ store: 's3' });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-strip-s3-'));
    await cameraPhoto(path.join(dir, 'media', 'harbour.jpg'));
    await importWithDerivatives(t, path.join(dir, 'media'));
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a guest's cleaned copy in the bucket and serves it whole and in ranges", async () => {
    const session = await t.app.inject({ method: 'POST', url: `${API}session/get`, headers: xsrfHeaders });
    const guest = { authorization: `Bearer ${session.json().session as string}` };
    const [asset] = await t.app.db.kysely.selectFrom('asset').select('id').execute();
    const answer = await t.app.inject({
      url: `${API}download/`,
      headers: guest,
      query: { id: String(asset?.id), csetid: '0' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const url = answer.json<{ url: string }>().url;
    const file = await t.app.inject({ url });
    const copy = path.join(dir, 'download.jpg');
    writeFileSync(copy, file.rawPayload);
    expect(Object.keys((await readEmbeddedMetadata(copy)).raw).filter((k) => PRIVATE.test(k))).toEqual([]);
    expect(await pixels(file.rawPayload)).toEqual(await pixels(path.join(dir, 'media', 'harbour.jpg')));
    const part = await t.app.inject({ url, headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload).toEqual(file.rawPayload.subarray(0, 100));
  });
});

describe('originals with download.stripPrivateMetadata false', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ settings: { download: { stripPrivateMetadata: false } } });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-strip-off-'));
    await cameraPhoto(path.join(dir, 'media', 'harbour.jpg'));
    await importWithDerivatives(t, path.join(dir, 'media'));
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives guests the original as it is', async () => {
    const session = await t.app.inject({ method: 'POST', url: `${API}session/get`, headers: xsrfHeaders });
    const guest = { authorization: `Bearer ${session.json().session as string}` };
    const [asset] = await t.app.db.kysely.selectFrom('asset').select('id').execute();
    const answer = await t.app.inject({
      url: `${API}download/`,
      headers: guest,
      query: { id: String(asset?.id), csetid: '0' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const file = await t.app.inject({ url: answer.json<{ url: string }>().url });
    expect(file.rawPayload).toEqual(readFileSync(path.join(dir, 'media', 'harbour.jpg')));
  });
});
