import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { must } from '@vitrine/contract/must';
import { buildAssets, editAsset } from '../../test/factories.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { CatalogueRepository } from '../catalogue/catalogue.repository.ts';
import { openDatabase, type Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { readFile } from 'node:fs/promises';
import {
  FieldRegistry,
  pause,
  SearchEngine,
  type CatalogueWriting,
  type TextAtom,
  type TextIndex,
} from '@vitrine/search-engine';
import { createSearchEngine } from './create-engine.ts';
import { PostgresTextIndex } from './postgres-text.repository.ts';
import { SearchRepository } from './search.repository.ts';
import { EditRepository } from '../edit/edit.repository.ts';
import { changeCatalogue } from '../db/catalogue-state.ts';
import { applyChange } from '../edit/edit.service.ts';
import { SqliteTextIndex } from './sqlite-text.repository.ts';
import { TextFeed } from './text-feed.ts';
import { indexRule } from '../access/rule.ts';

const HOUR = 3_600_000;

/** A full-text index whose answers can be held back, to change the catalogue while a search waits. */
class HeldTextIndex implements TextIndex<Kysely<Database>> {
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  /** Resolves when a search is waiting at the gate. */
  waiting: Promise<void> = Promise.resolve();
  private arrived: (() => void) | undefined;

  constructor(private readonly inner: TextIndex<Kysely<Database>>) {}

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
    this.waiting = new Promise((resolve) => (this.arrived = resolve));
  }

  release(): void {
    this.open?.();
    this.gate = undefined;
  }

  write: TextIndex<Kysely<Database>>['write'] = (docs, removed, executor) => this.inner.write(docs, removed, executor);
  clear: TextIndex<Kysely<Database>>['clear'] = (executor) => this.inner.clear(executor);

  async match(atom: TextAtom): Promise<Int32Array> {
    if (this.gate) {
      this.arrived?.();
      await this.gate;
    }
    return this.inner.match(atom);
  }
}

describe('catching up in steps', () => {
  it('lets due timers run between two steps, also when a step followed I/O (a database read, a request)', async () => {
    await readFile(import.meta.filename);
    // Now in the continuation of an I/O callback: one setImmediate would run the next step first.
    let fired = false;
    setTimeout(() => (fired = true), 0);
    const due = performance.now() + 3;
    while (performance.now() < due);
    await pause();
    expect(fired).toBe(true);
  });

  it('lets other requests run between the synchronous text matches of one search on SQLite', async () => {
    const test = await createTestDatabase('sqlite');
    const db = await openDatabase(test.config);
    try {
      await buildAssets(db, [{ values: { title: { en: 'Harbour crane' } }, access: ['public'] }]);
      const events: string[] = [];
      const inner = new SqliteTextIndex(db);
      const text: TextIndex<Kysely<Database>> = {
        write: (docs, removed, executor) => inner.write(docs, removed, executor),
        clear: (executor) => inner.clear(executor),
        match: async (atom) => {
          events.push(`match ${atom.scope}`);
          const found = await inner.match(atom);
          if (events.length === 1) {
            // A request arriving while the first match runs.
            setTimeout(() => events.push('timer'), 0);
            const due = performance.now() + 3;
            while (performance.now() < due);
          }
          return found;
        },
      };
      const engine = new SearchEngine(
        { catalogue: new SearchRepository(db), text, rule: indexRule },
        new FieldRegistry([]),
      );
      await engine.refresh();
      expect((await engine.search(['public'], { q: 'harbour' })).numFound).toBe(1);
      expect(events).toEqual(['match all', 'timer', 'match title']);
    } finally {
      await db.close();
      await test.drop();
    }
  });
});

describe('a word answered by SQLite', () => {
  it('lets a due timer run between the answer and the reading of its ids (SQLite answers synchronously)', async () => {
    const test = await createTestDatabase('sqlite');
    const db = await openDatabase(test.config);
    try {
      await buildAssets(db, [{ values: { title: { en: 'Harbour crane' } }, access: ['public'] }]);
      const text = new SqliteTextIndex(db);
      // The catch-up writes the full-text index.
      await new SearchEngine(
        { catalogue: new SearchRepository(db), text, rule: indexRule },
        new FieldRegistry([]),
      ).refresh();
      const events: string[] = [];
      setTimeout(() => events.push('timer'), 0);
      const due = performance.now() + 3;
      while (performance.now() < due);
      const ids = await text.match({
        kind: 'text',
        tokens: ['harbour'],
        prefix: false,
        scope: 'all',
      });
      events.push('ids');
      expect(ids.length).toBe(1);
      expect(events).toEqual(['timer', 'ids']);
    } finally {
      await db.close();
      await test.drop();
    }
  });
});

describe.each(dialects)('ARCHITECTURE §3 "Search": catching up with catalogue changes on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let other: Db;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = await openDatabase(database.config);
    // Another server process: its own connections to the same database.
    other = await openDatabase(database.config);
    await buildAssets(db, [
      { values: { title: { en: 'Harbour at dawn' }, category: 'Sea' }, access: ['public'] },
      { values: { title: { en: 'Harbour crane' }, category: 'Industry' }, access: ['public'] },
    ]);
  });

  afterAll(async () => {
    await other.close();
    await db.close();
    await database.drop();
  });

  const createTextIndex = (db: Db): TextIndex<Kysely<Database>> =>
    db.dialect === 'postgres' ? new PostgresTextIndex(db) : new SqliteTextIndex(db);

  const find = (engine: SearchEngine, q: string) =>
    engine.search(['public'], { q, rows: 100, facetFields: ['category'] });

  /** An editor's change of one field of `ids` through `edits`, as the edit service makes it. */
  const editField = (edits: EditRepository, ids: number[], field: string, change: Parameters<typeof applyChange>[1]) =>
    edits.apply({
      kind: 'edit',
      account: { id: null, name: 'editor' },
      ids,
      fields: [field],
      overlay: 'edit',
      next: (asset) => new Map([[field, applyChange(asset.fields.get(field) ?? {}, change)]]),
    });

  it("an edit of keywords reaches the editing process's index as written, other processes' by the change log", async () => {
    const fields = new FieldRegistry([]);
    const mine = new SearchRepository(db);
    const engine = new SearchEngine({ catalogue: mine, text: createTextIndex(db), rule: indexRule }, fields);
    const elsewhere = new SearchEngine(
      { catalogue: new SearchRepository(other), text: createTextIndex(other), rule: indexRule },
      fields,
    );
    const [deck, oar] = await buildAssets(db, [
      { values: { title: { en: 'Deck chair' }, keywords: { en: ['wood'], de: ['Holz'] } }, access: ['public'] },
      { values: { title: { en: 'Oar' }, keywords: { en: ['wood'] } }, access: ['public'] },
    ]);
    await engine.refresh();
    await elsewhere.refresh();
    const catalogue = new CatalogueRepository(db.kysely);
    const handed: boolean[] = [];
    catalogue.onCommitted({
      applyWritten: async (change) => handed.push(await engine.applyWritten(change)),
      takesAsWritten: (names) => engine.takesAsWritten(names),
    });
    const edits = new EditRepository(db, catalogue);
    const edit = (ids: number[], field: string, change: Parameters<typeof applyChange>[1]) =>
      editField(edits, ids, field, change);
    const read = vi.spyOn(mine, 'batch');
    await edit([deck, oar], 'keywords', { field: 'keywords', op: 'add', lang: 'en', values: ['teak'] });
    await edit([deck], 'keywords', { field: 'keywords', op: 'remove', lang: 'en', values: ['wood'] });
    expect(handed).toEqual([true, true]);
    const teak = await engine.search(['public'], { q: 'keywords:teak', rows: 10, facetFields: ['keywords'] });
    // Taken as written: the edited assets were not read again.
    expect(read).not.toHaveBeenCalled();
    expect([...teak.ids].sort()).toEqual([deck, oar].sort());
    expect(JSON.stringify(teak.facetFields)).toContain('teak');
    expect((await engine.search(['public'], { q: 'keywords:wood', rows: 10 })).ids).toEqual([oar]);
    // The German values the edit left alone are still found.
    expect((await engine.search(['public'], { q: 'keywords:holz', rows: 10 })).ids).toEqual([deck]);
    // Another process reads the changes from the log and answers the same.
    for (const q of ['keywords:teak', 'keywords:wood', 'keywords:holz']) {
      expect((await elsewhere.search(['public'], { q, rows: 10 })).ids).toEqual(
        (await engine.search(['public'], { q, rows: 10 })).ids,
      );
    }
    expect(
      (await elsewhere.search(['public'], { q: 'keywords:teak', rows: 10, facetFields: ['keywords'] })).facetFields,
    ).toEqual(teak.facetFields);

    // A change the index cannot take as written (a text field, a change another process made
    // first) is left to the catch-up, which reads it.
    await edit([oar], 'title', { field: 'title', op: 'set', lang: 'en', values: ['Rowing oar'] });
    await buildAssets(other, [{ values: { title: { en: 'Rowing boat' } }, access: ['public'] }]);
    await edit([oar], 'keywords', { field: 'keywords', op: 'add', lang: 'en', values: ['ash'] });
    expect(handed).toEqual([true, true, false, false]);
    expect((await engine.search(['public'], { q: 'rowing keywords:ash', rows: 10 })).ids).toEqual([oar]);
    expect(read).toHaveBeenCalled();
  });

  it("with frequent words' postings kept in memory, the editing process takes its edit with the texts it wrote", async () => {
    const fields = new FieldRegistry([]);
    const mine = new SearchRepository(db);
    // Frequent words kept from two documents on: the text index counts as dear to ask.
    const text = db.dialect === 'postgres' ? new PostgresTextIndex(db) : new SqliteTextIndex(db, 0);
    const engine = new SearchEngine({ catalogue: mine, text, rule: indexRule }, fields, { frequentMinDocs: 2 });
    const [jetty, pier, slipway, dock] = await buildAssets(db, [
      ...['Jetty', 'Pier', 'Slipway'].map((t) => ({
        values: { title: { en: t }, keywords: { en: ['quayside'] } },
        access: ['public'],
      })),
      { values: { title: { en: 'Dry dock' } }, access: ['public'] },
    ]);
    await engine.refresh();
    const quayside = async () => [...(await engine.search(['public'], { q: 'quayside', rows: 100 })).ids].sort();
    expect(await quayside()).toEqual([jetty, pier, slipway].sort());
    const catalogue = new CatalogueRepository(db.kysely, new TextFeed(db, text, fields));
    const handed: boolean[] = [];
    catalogue.onCommitted({
      applyWritten: async (change) => handed.push(await engine.applyWritten(change)),
      takesAsWritten: (names) => engine.takesAsWritten(names),
    });
    const edits = new EditRepository(db, catalogue);
    const edit = (ids: number[], change: Parameters<typeof applyChange>[1]) =>
      editField(edits, ids, 'keywords', change);
    const read = vi.spyOn(mine, 'batch');
    await edit([must(dock)], { field: 'keywords', op: 'add', lang: 'en', values: ['quayside'] });
    await edit([must(jetty)], { field: 'keywords', op: 'remove', lang: 'en', values: ['quayside'] });
    expect(handed).toEqual([true, true]);
    // The kept postings follow both edits, and nothing was read again for them.
    expect(await quayside()).toEqual([pier, slipway, dock].sort());
    expect(read).not.toHaveBeenCalled();
  });

  it('a change of thousands of scattered assets is recorded whole, a few statements of runs', async () => {
    // Far above every asset: no index holds them, so no other test sees them change.
    const ids = Array.from({ length: 2500 }, (_, i) => 50_000_000 + 2 * i);
    const seq = await db.kysely.transaction().execute((trx) => changeCatalogue(trx, ids));
    const runs = await new SearchRepository(db).changesAfter(
      { seq: seq - 1, first: Number.MAX_SAFE_INTEGER },
      seq,
      10_000,
    );
    expect(runs).toHaveLength(ids.length);
    expect(runs.map((r) => [r.first, r.last])).toEqual(ids.map((id) => [id, id]));
  });

  it('catching up a change counts no assets: only a full load of the text index shows a total', async () => {
    const repository = new SearchRepository(db);
    const engine = new SearchEngine(
      { catalogue: repository, text: createTextIndex(db), rule: indexRule },
      new FieldRegistry([]),
    );
    await engine.refresh();
    const [buoy] = await buildAssets(db, [{ values: { title: { en: 'Mooring buoy' } }, access: ['public'] }]);
    const counted = vi.spyOn(repository, 'countAssets');
    const phases: string[] = [];
    await engine.refresh((phase) => phases.push(phase));
    expect(counted).not.toHaveBeenCalled();
    expect(phases).not.toContain('text index');
    expect((await find(engine, 'buoy')).ids).toEqual([buoy]);
  });

  it('a change that only counts downloads is sorted by at once and not written to the full-text index again', async () => {
    const repository = new SearchRepository(db);
    const inner = createTextIndex(db);
    const written: number[] = [];
    const text: TextIndex<Kysely<Database>> = {
      write: (docs, removed, executor, fresh) => {
        written.push(...docs.map((d) => d.id), ...removed);
        return inner.write(docs, removed, executor, fresh);
      },
      clear: (executor) => inner.clear(executor),
      match: (atom) => inner.match(atom),
    };
    const engine = new SearchEngine({ catalogue: repository, text, rule: indexRule }, new FieldRegistry([]));
    const [anchor, rope] = await buildAssets(db, [
      { values: { title: { en: 'Anchor chain' } }, access: ['public'] },
      { values: { title: { en: 'Anchor rope' } }, access: ['public'] },
    ]);
    await engine.refresh();
    written.length = 0;
    await db.kysely.transaction().execute((trx) =>
      new CatalogueRepository(db.kysely).addDownloadCounts(
        new Map([
          [rope, 3],
          [anchor, 1],
        ]),
        trx,
      ),
    );
    const sorted = await engine.search(['public'], { q: 'anchor', sort: { field: 'obj_dload_cnt', dir: 'desc' } });
    expect(sorted.ids).toEqual([rope, anchor]);
    expect(written).toEqual([]);
    expect((await repository.textState()).watermark).toBe(await repository.generation());
    // A text change after it is written as always.
    await editAsset(db, anchor, { values: { title: { en: 'Anchor winch' } } });
    expect((await find(engine, 'winch')).ids).toEqual([anchor]);
  });

  it('a change committed after a later change is still seen, whatever the clock of its writer says', async () => {
    const engine = createSearchEngine(db, []);
    const [first] = await buildAssets(db, [{ values: { title: { en: 'Lighthouse' } }, access: ['public'] }]);
    expect((await find(engine, 'lighthouse')).ids).toEqual([first]);
    // A process whose clock lags an hour commits after the change above: its time stamp is older.
    const [late] = await buildAssets(
      db,
      [{ values: { title: { en: 'Lighthouse keeper' } }, access: ['public'] }],
      Date.now() - HOUR,
    );
    await editAsset(db, first, { access: ['staff'] }, Date.now() - 2 * HOUR);
    expect((await find(engine, 'lighthouse')).ids).toEqual([late]);
  });

  it('a change made by another process is seen by the next search', async () => {
    const engine = createSearchEngine(db, []);
    expect((await find(engine, 'zeppelin')).numFound).toBe(0);
    const [added] = await buildAssets(other, [
      { values: { title: { en: 'Zeppelin' }, category: 'Air' }, access: ['public'] },
    ]);
    const found = await find(engine, 'zeppelin');
    expect(found.ids).toEqual([added]);
    expect(found.facetFields.category).toEqual([{ value: 'Air', count: 1 }]);
    await new CatalogueRepository(other.kysely).markGone([added]);
    expect((await find(engine, 'zeppelin')).numFound).toBe(0);
  });

  it('transactions waiting on each other are all seen, in the order they commit', async () => {
    const engine = createSearchEngine(db, []);
    await engine.refresh();
    // On SQLite one thread cannot wait for a lock its other connection holds: there, one writer.
    const writer = (i: number): Db => (dialect === 'postgres' && i % 2 === 1 ? other : db);
    const writes = Array.from({ length: 6 }, (_, i) =>
      buildAssets(writer(i), [{ values: { title: { en: `Glider ${i}` } }, access: ['public'] }]),
    );
    const searches = Array.from({ length: 6 }, () => find(engine, 'glider'));
    const ids = (await Promise.all(writes)).flat();
    await Promise.all(searches);
    expect((await find(engine, 'glider')).ids.sort((a, b) => a - b)).toEqual(ids.sort((a, b) => a - b));
  });

  it('an index loaded while assets are written holds the changes another process made meanwhile', async () => {
    const engine = createSearchEngine(db, []);
    const [older] = await buildAssets(db, [{ values: { title: { en: 'Windsock' } }, access: ['public'] }]);
    let ended = false;
    const waiting: (() => void)[] = [];
    const wrote = () => {
      for (const wake of waiting.splice(0)) wake();
    };
    const writing = (): CatalogueWriting => ({
      total: 0,
      ended: () => ended,
      wrote: () => new Promise<void>((resolve) => (ended ? resolve() : waiting.push(resolve))),
      follower: writing,
    });
    const loading = engine.loadWhileWritten(writing());
    const [kite] = await buildAssets(db, [{ values: { title: { en: 'Kite' }, category: 'Air' }, access: ['public'] }]);
    wrote();
    // Another process hides an asset that existed before the writing began, and one just written.
    // On SQLite one thread cannot wait for a lock its other connection holds: there, one writer.
    const editor = dialect === 'postgres' ? other : db;
    await editAsset(editor, older, { access: ['staff'] });
    await editAsset(editor, kite, { access: ['staff'] });
    const [balloon] = await buildAssets(db, [{ values: { title: { en: 'Kite balloon' } }, access: ['public'] }]);
    ended = true;
    wrote();
    await loading;
    expect((await find(engine, 'kite')).ids).toEqual([balloon]);
    expect((await find(engine, 'windsock')).numFound).toBe(0);
    expect(await find(engine, '*')).toEqual(await find(createSearchEngine(db, []), '*'));
  });

  it('an index changed or rebuilt during a search does not mix versions', async () => {
    const text = new HeldTextIndex(createTextIndex(db));
    const engine = new SearchEngine(
      { catalogue: new SearchRepository(db), text, rule: indexRule },
      new FieldRegistry([]),
    );
    const before = await find(engine, 'harbour');
    expect(before.numFound).toBe(2);

    // Changed in place: the held search answers from the version it started on.
    engine.clearTextCache();
    text.hold();
    const held = find(engine, 'harbour');
    await text.waiting;
    const crane = Math.max(...before.ids);
    await editAsset(db, crane, { access: ['staff'] });
    await buildAssets(db, [{ values: { title: { en: 'Harbour ferry' }, category: 'Sea' }, access: ['public'] }]);
    let refreshed = false;
    const refresh = engine.refresh().then(() => (refreshed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(refreshed).toBe(false);
    text.release();
    expect(await held).toEqual(before);
    await refresh;
    const after = await find(engine, 'harbour');
    expect(after.numFound).toBe(2);
    expect(after.ids).not.toContain(crane);

    // Rebuilt (a content language seen for the first time): the held search keeps the old index.
    engine.clearTextCache();
    text.hold();
    const heldAgain = find(engine, 'harbour');
    await text.waiting;
    await buildAssets(db, [
      { values: { title: { fr: 'Harbour du nord', en: 'Harbour north' }, category: 'Nord' }, access: ['public'] },
    ]);
    const rebuild = engine.refresh();
    text.release();
    expect(await heldAgain).toEqual(after);
    await rebuild;
    const rebuilt = await find(engine, 'harbour');
    expect(rebuilt.numFound).toBe(3);
    expect(must(rebuilt.facetFields.category, 'the category facet').map((v) => v.value)).toContain('Nord');
  });

  it('another process takes an edit of keywords as its writer kept it, without reading the assets (PostgreSQL; SQLite has one process)', async () => {
    const fields = new FieldRegistry([]);
    const text = createTextIndex(db);
    // Frequent words' postings kept (PostgreSQL always; SQLite from two documents here): the
    // other process needs the edit's texts too.
    const frequent = { frequentMinDocs: 2 };
    const engine = new SearchEngine({ catalogue: new SearchRepository(db), text, rule: indexRule }, fields, frequent);
    const theirs = new SearchRepository(other);
    const elsewhere = new SearchEngine(
      { catalogue: theirs, text: createTextIndex(other), rule: indexRule },
      fields,
      frequent,
    );
    const [buoy, anchor, chain] = await buildAssets(db, [
      { values: { title: { en: 'Mooring buoy' }, keywords: { en: ['bollardage'] } }, access: ['public'] },
      { values: { title: { en: 'Anchor' }, keywords: { en: ['bollardage'] } }, access: ['public'] },
      { values: { title: { en: 'Anchor chain' }, keywords: { en: ['bollardage'] } }, access: ['public'] },
    ]);
    await engine.refresh();
    await elsewhere.refresh();
    const catalogue = new CatalogueRepository(db.kysely, new TextFeed(db, text, fields));
    catalogue.onCommitted(engine);
    const edits = new EditRepository(db, catalogue);
    const edit = (ids: number[], field: string, change: Parameters<typeof applyChange>[1]) =>
      editField(edits, ids, field, change);
    const same = async (q: string) => {
      const mine = await engine.search(['public'], { q, rows: 10, facetFields: ['keywords'] });
      expect(await elsewhere.search(['public'], { q, rows: 10, facetFields: ['keywords'] })).toEqual(mine);
      return [...mine.ids].sort();
    };
    const kept = async () => {
      const { generation } = await theirs.catalogueState();
      return (await theirs.writtenParts(generation)).length;
    };
    const stored = async () =>
      Number(
        (
          await db.kysely
            .selectFrom('catalogue_change_written')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await stored();
    const read = vi.spyOn(theirs, 'batch');
    await edit([buoy, anchor], 'keywords', { field: 'keywords', op: 'add', lang: 'en', values: ['harbourmaster'] });
    await edit([chain], 'keywords', { field: 'keywords', op: 'remove', lang: 'en', values: ['bollardage'] });
    expect(await kept()).toBe(dialect === 'postgres' ? 1 : 0);
    // Two edits behind: both taken one after the other, the words' postings with them.
    expect(await same('keywords:harbourmaster')).toEqual([buoy, anchor].sort());
    expect(await same('bollardage')).toEqual([buoy, anchor].sort());
    expect(await same('harbourmaster')).toEqual([buoy, anchor].sort());
    expect(read).toHaveBeenCalledTimes(dialect === 'postgres' ? 0 : 1);

    // A change of a text field is not kept (no process takes it as written) but read from the
    // catalogue; the next keyword edit is taken as kept again.
    await edit([chain], 'title', { field: 'title', op: 'set', lang: 'en', values: ['Anchor cable'] });
    expect(await stored()).toBe(before + (dialect === 'postgres' ? 2 : 0));
    expect(await same('cable')).toEqual([chain]);
    read.mockClear();
    await edit([chain], 'keywords', { field: 'keywords', op: 'add', lang: 'en', values: ['harbourmaster'] });
    expect(await same('keywords:harbourmaster')).toEqual([buoy, anchor, chain].sort());
    expect(read).toHaveBeenCalledTimes(dialect === 'postgres' ? 0 : 1);

    // Kept changes (one part each here) go with the change log they belong to.
    expect(await stored()).toBe(before + (dialect === 'postgres' ? 3 : 0));
    await new SearchRepository(db).pruneChanges(Date.now() + 1);
    expect(await stored()).toBe(0);
  });
});
