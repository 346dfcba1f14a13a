import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { vitrineCli } from '../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { makeClip, makeImage, makePdf } from '../../test/media-fixtures.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { loadSettings, type Settings } from '../settings.ts';
import { derivativeRoot } from '../derivatives/storage.ts';
import { buildServices } from '../services.ts';
import { JobRepository } from './job.repository.ts';
import { JobWorker, type JobHandler } from './job.worker.ts';

const urlOf = (d: TestDatabase) => (d.config.dialect === 'sqlite' ? `sqlite:${d.config.file}` : d.config.url);

describe.each(dialects)('job worker (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let dir: string;
  let settings: Settings;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    db = await openDatabase(database.config);
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-jobs-'));
    settings = loadSettings({ DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'silent' });
  });
  afterEach(async () => {
    await db.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const job = (key: string) => db.kysely.selectFrom('job').selectAll().where('key', '=', key).executeTakeFirstOrThrow();

  it('retries a failing job with backoff until it succeeds', async () => {
    const runs: number[] = [];
    const flaky: JobHandler<{ n: number }> = {
      name: 'flaky',
      parse: (p) => p as { n: number },
      async run() {
        runs.push(Date.now());
        if (runs.length < 3) throw new Error(`attempt ${runs.length} failed`);
      },
    };
    await new JobRepository(db.kysely).enqueue({ name: 'flaky', key: 'flaky:1', payload: { n: 1 }, maxAttempts: 3 });
    const settled: string[] = [];
    const worker = new JobWorker(new JobRepository(db.kysely), [flaky], {
      concurrency: 1,
      backoffMs: 100,
      pollMs: 20,
      onSettled: (_j, outcome) => settled.push(outcome),
    });
    await worker.drain();
    await worker.stop();
    expect(settled).toEqual(['retry', 'retry', 'done']);
    expect(await job('flaky:1')).toMatchObject({ status: 'done', attempts: 3, last_error: null });
    // The second retry waited about twice as long as the first.
    const [a = 0, b = 0, c = 0] = runs;
    expect(b - a).toBeGreaterThanOrEqual(100);
    expect(c - b).toBeGreaterThanOrEqual(200);
  });

  it('marks a job failed with its error after the last attempt', async () => {
    const broken: JobHandler = {
      name: 'broken',
      parse: (p) => p,
      async run() {
        throw new Error('the source file is unreadable');
      },
    };
    await new JobRepository(db.kysely).enqueue({ name: 'broken', key: 'broken:1', payload: {}, maxAttempts: 2 });
    const worker = new JobWorker(new JobRepository(db.kysely), [broken], { concurrency: 2, backoffMs: 10, pollMs: 20 });
    await worker.drain();
    await worker.stop();
    expect(await job('broken:1')).toMatchObject({
      status: 'failed',
      attempts: 2,
      last_error: 'the source file is unreadable',
    });
    expect(await new JobRepository(db.kysely).counts()).toEqual({ queued: 0, running: 0, done: 0, failed: 1 });
  });

  it('enqueueing the same key again while it waits does not run it twice', async () => {
    const jobs = new JobRepository(db.kysely);
    let runs = 0;
    const once: JobHandler = { name: 'once', parse: (p) => p, run: async () => void runs++ };
    await jobs.enqueue({ name: 'once', key: 'once:1', payload: {} });
    await jobs.enqueue({ name: 'once', key: 'once:1', payload: {} });
    const worker = new JobWorker(new JobRepository(db.kysely), [once], { concurrency: 2, pollMs: 20 });
    await worker.drain();
    await worker.stop();
    expect(runs).toBe(1);
  });

  it('a stopping worker waits for a running job, and hands one that outlasts the grace time back', async () => {
    const jobs = new JobRepository(db.kysely);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const started: string[] = [];
    const slow: JobHandler<{ n: number }> = {
      name: 'slow',
      parse: (p) => p as { n: number },
      run: async ({ n }) => {
        started.push(`${n}`);
        if (n === 1) await new Promise((r) => setTimeout(r, 200));
        if (n === 2) await gate;
      },
    };
    await jobs.enqueue({ name: 'slow', key: 'slow:1', payload: { n: 1 } });
    const first = new JobWorker(jobs, [slow], { concurrency: 1, pollMs: 20 });
    first.start();
    await expect.poll(() => started.includes('1')).toBe(true);
    await first.stop({ handBackAfterMs: 5_000 });
    expect((await job('slow:1')).status).toBe('done');

    await jobs.enqueue({ name: 'slow', key: 'slow:2', payload: { n: 2 } });
    const stopping = new JobWorker(jobs, [slow], { concurrency: 1, pollMs: 20 });
    stopping.start();
    await expect.poll(() => started.includes('2')).toBe(true);
    await stopping.stop({ handBackAfterMs: 100 });
    // Back in the queue at once, its attempt not counted, for another process to run.
    expect(await job('slow:2')).toMatchObject({ status: 'queued', attempts: 0, locked_by: null });
    release();

    const other = new JobWorker(jobs, [slow], { concurrency: 1, pollMs: 20 });
    await other.drain();
    await other.stop();
    expect(await job('slow:2')).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('a restart in the middle of derivative jobs finishes them', async () => {
    const media = path.join(dir, 'media');
    for (let i = 0; i < 4; i++) await makeImage(path.join(media, `photo-${i}.jpg`), { width: 900, height: 600 });
    makePdf(path.join(media, 'guide.pdf'), ['Cover', 'Contents', 'Index']);
    makeClip(path.join(media, 'clip.webm'), { seconds: 3 });

    // The first process (`vitrine import`, which makes derivatives) is killed while its jobs run,
    // together with the helpers it started (exiftool, ffmpeg), as when its machine or container
    // stops: it runs in a process group of its own, and the whole group is killed.
    const child = spawn(process.execPath, [...vitrineCli, 'import', media], {
      detached: true,
      env: {
        ...process.env,
        DATA_DIR: settings.dataDir,
        DATABASE_URL: urlOf(database),
        JOB_LEASE_SECONDS: '1',
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    const jobs = new JobRepository(db.kysely);
    await expect.poll(async () => (await jobs.counts()).running, { timeout: 20_000, interval: 20 }).toBeGreaterThan(0);
    process.kill(-(child.pid ?? 0), 'SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const atKill = await jobs.counts();
    expect(atKill.queued + atKill.running).toBeGreaterThan(0);

    // The restarted process takes over the expired leases and makes every derivative.
    const second = buildServices(db, settings).jobWorker({ concurrency: 2, leaseMs: 1000, pollMs: 50 });
    await second.drain();
    await second.stop();
    expect(await jobs.counts()).toEqual({ queued: 0, running: 0, done: 7, failed: 0 });
    const assets = await db.kysely.selectFrom('asset').select(['id', 'filename']).execute();
    expect(assets).toHaveLength(6);
    for (const a of assets) {
      const kinds = await db.kysely
        .selectFrom('derivative')
        .select(['kind', 'page', 'path'])
        .where('asset_id', '=', a.id)
        .execute();
      expect(kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['thumb', 'preview']));
      for (const k of kinds) expect(existsSync(path.join(derivativeRoot(settings.dataDir), k.path))).toBe(true);
    }
    const guide = assets.find((a) => a.filename === 'guide.pdf');
    const pages = await db.kysely
      .selectFrom('derivative')
      .select('page')
      .where('asset_id', '=', guide?.id ?? 0)
      .where('kind', '=', 'preview')
      .orderBy('page')
      .execute();
    expect(pages.map((p) => p.page)).toEqual([0, 1, 2, 3]);
    const clip = assets.find((a) => a.filename === 'clip.webm');
    expect(
      await db.kysely
        .selectFrom('derivative')
        .select('mime')
        .where('asset_id', '=', clip?.id ?? 0)
        .where('kind', '=', 'video')
        .executeTakeFirst(),
    ).toEqual({
      mime: 'video/mp4',
    });
  }, 60_000);
});
