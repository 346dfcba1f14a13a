import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { Foreground } from './foreground.ts';
import { JobRepository } from './job.repository.ts';
import { JobWorker, type JobHandler } from './job.worker.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('job worker giving way to foreground work (uploads being imported)', () => {
  let database: TestDatabase;
  let db: Db;
  let ran: number[];
  const handler: JobHandler = {
    name: 'pictures',
    parse: (p) => p,
    async run() {
      ran.push(performance.now());
    },
  };

  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
    db = await openDatabase(database.config);
    ran = [];
    await new JobRepository(db.kysely).enqueue({ name: 'pictures', key: 'pictures:1', payload: {} });
  });
  afterEach(async () => {
    await db.close();
    await database.drop();
  });

  const workerFor = (foreground: Foreground) =>
    new JobWorker(new JobRepository(db.kysely), [handler], { pollMs: 20, yieldTo: foreground });

  /** Foreground work that lasts until `end` is called. */
  function hold(foreground: Foreground) {
    let end = () => undefined as void;
    const running = foreground.run(() => new Promise<void>((resolve) => (end = resolve)));
    return {
      end: async () => {
        end();
        await running;
        return performance.now();
      },
    };
  }

  it('takes no job while foreground work runs nor for the quiet time after it, then takes it', async () => {
    const foreground = new Foreground(150, 60_000);
    const work = hold(foreground);
    const worker = workerFor(foreground);
    worker.start();
    await sleep(300);
    expect(ran).toEqual([]);
    const ended = await work.end();
    await worker.drain();
    await worker.stop();
    expect(ran).toHaveLength(1);
    expect(ran[0]! - ended).toBeGreaterThanOrEqual(140);
  });

  it('holds a job back no longer than its longest wait when foreground work never pauses', async () => {
    const foreground = new Foreground(50, 250);
    const work = hold(foreground);
    const started = performance.now();
    const worker = workerFor(foreground);
    await worker.drain();
    await worker.stop();
    await work.end();
    expect(ran).toHaveLength(1);
    expect(ran[0]! - started).toBeGreaterThanOrEqual(240);
    expect(ran[0]! - started).toBeLessThan(5_000);
  });

  it('lets a worker stop at once while it gives way', async () => {
    const foreground = new Foreground(50, 60_000);
    const work = hold(foreground);
    const worker = workerFor(foreground);
    worker.start();
    await sleep(50);
    const stopping = performance.now();
    await worker.stop();
    expect(performance.now() - stopping).toBeLessThan(1_000);
    expect(ran).toEqual([]);
    await work.end();
  });
});
