import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { must } from '@vitrine/contract/must';
import { CHANGE_READER_TTL_MS, type SearchEngine } from '@vitrine/search-engine';
import { buildAssets, editAsset } from '../../test/factories.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { CatalogueRepository } from '../catalogue/catalogue.repository.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { createSearchEngine, SNAPSHOT_FILE } from './create-engine.ts';
import { SearchRepository } from './search.repository.ts';

const facets = ['category', 'rating'];

describe.each(dialects)('search index snapshot and change-log pruning on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let dir: string;
  let file: string;
  const logs: string[] = [];

  /**
   * A server process's engine: reads and writes the snapshot in `dir`; it pages sorted results by
   * the index's sort orders (as at scale) and the reference engines sort them directly.
   */
  const engine = (snapshotFile = file): SearchEngine =>
    createSearchEngine(db, [], { snapshotFile, log: (m) => logs.push(m), directSortLimit: 0, frequentMinDocs: 1 });
  const reference = (): SearchEngine => createSearchEngine(db, [], { directSortLimit: 1e9 });
  /** What searches answer: ids, counts, facets and every sort order the portal offers. */
  async function answers(e: SearchEngine): Promise<unknown[]> {
    const acc: unknown[] = [];
    for (const q of ['*', 'harbour', 'crane OR ferry']) {
      for (const sort of [
        undefined,
        { field: 'filename', dir: 'asc' as const },
        { field: 'rating', dir: 'desc' as const },
        { field: 'rating', dir: 'asc' as const },
        { field: 'imp_date', dir: 'desc' as const },
      ]) {
        for (const groups of [['public'], ['staff']]) {
          acc.push(await e.search(groups, { q, rows: 100, facetFields: facets, sort }));
        }
      }
    }
    return acc;
  }
  const logged = (text: string) => logs.filter((l) => l.includes(text)).length;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = await openDatabase(database.config);
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-snapshot-'));
    file = path.join(dir, SNAPSHOT_FILE);
    await buildAssets(
      db,
      Array.from({ length: 40 }, (_, i) => ({
        filename: `harbour-${String(i % 7)}-${i}.jpg`,
        rating: i % 3 === 0 ? undefined : i % 5,
        values: { title: { en: `Harbour ${i % 2 === 0 ? 'crane' : 'ferry'} ${i}` }, category: `C${i % 4}` },
        access: i % 6 === 0 ? ['staff'] : ['public'],
      })),
    );
  });

  afterAll(async () => {
    await db.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a snapshot from an older generation is caught up and answers the same as a fresh rebuild', async () => {
    const writer = engine();
    await writer.refresh();
    await writer.saveSnapshot();
    const found = (await writer.search(['public'], { q: '*', rows: 100 })).ids;
    const ids = (i: number) => must(found[i], `result ${i}`);
    // The catalogue moves on after the snapshot: edits, a new asset, a removal, a group change.
    await editAsset(db, ids(0), { rating: 4, values: { category: 'Moved', title: { en: 'Harbour crane moved' } } });
    await editAsset(db, ids(1), { access: ['staff'] });
    await buildAssets(db, [{ filename: 'aaa-ferry.jpg', rating: 1, values: { title: { en: 'Ferry new' } } }]);
    await new CatalogueRepository(db.kysely).markGone([ids(2)]);

    const reads = logged('read in');
    const writes = logged('written in');
    const started = engine();
    await started.refresh();
    expect(logged('read in')).toBe(reads + 1);
    const fresh = reference();
    expect(await answers(started)).toEqual(await answers(fresh));
    // The snapshot just read is not written again at once for the changes caught up after it
    // (a whole index folded and written on the first edit after a start).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logged('written in')).toBe(writes);
    // The caught-up index keeps its sort orders right as assets change.
    await editAsset(db, ids(3), { rating: 0, filename: 'zzz.jpg' });
    expect(await answers(started)).toEqual(await answers(fresh));
  });

  it('a damaged, truncated or foreign snapshot is not used: the index is loaded from the catalogue', async () => {
    const writer = engine();
    await writer.refresh();
    await writer.saveSnapshot();
    const good = readFileSync(file);
    const fresh = reference();
    const expected = await answers(fresh);
    const flipped = Buffer.from(good);
    flipped.writeUInt8(flipped.readUInt8(flipped.length - 3) ^ 0xff, flipped.length - 3);
    const foreign = Buffer.from(
      good.toString('latin1').replace(/"instance":"[^"]*"/, `"instance":"${'0'.repeat(36)}"`),
      'latin1',
    );
    for (const [bytes, why] of [
      [flipped, 'checksum'],
      [good.subarray(0, good.length - 100), 'truncated'],
      [Buffer.from('not a snapshot at all'), 'not a snapshot'],
      [foreign, 'another catalogue'],
    ] as const) {
      writeFileSync(file, bytes);
      const before = logged(why);
      const started = engine();
      expect(await answers(started)).toEqual(expected);
      expect(logged(why)).toBe(before + 1);
      // The rebuilt index writes a good snapshot again.
      await started.saveSnapshot();
      const again = engine();
      const reads = logged('read in');
      await again.refresh();
      expect(logged('read in')).toBe(reads + 1);
    }
  });

  it('the purge prunes changes every live reader holds and keeps those a reader still needs', async () => {
    const repository = new SearchRepository(db);
    const live = engine();
    await live.refresh();
    await live.saveSnapshot();
    // A process that stays behind holds back the changes after its generation.
    const behind = reference();
    await behind.refresh();
    const [later] = await buildAssets(db, [{ values: { title: { en: 'Harbour later' } } }]);
    await live.refresh();
    const state = await repository.catalogueState();
    const changes = async () =>
      (await repository.changesAfter({ seq: -1, first: 0 }, state.generation, 100_000)).map((r) => r.seq);
    await repository.pruneChanges(Date.now() - CHANGE_READER_TTL_MS);
    expect(await changes()).toContain(state.generation);
    // The process that stayed behind still catches up by the log.
    expect((await behind.search(['public'], { q: 'later', rows: 10 })).ids).toEqual([later]);

    // Readers not seen for a day no longer count: everything the text index holds goes.
    await repository.pruneChanges(Date.now() + 2 * CHANGE_READER_TTL_MS);
    expect(await changes()).toEqual([]);
    expect((await repository.catalogueState()).prunedThrough).toBe(state.generation);
    // A purge with nothing more to prune removes nothing.
    expect(await repository.pruneChanges(Date.now() + 2 * CHANGE_READER_TTL_MS)).toBe(0);
  });

  it('a process that stops leaves the change log: it no longer holds changes back from the purge', async () => {
    const readers = async () =>
      (await db.kysely.selectFrom('catalogue_reader').select('reader').execute()).map((r) => r.reader).sort();
    const before = await readers();
    const stopping = reference();
    await stopping.refresh();
    const added = (await readers()).filter((r) => !before.includes(r));
    expect(added).toHaveLength(1);
    await stopping.leave();
    expect(await readers()).toEqual(before);
  });

  it('an index or snapshot older than the pruned changes is rebuilt and answers like a fresh one', async () => {
    const repository = new SearchRepository(db);
    const old = engine();
    await old.refresh();
    await old.saveSnapshot();
    const [ferry] = await buildAssets(db, [{ values: { title: { en: 'Ferry after the prune' } } }]);
    // Another process catches up (the shared text index with it), then every reader is forgotten:
    // the changes after the snapshot and after `old` are pruned.
    await reference().refresh();
    // Forget every reader: the changes after the snapshot and after `old` are pruned.
    await repository.pruneChanges(Date.now() + 2 * CHANGE_READER_TTL_MS);
    const reads = logged('read in');
    const pruned = logged('were pruned');
    const started = engine();
    expect((await started.search(['public'], { q: 'prune', rows: 10 })).ids).toEqual([ferry]);
    expect(logged('read in')).toBe(reads);
    expect(logged('were pruned')).toBe(pruned + 1);
    expect((await old.search(['public'], { q: 'prune', rows: 10 })).ids).toEqual([ferry]);
    expect(await answers(old)).toEqual(await answers(reference()));
  });
});
