import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { buildAssets } from '../../test/factories.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { holdServeLock, SERVED_BATCH, writeBatchSize } from '../db/serve-lock.ts';
import { loadSettings } from '../settings.ts';
import { CatalogueRepository } from './catalogue.repository.ts';
import { ImportService } from './import.service.ts';
import type { NewAsset } from './new-asset.ts';

/** More assets than fit one transaction while a server serves the database: three transactions. */
const ASSETS = 2 * SERVED_BATCH + 50;

/** Assets of files in `media` that are no longer there, with values and a collection each. */
async function missingFiles(db: Db, media: string): Promise<number[]> {
  const collection = await new CatalogueRepository(db.kysely).ensureCollection(media, 'Media', null);
  const assets: NewAsset[] = Array.from({ length: ASSETS }, (_, i) => ({
    source_path: path.join(media, `f${i}.jpg`),
    filename: `f${i}.jpg`,
    values: { title: `Picture ${i}`, keywords: ['harbour', `k${i % 7}`] },
    collections: [collection],
  }));
  const ids: number[] = [];
  for (let i = 0; i < assets.length; i += 100) ids.push(...(await buildAssets(db, assets.slice(i, i + 100))));
  return ids;
}

const generation = async (db: Db) =>
  Number((await db.kysely.selectFrom('catalogue_state').select('generation').executeTakeFirstOrThrow()).generation);
const goneCount = async (on: Db) =>
  Number(
    (
      await on.kysely
        .selectFrom('asset')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'gone')
        .executeTakeFirstOrThrow()
    ).n,
  );

/**
 * Commands that write many assets beside a running server (an import that marks assets gone,
 * `demo --reset`) write them in short transactions, each one catalogue change, and end where one
 * long transaction ended; a failure midway leaves whole assets, and running the command again
 * finishes the work.
 */
describe.each(dialects)('catalogue writes in batches on %s', (dialect) => {
  let test: TestDatabase;
  let db: Db;
  let repo: CatalogueRepository;
  let dir: string;
  let media: string;

  beforeEach(async () => {
    test = await createTestDatabase(dialect);
    db = await openDatabase(test.config);
    repo = new CatalogueRepository(db.kysely);
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-batches-'));
    media = path.join(dir, 'media');
    mkdirSync(media);
  });
  afterEach(async () => {
    await db.close();
    await test.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The change sequences after `after` that recorded these ids. */
  const changesOf = async (ids: number[], after: number) => {
    const runs = await db.kysely
      .selectFrom('catalogue_change')
      .select(['seq', 'first_id', 'last_id'])
      .where('seq', '>', after)
      .execute();
    const seqs = new Set<number>();
    for (const id of ids) {
      for (const r of runs) if (Number(r.first_id) <= id && id <= Number(r.last_id)) seqs.add(Number(r.seq));
    }
    return seqs;
  };
  const settings = () => {
    const s = loadSettings({ DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'silent' });
    s.database = test.config;
    return s;
  };
  const count = async (table: 'asset' | 'asset_value' | 'collection' | 'asset_collection') =>
    Number(
      (
        await db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('without a server, a re-import marks the missing files gone in one transaction of the bulk size', async () => {
    const ids = await missingFiles(db, media);
    const before = await generation(db);
    const summary = await new ImportService(repo, settings()).importFolder(media);
    expect(summary.gone).toBe(ASSETS);
    expect(await goneCount(db)).toBe(ASSETS);
    expect(await generation(db)).toBe(before + 1);
    expect((await changesOf(ids, before)).size).toBe(1);
  });

  it('removes the catalogue in transactions of `batch` assets, then collections, then one change of every asset', async () => {
    const ids = await missingFiles(db, media);
    await db.kysely
      .insertInto('job')
      .values({ name: 'zip', key: 'zip:1', payload: '{}', run_after: 0, created_at: 0, updated_at: 0 })
      .execute();
    const before = await generation(db);
    await repo.clear(SERVED_BATCH);
    for (const table of ['asset', 'asset_value', 'collection', 'asset_collection'] as const) {
      expect(await count(table), table).toBe(0);
    }
    // Derivative jobs went with their assets; other jobs stay.
    expect((await db.kysely.selectFrom('job').select('name').execute()).map((j) => j.name)).toEqual(['zip']);
    // Three batches of assets and the last change of every asset.
    expect(await generation(db)).toBe(before + 4);
    expect((await changesOf(ids, before)).size).toBe(4);
  });
});

/** The served case: only SQLite has it (a second server on PostgreSQL is the way to scale out). */
describe('catalogue writes beside a server on one SQLite file', () => {
  let test: TestDatabase;
  let db: Db;
  let repo: CatalogueRepository;
  let dir: string;
  let media: string;
  let lock: { release(): Promise<void> };
  let file: string;

  beforeEach(async () => {
    test = await createTestDatabase('sqlite');
    db = await openDatabase(test.config);
    repo = new CatalogueRepository(db.kysely);
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-served-'));
    media = path.join(dir, 'media');
    mkdirSync(media);
    if (test.config.dialect !== 'sqlite') throw new Error('a SQLite database was asked for');
    file = test.config.file;
    // What `vitrine serve` holds while it serves the file.
    lock = await holdServeLock(file);
  });
  afterEach(async () => {
    await lock.release();
    await db.close();
    await test.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const importer = () => {
    const settings = loadSettings({ DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'silent' });
    settings.database = test.config;
    return new ImportService(repo, settings);
  };
  /** What another connection (the server) reads while `work` runs: the counts it sees in between. */
  const watch = async (read: (on: Db) => Promise<number>, work: () => Promise<unknown>) => {
    const reader = await openDatabase(test.config);
    const seen = new Set<number>();
    let done = false;
    const watching = (async () => {
      while (!done) {
        seen.add(await read(reader));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      await work();
    } finally {
      done = true;
      await watching;
      await reader.close();
    }
    return seen;
  };
  const assetCount = async (on: Db) =>
    Number(
      (
        await on.kysely
          .selectFrom('asset')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('takes the batch size of bench-data: SERVED_BATCH while served, the bulk size once the server is gone', async () => {
    expect(await writeBatchSize(test.config)).toBe(SERVED_BATCH);
    await lock.release();
    expect(await writeBatchSize(test.config)).toBeGreaterThan(SERVED_BATCH);
    lock = await holdServeLock(file);
  });

  it('a re-import marks the missing files gone in transactions of SERVED_BATCH that another connection sees commit', async () => {
    const ids = await missingFiles(db, media);
    const before = await generation(db);
    let summary: Awaited<ReturnType<ImportService['importFolder']>> | undefined;
    const seen = await watch(goneCount, async () => (summary = await importer().importFolder(media)));
    expect(summary?.gone).toBe(ASSETS);
    // The server's connection saw each batch commit on its own, not only the start and the end.
    expect([...seen].filter((n) => n > 0 && n < ASSETS)).toEqual([SERVED_BATCH, 2 * SERVED_BATCH]);
    expect(await goneCount(db)).toBe(ASSETS);
    expect(await generation(db)).toBe(before + 3);
    // Each asset went gone once, in one of three changes.
    const runs = await db.kysely.selectFrom('catalogue_change').select(['seq', 'first_id', 'last_id']).execute();
    const gone = runs.filter((r) => Number(r.seq) > before);
    expect(new Set(gone.map((r) => Number(r.seq))).size).toBe(3);
    expect(gone.reduce((n, r) => n + Number(r.last_id) - Number(r.first_id) + 1, 0)).toBe(ids.length);
  });

  it('a re-import that fails midway leaves whole batches marked, and the next one marks the rest', async () => {
    const ids = await missingFiles(db, media);
    // The second batch fails (a full disk, a killed process): its transaction rolls back.
    const failing = ids[ids.length - 1 - SERVED_BATCH]!;
    await sql
      .raw(
        `create trigger fail_once before update of status on asset when new.id = ${failing} ` +
          `begin select raise(abort, 'disk I/O error'); end`,
      )
      .execute(db.kysely);
    await expect(importer().importFolder(media)).rejects.toThrow(/disk I\/O error/);
    expect(await goneCount(db)).toBe(SERVED_BATCH);
    await sql`drop trigger fail_once`.execute(db.kysely);

    const again = await importer().importFolder(media);
    expect(again.gone).toBe(ASSETS - SERVED_BATCH);
    expect(await goneCount(db)).toBe(ASSETS);
  });

  it('demo --reset removes the catalogue in transactions that another connection sees commit, and a failed one is finished by the next', async () => {
    const ids = await missingFiles(db, media);
    const failing = ids[ids.length - 1 - SERVED_BATCH]!;
    await sql
      .raw(
        `create trigger fail_once before delete on asset when old.id = ${failing} ` +
          `begin select raise(abort, 'disk I/O error'); end`,
      )
      .execute(db.kysely);
    await expect(repo.clear(await writeBatchSize(test.config))).rejects.toThrow(/disk I\/O error/);
    // The newest batch went whole; every asset left is whole (its values and collection are there).
    expect(await assetCount(db)).toBe(ASSETS - SERVED_BATCH);
    const orphans = await db.kysely
      .selectFrom('asset')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.not(
            eb.exists(
              eb.selectFrom('asset_value').select('asset_id').whereRef('asset_value.asset_id', '=', 'asset.id'),
            ),
          ),
          eb.not(
            eb.exists(
              eb
                .selectFrom('asset_collection')
                .select('asset_id')
                .whereRef('asset_collection.asset_id', '=', 'asset.id'),
            ),
          ),
        ]),
      )
      .execute();
    expect(orphans).toEqual([]);
    expect(
      await db.kysely.selectFrom('asset_value').select('asset_id').where('asset_id', '>', failing).execute(),
    ).toEqual([]);
    await sql`drop trigger fail_once`.execute(db.kysely);

    const seen = await watch(assetCount, async () => repo.clear(await writeBatchSize(test.config)));
    expect([...seen].filter((n) => n > 0 && n < ASSETS - SERVED_BATCH)).toEqual([ASSETS - 2 * SERVED_BATCH]);
    expect(await assetCount(db)).toBe(0);
    expect(await db.kysely.selectFrom('collection').selectAll().execute()).toEqual([]);
    expect(await db.kysely.selectFrom('asset_value').selectAll().execute()).toEqual([]);
  });
});
