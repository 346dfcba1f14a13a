import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../test/media-fixtures.ts';
import { audioWaveform, convertAv, decodeImageWithFfmpeg, probeAv, videoPoster, webMp4 } from './video.ts';

/**
 * ffmpeg and ffprobe read local files only (docs/security.md "Media work on untrusted files"): an
 * input that names a web address, directly or from a playlist inside an uploaded file, is refused
 * before anything is fetched. A web server on loopback that serves a real clip counts what it is asked.
 */
describe('ffmpeg and ffprobe fetch nothing from the network', () => {
  let dir: string;
  let server: Server;
  let base: string;
  const asked: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-video-'));
    const clip = readFileSync(makeClip(path.join(dir, 'clip.mp4'), { seconds: 1, size: '64x48' }));
    server = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length }).end(clip);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const probe = {
    duration: 1,
    width: 64,
    height: 48,
    hasVideo: true,
    hasAudio: true,
    videoCodec: 'h264',
    audioCodec: 'aac',
  };
  const runs: [string, (file: string) => Promise<unknown>][] = [
    ['probing', (file) => probeAv(file)],
    ['the poster', (file) => videoPoster(file, 1)],
    ['the web video', (file) => webMp4(file, path.join(dir, 'web.mp4'), { ...probe, videoCodec: 'vp9' })],
    ['the waveform', (file) => audioWaveform(file)],
    ['decoding a picture', (file) => decodeImageWithFfmpeg(file)],
    ['a conversion', (file) => convertAv(file, path.join(dir, 'out.mp4'), { format: 'mp4', keepMetadata: false })],
  ];

  it.each(runs)('%s refuses an input that names a web address', async (_what, run) => {
    asked.length = 0;
    await expect(run(`${base}/clip.mp4`)).rejects.toThrow();
    expect(asked).toEqual([]);
  });

  it.each(runs)('%s of an uploaded HLS playlist pointing at a web address fetches nothing', async (_what, run) => {
    const playlist = path.join(dir, 'clip.m3u8');
    writeFileSync(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n${base}/segment.ts\n#EXT-X-ENDLIST\n`);
    asked.length = 0;
    await expect(run(playlist)).rejects.toThrow();
    expect(asked).toEqual([]);
  });

  it('still reads a local clip', async () => {
    expect(await probeAv(path.join(dir, 'clip.mp4'))).toMatchObject({ hasVideo: true, hasAudio: true, width: 64 });
  });
});
