import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { CatalogueRepository } from '../catalogue/catalogue.repository.ts';
import { newAssetWrite, type NewAsset } from '../catalogue/new-asset.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { createSearchEngine, createTextFeed } from './create-engine.ts';
import { SearchRepository } from './search.repository.ts';

/** Assets with several languages, non-ASCII text, repeated fields and one not live. */
const assets: NewAsset[] = [
  {
    source_path: '/feed/1.jpg',
    filename: 'Hafen_Morgen.jpg',
    values: { title: { en: 'Harbour at dawn', de: 'Hafen im Morgengrauen' }, keywords: ['sea', 'Straße'] },
  },
  {
    source_path: '/feed/2.jpg',
    filename: 'zebra.jpg',
    values: { title: 'Zèbre', category: 'Ánimals', creator: 'Ines' },
  },
  { source_path: '/feed/3.jpg', filename: 'gone.jpg', status: 'gone', values: { title: 'Withdrawn' } },
];

/**
 * The full-text index's rows, as text. SQLite's keeps no texts (content=''): each document's
 * tokens in order are read from the index itself (fts5vocab's instances).
 */
async function textRows(db: Db): Promise<unknown[]> {
  if (db.dialect === 'postgres') {
    const query = sql`select asset_id as id, title::text as title, body::text as body from search_document order by asset_id`;
    return (await query.execute(db.kysely)).rows;
  }
  await sql`create virtual table if not exists temp.search_fts_instances using fts5vocab(main, search_fts, 'instance')`.execute(
    db.kysely,
  );
  const { rows } = await sql<{ doc: number; col: 'title' | 'body'; term: string }>`
    select doc, col, term from temp.search_fts_instances order by doc, col, "offset"`.execute(db.kysely);
  const docs = new Map<number, { id: number; title: string[]; body: string[] }>();
  for (const r of rows) {
    const doc = docs.get(r.doc) ?? { id: r.doc, title: [], body: [] };
    doc[r.col].push(r.term);
    docs.set(r.doc, doc);
  }
  return [...docs.values()].map((d) => ({ id: d.id, title: d.title.join(' '), body: d.body.join(' ') }));
}

describe.each(dialects)(
  'search §full text: asset writes feed the full-text index in their transaction on %s',
  (dialect) => {
    let fed: { database: TestDatabase; db: Db };
    let caught: { database: TestDatabase; db: Db };

    beforeAll(async () => {
      const open = async () => {
        const database = await createTestDatabase(dialect);
        return { database, db: await openDatabase(database.config) };
      };
      fed = await open();
      caught = await open();
    });

    afterAll(async () => {
      for (const side of [fed, caught]) {
        await side.db.close();
        await side.database.drop();
      }
    });

    /** The same writes into both catalogues: with the feed, and without (the search engine catches up). */
    async function writeBoth(list: NewAsset[]): Promise<void> {
      const now = 1_700_000_000_000;
      await new CatalogueRepository(fed.db.kysely, createTextFeed(fed.db, [])).saveAssets(
        list.map((a) => newAssetWrite(a, now)),
        { now },
      );
      await new CatalogueRepository(caught.db.kysely).saveAssets(
        list.map((a) => newAssetWrite(a, now)),
        { now },
      );
      await createSearchEngine(caught.db, []).refresh();
    }

    it('leaves the same index as catching up, with nothing left to catch up', async () => {
      await writeBoth(assets);
      const repository = new SearchRepository(fed.db);
      expect((await repository.textState()).watermark).toBe(await repository.generation());
      const rows = await textRows(fed.db);
      expect(rows).toHaveLength(2);
      expect(rows).toEqual(await textRows(caught.db));
    });

    it('replaces the text of an asset written again, and leaves a change it missed to the catch-up', async () => {
      await writeBoth([{ source_path: '/feed/2.jpg', filename: 'zebra.jpg', values: { title: 'Quagga' } }]);
      expect(await textRows(fed.db)).toEqual(await textRows(caught.db));

      // A change that does not feed the index (marking an asset gone): the next write finds the index
      // behind and leaves its own change to the catch-up too, which then brings both up to date.
      await new CatalogueRepository(fed.db.kysely).markGone([1]);
      await new CatalogueRepository(caught.db.kysely).markGone([1]);
      await writeBoth([{ source_path: '/feed/4.jpg', filename: 'four.jpg', values: { title: 'Lighthouse' } }]);
      const repository = new SearchRepository(fed.db);
      expect((await repository.textState()).watermark).toBeLessThan(await repository.generation());
      await createSearchEngine(fed.db, []).refresh();
      const rows = await textRows(fed.db);
      expect(rows).toEqual(await textRows(caught.db));
      expect(JSON.stringify(rows)).toContain('lighthouse');
      expect(JSON.stringify(rows)).not.toContain('harbour');
    });
  },
);
