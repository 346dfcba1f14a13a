import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { CatalogueRepository } from '../catalogue/catalogue.repository.ts';
import { newAssetWrite } from '../catalogue/new-asset.ts';
import { openDatabase, type Db } from './database.ts';
import { LOOKUP_INDEXES, createDeferredIndexes, deferIndexes, withBulkWrite } from './deferred-indexes.ts';

const require = createRequire(import.meta.url);

// A bulk write into an empty catalogue (bench-data) makes the lookup indexes after its rows; the
// database ends with the indexes its migrations made, however the write ends.
describe('lookup indexes made after a bulk write (SQLite)', () => {
  let test: TestDatabase;
  let db: Db;
  let repo: CatalogueRepository;

  beforeEach(async () => {
    test = await createTestDatabase('sqlite');
    db = await openDatabase(test.config);
    repo = new CatalogueRepository(db.kysely);
  });
  afterEach(async () => {
    await db.close();
    await test.drop();
  });

  /** The lookup indexes' statements as SQLite holds them (absent ones left out). */
  const definitions = async (k = db.kysely) =>
    (
      await sql<{ name: string; sql: string }>`
        select name, sql from sqlite_master where type = 'index' and name in (${sql.join([...LOOKUP_INDEXES])})
        order by name`.execute(k)
    ).rows;
  const recorded = async (k = db.kysely) =>
    (await k.selectFrom('deferred_index').select('name').orderBy('name').execute()).map((r) => r.name);
  const checkpointPages = async () =>
    Number(
      (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db.kysely)).rows[0]!
        .wal_autocheckpoint,
    );
  const write = (n: number, from = 0) =>
    repo.saveAssets(
      Array.from({ length: n }, (_, i) =>
        newAssetWrite({
          source_path: `/bulk/${from + i}.jpg`,
          values: { title: `Asset ${from + i}`, keywords: ['sea'] },
        }),
      ),
      { queueDerivatives: false },
    );
  /** Which plan SQLite picks to find assets by checksum and values by field and value. */
  const plans = async () => {
    const plan = async (query: string) =>
      (await sql<{ detail: string }>`${sql.raw(`explain query plan ${query}`)}`.execute(db.kysely)).rows
        .map((r) => r.detail)
        .join(' ');
    return [
      await plan(`select id from asset where sha256 = 'x'`),
      await plan(`select asset_id from asset_value where field = 'keywords' and value = 'sea'`),
    ];
  };

  it('are absent while the rows are written, made after them, and the lookups use them again', async () => {
    const made = await definitions();
    expect(made.map((d) => d.name)).toEqual(['asset_sha_idx', 'asset_value_field_idx']);
    const seen: unknown[] = [];
    const progress: [number, number][] = [];
    await withBulkWrite(
      db.kysely,
      'sqlite',
      { deferLookups: true, progress: (d, t) => progress.push([d, t]) },
      async () => {
        seen.push(await definitions(), await recorded(), await checkpointPages());
        await write(50);
      },
    );
    expect(seen).toEqual([[], ['asset_sha_idx', 'asset_value_field_idx'], 100_000]);
    expect(await definitions()).toEqual(made);
    expect(await recorded()).toEqual([]);
    expect(await checkpointPages()).toBe(1000);
    // The log written meanwhile is in the database, and empty.
    expect(statSync(`${(test.config as { file: string }).file}-wal`).size).toBe(0);
    expect(progress).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    const [bySha, byValue] = await plans();
    expect(bySha).toContain('asset_sha_idx');
    expect(byValue).toContain('asset_value_field_idx');
    expect(await repo.countAssets()).toBe(50);
  });

  it('are made again when the write fails, and the assets it committed stay', async () => {
    const made = await definitions();
    const failing = withBulkWrite(db.kysely, 'sqlite', { deferLookups: true }, async () => {
      await write(10);
      throw new Error('the disk is full');
    });
    await expect(failing).rejects.toThrow('the disk is full');
    expect(await definitions()).toEqual(made);
    expect(await recorded()).toEqual([]);
    expect(await repo.countAssets()).toBe(10);
  });

  it('are kept when the catalogue has assets or a server may read it', async () => {
    await write(1);
    let during = await definitions();
    await withBulkWrite(db.kysely, 'sqlite', { deferLookups: true }, async () => {
      during = await definitions();
    });
    expect(during.map((d) => d.name)).toEqual([...LOOKUP_INDEXES].sort());

    await db.kysely.deleteFrom('asset').execute();
    await withBulkWrite(db.kysely, 'sqlite', { deferLookups: false }, async () => {
      during = await definitions();
    });
    expect(during.map((d) => d.name)).toEqual([...LOOKUP_INDEXES].sort());
  });

  it('are dropped and made while another thread commits writes all the time (as the indexing thread does)', async () => {
    const file = (test.config as { file: string }).file;
    // A thread of its own: its commits fall between any two statements of this one.
    const writer = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const db = new (require(workerData.sqlite))(workerData.file);
       db.pragma('busy_timeout = 5000');
       db.exec('create table if not exists beat (n integer)');
       const beat = db.prepare('insert into beat (n) values (?)');
       let stop = false;
       parentPort.on('message', () => { stop = true; });
       (function loop(n) { if (stop) { db.close(); parentPort.close(); return; } beat.run(n); setImmediate(loop, n + 1); })(0);
       parentPort.postMessage('started');`,
      { eval: true, workerData: { file, sqlite: require.resolve('better-sqlite3') } },
    );
    await new Promise((resolve) => writer.once('message', resolve));
    try {
      for (let i = 0; i < 30; i++) {
        expect(await deferIndexes(db.kysely, LOOKUP_INDEXES)).toHaveLength(2);
        expect(await createDeferredIndexes(db.kysely)).toHaveLength(2);
      }
    } finally {
      const ended = new Promise((resolve) => writer.once('exit', resolve));
      writer.postMessage('stop');
      await ended;
    }
    expect((await definitions()).map((d) => d.name)).toEqual(['asset_sha_idx', 'asset_value_field_idx']);
  });

  it('a process that ended before making them leaves them recorded, and the next open makes them', async () => {
    const made = await definitions();
    expect(await deferIndexes(db.kysely, LOOKUP_INDEXES)).toEqual(expect.arrayContaining([...LOOKUP_INDEXES]));
    await write(5);
    await db.close();

    db = await openDatabase(test.config, undefined, { migrate: false });
    expect(await definitions()).toEqual([]);
    expect(await recorded()).toEqual(['asset_sha_idx', 'asset_value_field_idx']);
    await db.close();

    db = await openDatabase(test.config);
    repo = new CatalogueRepository(db.kysely);
    expect(await definitions()).toEqual(made);
    expect(await recorded()).toEqual([]);
    expect(await repo.countAssets()).toBe(5);
  });
});
