import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { buildAssets, buildCollection } from '../../test/factories.ts';
import { CatalogueRepository } from '../catalogue/catalogue.repository.ts';
import { ACCESS_GROUPS, COLLECTIONS, CREATED, listValues, STATUS } from '../catalogue/edit-overlay.ts';
import { readAssetBatch, WrittenBatches, type AssetBatch } from '../db/asset-batch.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { SearchRepository } from '../search/search.repository.ts';
import { applyChange } from './edit.service.ts';
import { EditRepository, type AssetFields, type BatchPlan } from './edit.repository.ts';

const account = { id: null, name: 'editor' };

/** A batch in one order whatever the database's collation: what the index makes of it does not depend on it. */
function sorted(batch: AssetBatch): AssetBatch {
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    assets: [...batch.assets].sort((a, b) => a.id - b.id),
    values: [...batch.values].sort(
      (a, b) => a.asset_id - b.asset_id || text(a.field, b.field) || text(a.lang, b.lang) || a.ord - b.ord,
    ),
    access: [...batch.access].sort((a, b) => a.asset_id - b.asset_id || text(a.group_name, b.group_name)),
    collections: [...batch.collections].sort((a, b) => a.asset_id - b.asset_id || a.collection_id - b.collection_id),
  };
}

describe.each(dialects)('what an edit leaves behind, held for the search index, on %s (issue #49)', (dialect) => {
  let test: TestDatabase;
  let db: Db;
  let edits: EditRepository;
  let written: WrittenBatches;
  let ids: number[];
  let collection: number;

  beforeAll(async () => {
    test = await createTestDatabase(dialect);
    db = await openDatabase(test.config);
    written = new WrittenBatches();
    edits = new EditRepository(db, new CatalogueRepository(db.kysely), written);
    collection = await buildCollection(db, 'Harbour');
    ids = await buildAssets(db, [
      {
        values: { title: { en: 'Harbour', de: 'Hafen' }, keywords: ['boat', 'sea'], creator: 'Anna' },
        access: ['users', 'public'],
        collections: [collection],
      },
      { values: { title: { en: 'Dune' }, keywords: { en: ['sand'], de: ['Sand', 'Düne'] } }, access: ['users'] },
      { values: { description: 'No keywords yet' }, access: ['public'] },
    ]);
  });
  afterAll(async () => {
    await db.close();
    await test.drop();
  });

  /** Applies one change to every asset, then compares what was held with a read of the catalogue. */
  async function heldMatchesCatalogue(fields: string[], next: (f: AssetFields) => AssetFields): Promise<void> {
    const plan: BatchPlan = { kind: 'edit', account, ids, fields, overlay: 'edit', next: (a) => next(a.fields) };
    const { changed } = await edits.apply(plan);
    expect(changed).toBeGreaterThan(0);
    const generation = await new SearchRepository(db).generation();
    const held = written.covering(ids.slice(0, changed));
    expect(held?.seq).toBe(generation);
    const read = await readAssetBatch(db.kysely, db.dialect, ids.slice(0, changed));
    expect(sorted(held!.batch(true))).toEqual(sorted(read));
  }

  const change =
    (field: string, op: 'set' | 'add' | 'remove' | 'replace', values: string[], lang = '', find?: string) =>
    (f: AssetFields): AssetFields =>
      new Map([[field, applyChange(f.get(field) ?? {}, { field, op, values, lang, ...(find ? { find } : {}) })]]);

  it('a keyword added (rows appended after those kept)', async () => {
    await heldMatchesCatalogue(['keywords'], change('keywords', 'add', ['harbour2026']));
  });

  it('a keyword removed, a localised title set, a text replaced (rows written anew)', async () => {
    await heldMatchesCatalogue(['keywords'], change('keywords', 'remove', ['sea', 'sand']));
    await heldMatchesCatalogue(['title'], change('title', 'set', ['Neu'], 'de'));
    await heldMatchesCatalogue(['title'], change('title', 'replace', ['Port'], 'en', 'Harbour'));
  });

  it('the date, the groups, the collections and the bin', async () => {
    await heldMatchesCatalogue([CREATED], () => new Map([[CREATED, listValues(['2024-05-01T10:00:00.000Z'])]]));
    await heldMatchesCatalogue([ACCESS_GROUPS], () => new Map([[ACCESS_GROUPS, listValues(['editors', 'users'])]]));
    await heldMatchesCatalogue([COLLECTIONS], () => new Map([[COLLECTIONS, {}]]));
    await heldMatchesCatalogue([COLLECTIONS], () => new Map([[COLLECTIONS, listValues([collection])]]));
    await heldMatchesCatalogue([STATUS], () => new Map([[STATUS, listValues(['bin'])]]));
  });

  it('the search repository answers from it while the change is the newest, and from the catalogue after', async () => {
    await heldMatchesCatalogue(['keywords'], change('keywords', 'add', ['first']));
    const search = new SearchRepository(db, undefined, undefined, written);
    const held = await search.batch(ids, ['keywords']);
    expect(held.values.filter((v) => v.value === 'first')).toHaveLength(3);
    // Another process's change of the same assets: the generation moves on, the catalogue is read.
    await new EditRepository(db, new CatalogueRepository(db.kysely)).apply({
      kind: 'edit',
      account,
      ids,
      fields: ['keywords'],
      overlay: 'edit',
      next: (a) =>
        new Map([
          [
            'keywords',
            applyChange(a.fields.get('keywords') ?? {}, { field: 'keywords', op: 'add', values: ['second'], lang: '' }),
          ],
        ]),
    });
    const read = await search.batch(ids, ['keywords']);
    expect(read.values.filter((v) => v.value === 'second')).toHaveLength(3);
    expect(written.covering(ids)).toBeUndefined();
  });
});
