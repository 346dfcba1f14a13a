import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  documentWords,
  FieldRegistry,
  SearchEngine,
  TSVECTOR_TEXT_CHARS,
  type TextIndex,
} from '@vitrine/search-engine';
import { buildAssets, editAsset } from '../../test/factories.ts';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { openDatabase, type Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { indexRule } from '../access/rule.ts';
import { SearchRepository } from './search.repository.ts';
import { SQLITE_FREQUENT_FROM, SqliteTextIndex } from './sqlite-text.repository.ts';

describe('ARCHITECTURE §3 "Search": the SQLite text index of a large catalogue, and its frequent words in memory', () => {
  let test: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    test = await createTestDatabase('sqlite');
    db = await openDatabase(test.config);
  });
  afterAll(async () => {
    await db.close();
    await test.drop();
  });

  it('names the frequent words exactly, and none below two million documents', async () => {
    const text = new SqliteTextIndex(db, 0);
    // 6,000 documents: 'common' in every second one, 'usual' in every fifth, 'scarce' in every 60th.
    const docs = Array.from({ length: 6000 }, (_, i) => ({
      id: i + 1,
      title: 'x',
      body: ['x', i % 2 === 0 ? 'common' : '', i % 5 === 0 ? 'usual' : '', i % 60 === 0 ? 'scarce' : ''].join(' '),
    }));
    await db.kysely.transaction().execute((trx) => text.write(docs, [], trx, true));
    expect((await text.frequentWords(1200, docs.length)).sort()).toEqual(['common', 'usual', 'x']);
    expect((await text.frequentWords(1500, docs.length)).sort()).toEqual(['common', 'x']);
    // The index answers a word of a small catalogue quickly enough to be asked each time.
    expect(await new SqliteTextIndex(db).frequentWords(1200, SQLITE_FREQUENT_FROM - 1)).toEqual([]);
    await db.kysely.transaction().execute((trx) => text.clear(trx));
  });

  it('holds the words of a huge document up to the bound both databases keep, and its title whole', async () => {
    const text = new SqliteTextIndex(db);
    const title = 'lighthouse keeper';
    const body = `${title} ${'tide '.repeat(TSVECTOR_TEXT_CHARS / 5)}beyond`;
    const doc = { id: 7, title, body };
    await db.kysely.transaction().execute((trx) => text.write([doc], [], trx, true));
    const find = async (word: string, scope: 'all' | 'title' = 'all') =>
      Array.from(await text.match({ kind: 'text', tokens: [word], prefix: false, scope }));
    expect(await find('tide')).toEqual([7]);
    expect(await find('keeper', 'title')).toEqual([7]);
    expect(await find('keeper')).toEqual([7]);
    // Past the bound: not searchable, and the engine's word lists (frequent postings) agree.
    expect(await find('beyond')).toEqual([]);
    expect(documentWords(doc).all.has('beyond')).toBe(false);
    expect(documentWords(doc).all.has('keeper')).toBe(true);
    await db.kysely.transaction().execute((trx) => text.clear(trx));
  });

  it('answers a frequent word from memory, also after its assets change, as the text index does', async () => {
    const ids = await buildAssets(
      db,
      Array.from({ length: 12 }, (_, i) => ({
        values: { title: { en: i % 3 === 0 ? `Harbour crane ${i}` : `Ferry ${i}` }, category: 'Sea' },
        access: ['public'],
      })),
    );
    const asked: string[] = [];
    const inner = new SqliteTextIndex(db, 0);
    const text: TextIndex<Kysely<Database>> = {
      write: (docs, removed, executor, fresh) => inner.write(docs, removed, executor, fresh),
      clear: (executor) => inner.clear(executor),
      frequentWords: (minDocs, documents) => inner.frequentWords(minDocs, documents),
      match: (atom) => {
        asked.push(`${atom.scope} ${atom.tokens.join(' ')}`);
        return inner.match(atom);
      },
    };
    const fields = new FieldRegistry([]);
    const engine = new SearchEngine({ catalogue: new SearchRepository(db), text, rule: indexRule }, fields, {
      frequentMinDocs: 4,
    });
    // The reference asks the text index every time.
    const reference = new SearchEngine(
      { catalogue: new SearchRepository(db), text: new SqliteTextIndex(db), rule: indexRule },
      fields,
    );
    const found = async (e: SearchEngine, q: string) => (await e.search(['public'], { q, rows: 100 })).ids;
    await engine.refresh();
    // 'harbour' and 'crane' are in 4 of 12 documents, 'ferry' in 8: all kept (at least 4 documents).
    asked.length = 0;
    expect(await found(engine, 'ferry')).toEqual(await found(reference, 'ferry'));
    expect(await found(engine, 'harbour')).toHaveLength(4);
    expect(asked).toEqual([]);

    const first = ids[0];
    const second = ids[1];
    if (first === undefined || second === undefined) throw new Error('no assets built');
    await editAsset(db, first, { values: { title: { en: 'Ferry landing' } } });
    await editAsset(db, second, { values: { title: { en: 'Harbour crane at dusk' } } });
    for (const q of ['harbour', 'ferry', 'crane', 'harbour ferry', 'crane OR ferry']) {
      expect(await found(engine, q)).toEqual(await found(reference, q));
    }
    expect(await found(engine, 'harbour')).toContain(second);
    expect(await found(engine, 'harbour')).not.toContain(first);
    expect(asked).toEqual([]);
    // A word not kept is asked of the text index.
    expect(await found(engine, 'landing')).toEqual([first]);
    expect(asked).toEqual(['all landing', 'title landing']);
  });

  it('reads no texts again to catch up a change when no word is frequent (fewer documents than the bound)', async () => {
    const [id] = await buildAssets(db, [{ values: { title: { en: 'Lighthouse keeper' } }, access: ['public'] }]);
    if (id === undefined) throw new Error('no asset built');
    /** Reads of the changed assets' texts for the facet index (the full-text index reads its own). */
    let textReads = 0;
    class CountingRepository extends SearchRepository {
      override batch(...args: Parameters<SearchRepository['batch']>): ReturnType<SearchRepository['batch']> {
        if (args[2] === false) textReads++;
        return super.batch(...args);
      }
    }
    const engine = new SearchEngine(
      { catalogue: new CountingRepository(db), text: new SqliteTextIndex(db), rule: indexRule },
      new FieldRegistry([]),
    );
    await engine.refresh();
    await editAsset(db, id, { values: { title: { en: 'Lighthouse painter' } } });
    textReads = 0;
    expect((await engine.search(['public'], { q: 'painter' })).ids).toEqual([id]);
    // The facet index keeps no postings, so it needs no words.
    expect(textReads).toBe(0);
  });

  it('reads a changed asset once to catch it up, its texts for the kept words with its values', async () => {
    const built = await buildAssets(
      db,
      ['Lighthouse keeper', 'Lighthouse stairs'].map((t) => ({ values: { title: { en: t } }, access: ['public'] })),
    );
    const id = built[0];
    if (id === undefined) throw new Error('no asset built');
    let reads = 0;
    class CountingRepository extends SearchRepository {
      override batch(...args: Parameters<SearchRepository['batch']>): ReturnType<SearchRepository['batch']> {
        reads++;
        return super.batch(...args);
      }
    }
    const engine = new SearchEngine(
      { catalogue: new CountingRepository(db), text: new SqliteTextIndex(db, 0), rule: indexRule },
      new FieldRegistry([]),
      { frequentMinDocs: 2 },
    );
    await engine.refresh();
    const lighthouse = async () => (await engine.search(['public'], { q: 'lighthouse', rows: 100 })).ids;
    expect(await lighthouse()).toEqual(expect.arrayContaining(built));
    await editAsset(db, id, { values: { title: { en: 'Harbour zanderwood' } } });
    reads = 0;
    // 'lighthouse' is kept in memory: its postings follow the changed text.
    expect(await lighthouse()).not.toContain(id);
    expect((await engine.search(['public'], { q: 'zanderwood' })).ids).toEqual([id]);
    expect(reads).toBe(1);
  });
});
