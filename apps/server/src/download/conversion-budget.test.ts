import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { gate } from '../../test/gate.ts';
import { makeClip, makeImage } from '../../test/media-fixtures.ts';
import { WorkBudget } from '../jobs/work-budget.ts';
import { WorkSlotRepository } from '../jobs/work-slot.repository.ts';
import { ConversionCache } from './conversion-cache.ts';

const API = '/assetportal/api/';
const VIDEO_SET = '3';

/** The child processes of this process (any thread) running `command` now, read from /proc. */
function children(command: string): number {
  const pids = readdirSync('/proc/self/task').flatMap((task) =>
    readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean),
  );
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === command;
    } catch {
      return false; // it ended between the two reads
    }
  }).length;
}

interface LogLine {
  msg: string;
  asset?: number;
  set?: number;
  error?: string;
}

describe.each(dialects)('conversions within the work budget (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  const lines: string[] = [];
  const ids: Record<string, number> = {};
  let guests = 0;

  const logged = (msg: string): LogLine[] =>
    lines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LogLine)
      .filter((l) => l.msg === msg);

  /** A fresh guest session, as anyone on the internet gets one, each from an address of its own. */
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
  const download = (headers: Record<string, string>, name: string, csetid: string) =>
    t.app.inject({ url: `${API}download/`, headers, query: { id: String(ids[name]), csetid } });

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: {
        work: {
          convert: { perProcess: 1, total: 1 },
          checksum: { perProcess: 1, total: 1 },
          queue: 1,
          waitSeconds: 30,
          // One slot in all: none is kept for account holders, so that guests can convert at all.
          conversions: { accountShare: 0 },
        },
      },
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-budget-'));
    // Clips of different lengths, so each is content of its own.
    for (const [i, seconds] of [1, 1.2, 1.4, 1.6, 1.8].entries()) {
      makeClip(path.join(dir, 'media', `clip${i}.mp4`), { seconds });
    }
    // Long enough that converting it outlasts a claim's lease many times over.
    makeClip(path.join(dir, 'media', 'long.mp4'), { seconds: 8 });
    await makeImage(path.join(dir, 'media', 'photo.jpg'), { width: 400, height: 300 });
    await t.app.services.importer().importFolder(path.join(dir, 'media'));
    const worker = t.app.services.jobWorker({ pollMs: 50 });
    await worker.drain();
    await worker.stop();
    for (const a of await t.app.db.kysely.selectFrom('asset').select(['id', 'filename']).execute()) {
      ids[a.filename] = a.id;
    }
  }, 180_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs at most the pool of conversions for a crowd of guests, refuses the surplus with 429 busy, converts each video once', async () => {
    const asked = ['clip0', 'clip0', 'clip0', 'clip1', 'clip1', 'clip2', 'clip3', 'clip3'].map((c) => `${c}.mp4`);
    const sessions = await Promise.all(asked.map(() => guest()));
    let most = { ffmpeg: 0, running: 0 };
    const sample = setInterval(() => {
      const { running } = t.app.services.work.stats().convert;
      most = { ffmpeg: Math.max(most.ffmpeg, children('ffmpeg')), running: Math.max(most.running, running) };
    }, 5);
    const answers = await Promise.all(asked.map((name, i) => download(sessions[i] ?? {}, name, VIDEO_SET)));
    clearInterval(sample);

    // One conversion runs (the pool), one waits in the line of one; the other videos are refused.
    expect(most).toEqual({ ffmpeg: 1, running: 1 });
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    for (const refused of answers.filter((a) => a.statusCode === 429)) {
      expect(refused.json()).toEqual({
        error: 'busy',
        message: 'The server is busy with other conversions; please try again in 30 seconds.',
      });
      expect(refused.headers['retry-after']).toBe('30');
    }
    // Callers of the same video share its fate: one conversion, answered to all of them.
    const byVideo = (name: string) => new Set(answers.filter((_a, i) => asked[i] === name).map((a) => a.statusCode));
    for (const name of ['clip0.mp4', 'clip1.mp4', 'clip3.mp4']) expect(byVideo(name).size).toBe(1);
    const converted = new Set(statuses.flatMap((s, i) => (s === 200 ? [asked[i]] : [])));
    expect(converted.size).toBe(2);

    // Asked again once the pool is free, the refused ones are converted; every video exactly once.
    for (const name of ['clip0.mp4', 'clip1.mp4', 'clip2.mp4', 'clip3.mp4']) {
      expect((await download(await guest(), name, VIDEO_SET)).statusCode).toBe(200);
    }
    const made = logged('conversion made').map((l) => l.asset);
    expect(made.sort()).toEqual(['clip0.mp4', 'clip1.mp4', 'clip2.mp4', 'clip3.mp4'].map((n) => ids[n]).sort());
    const rows = await t.app.db.kysely.selectFrom('conversion').select('status').execute();
    expect(rows).toEqual(Array.from({ length: 4 }, () => ({ status: 'done' })));
  });

  it('answers busy for an uncached original whose checksum finds the checksum pool and its line full', async () => {
    const work = t.app.services.work;
    const release = gate();
    const running = work.run('checksum', 'job', () => release.wait);
    const waiting = work.run('checksum', 'request', () => release.wait);
    const refused = await download(await guest(), 'photo.jpg', '0');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('busy');
    expect(refused.headers['retry-after']).toBe('30');
    release.open();
    await Promise.all([running, waiting]);
    expect((await download(await guest(), 'photo.jpg', '0')).statusCode).toBe(200);
  });

  it('answers a failed conversion without the tool’s message or a server path, which go to the log', async () => {
    const [src] = await t.app.services.repositories.downloads.sources([ids['clip4.mp4'] ?? 0]);
    // The file was replaced by something no tool can read since the import.
    writeFileSync(src?.source_path ?? '', 'not a video at all');
    const res = await download(await guest(), 'clip4.mp4', VIDEO_SET);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      error: 'unsupported_media_type',
      message: 'clip4.mp4 could not be converted to mp4.',
    });
    expect(res.body).not.toContain(dir);
    const [failure] = logged('a conversion failed');
    expect(failure).toMatchObject({ asset: ids['clip4.mp4'], set: 3 });
    expect(failure?.error).toContain(src?.source_path);
  });

  it('renews the claim of a running conversion, so another process waits for it instead of converting again', async () => {
    const [src] = await t.app.services.repositories.downloads.sources([ids['long.mp4'] ?? 0]);
    const video = t.settings.file.conversionSets.find((s) => s.id === 3);
    if (!src || !video) throw new Error('the clip and the video set are part of the set-up');
    const made: unknown[] = [];
    const log = { info: (details: object) => made.push(details), warn: () => undefined };
    // Two processes: each its own budget and cache, on the one database and data folder; a claim
    // runs out after 400 ms without renewal, far shorter than the conversion.
    const process = () =>
      new ConversionCache(
        t.app.services.repositories.downloads,
        t.settings.dataDir,
        new WorkBudget(new WorkSlotRepository(t.app.db.kysely), {
          ...t.settings.file.work,
          convert: { perProcess: 1, total: 2 },
        }),
        { claimLeaseMs: 400, pollMs: 20, log },
      );
    const [a, b] = [process(), process()];
    const [fa, fb] = await Promise.all([a.file(src, video), b.file(src, video)]);
    // The same file, each with its own way of reading it.
    expect({ ...fa, open: undefined }).toEqual({ ...fb, open: undefined });
    expect(made).toHaveLength(1);
  });
});
