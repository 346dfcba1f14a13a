import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMediaUrl } from '@vitrine/contract/paths';
import { apiCaller, importWithDerivatives, startTestApp, type TestApp } from '../../test/app.ts';
import { openShareLink, signIn } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { makeClip } from '../../test/media-fixtures.ts';
import { captionLabel } from './download.service.ts';

interface VideoAnswer {
  url: string;
  sources: { src: string; type: string; size: number }[];
  captions: { label: string; src: string; lang: string }[];
}

describe('caption track labels', () => {
  it("name a track's language in the caller's language, and leave a track that names none to the player", () => {
    expect(captionLabel('en', ['de', 'en'])).toBe('Englisch');
    expect(captionLabel('de', ['en'])).toBe('German');
    expect(captionLabel('', ['de', 'en'])).toBe('');
    expect(captionLabel('', ['en'])).toBe('');
  });
});

describe.each(dialects)('the sources and captions of the player on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  /** May download the original (set 0) and the web video. */
  let editor: Record<string, string>;
  /** May download the web video only. */
  let viewer: Record<string, string>;
  let ids: Record<string, number>;

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: {
        catalogue: { defaultAccessGroups: ['users', 'viewers'] },
        groups: [
          { name: 'users', downloadSets: [0, 3] },
          { name: 'viewers', downloadSets: [3] },
        ],
        conversionSets: [
          {
            id: 3,
            title: { en: 'Web video' },
            format: 'mp4',
            maxSize: 1280,
            assetGroups: ['video'],
            userGroups: ['users', 'viewers'],
          },
        ],
        shareLinks: { groups: ['users'] },
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-player-'));
    const media = path.join(dir, 'media');
    makeClip(path.join(media, 'harbour.mp4'), { seconds: 2 });
    makeClip(path.join(media, 'harbour-raw.mkv'), { seconds: 1 });
    writeFileSync(path.join(media, 'harbour.en.vtt'), 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nBoats\n');
    writeFileSync(
      path.join(media, 'harbour.de.srt'),
      '\uFEFF1\r\n00:00:00,000 --> 00:00:01,000\r\nBoote, viele\r\n\r\n2\r\n00:00:01,000 --> 00:00:02,000\r\nMöwen\r\n',
    );
    ids = await importWithDerivatives(t, media);
    // The caption files are no assets of their own.
    expect(Object.keys(ids).sort()).toEqual(['harbour-raw.mkv', 'harbour.mp4']);
    editor = (await signIn(t, { groups: ['users'] })).headers;
    viewer = (await signIn(t, { groups: ['viewers'] })).headers;
  }, 120_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
  const video = async (name: string, headers: Record<string, string>, language = 'en') => {
    const res = await call('GET', `download/video/${ids[name]}`, { ...headers, 'accept-language': language });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<VideoAnswer>();
  };

  it('offers the web MP4 first and the original only to a caller who may download the original', async () => {
    const forEditor = await video('harbour.mp4', editor);
    expect(forEditor.sources.map((s) => [readMediaUrl(s.src)?.file, s.type])).toEqual([
      [{ kind: 'video', id: String(ids['harbour.mp4']) }, 'video/mp4'],
      [{ kind: 'download', id: String(ids['harbour.mp4']), cset: '0' }, 'video/mp4'],
    ]);
    expect(forEditor.sources[0]?.src).toBe(forEditor.url);
    const original = await t.app.db.kysely
      .selectFrom('asset')
      .select('file_size')
      .where('id', '=', ids['harbour.mp4'] ?? 0)
      .executeTakeFirstOrThrow();
    expect(forEditor.sources[1]?.size).toBe(Number(original.file_size));
    expect(forEditor.sources[0]?.size).toBeGreaterThan(0);
    // The original plays from its URL (a player's URL: no download is counted).
    const played = await call('GET', forEditor.sources[1]?.src ?? '', {});
    expect(played.statusCode).toBe(200);
    expect(played.rawPayload.length).toBe(Number(original.file_size));

    const forViewer = await video('harbour.mp4', viewer);
    expect(forViewer.sources).toHaveLength(1);
    expect(forViewer.sources[0]?.src).toBe(forViewer.url);
    expect(JSON.stringify(forViewer)).not.toContain('/media/download/');

    // A Matroska original is no browser's: the web MP4 alone, even for the editor.
    expect((await video('harbour-raw.mkv', editor)).sources).toHaveLength(1);
  });

  it('names caption tracks in the caller language and serves SubRip as WebVTT', async () => {
    const en = await video('harbour.mp4', viewer);
    expect(en.captions.map(({ label, lang }) => ({ label, lang }))).toEqual([
      { label: 'German', lang: 'de' },
      { label: 'English', lang: 'en' },
    ]);
    const de = await video('harbour.mp4', viewer, 'de-DE,de;q=0.9');
    expect(de.captions.map((c) => c.label)).toEqual(['Deutsch', 'Englisch']);

    const srt = await call('GET', en.captions[0]?.src ?? '', {});
    expect(srt.statusCode, srt.body).toBe(200);
    expect(srt.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(srt.body).toBe(
      'WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.000\nBoote, viele\n\n2\n00:00:01.000 --> 00:00:02.000\nMöwen\n',
    );
    const vtt = await call('GET', en.captions[1]?.src ?? '', {});
    expect(vtt.body).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nBoats\n');
    // A signature is for one track: another track number under it is refused.
    const other = (en.captions[1]?.src ?? '').replace(/\/caption\/(\d+)\/2/, '/caption/$1/1');
    expect((await call('GET', other, {})).statusCode).toBe(403);
    expect((await video('harbour-raw.mkv', viewer)).captions).toEqual([]);
  });

  it("gives a share link's visitor the captions of the link's video until the link is revoked", async () => {
    const { shareId, headers: visitor } = await openShareLink(t, editor, {
      assetIds: [String(ids['harbour.mp4'])],
      downloadSets: [3],
    });

    const answer = await video('harbour.mp4', visitor);
    expect(answer.sources).toHaveLength(1);
    expect(answer.captions).toHaveLength(2);
    const track = answer.captions[1]?.src ?? '';
    expect(readMediaUrl(track)?.grant.share).toBe(String(shareId));
    const before = await call('GET', track, {});
    expect(before.statusCode).toBe(200);
    expect(before.headers['cache-control']).toMatch(/^private/);
    expect((await call('GET', `download/video/${ids['harbour-raw.mkv']}`, visitor)).statusCode).toBe(404);

    expect((await call('POST', 'share/revoke', editor, { id: shareId })).statusCode).toBe(200);
    const after = await call('GET', track, {});
    expect(after.statusCode).toBe(403);
    expect(after.body).not.toContain('Boats');
  });
});
