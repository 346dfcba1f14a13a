import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { buildAssets, editAsset } from '../../test/factories.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { CatalogueRepository } from './catalogue.repository.ts';
import { newAssetWrite } from './new-asset.ts';

/** The one asset-write path: the import, bench data and test factories all write through saveAssets. */
describe.each(dialects)('catalogue writes on %s', (dialect) => {
  let test: TestDatabase;
  let db: Db;
  let repo: CatalogueRepository;

  beforeEach(async () => {
    test = await createTestDatabase(dialect);
    db = await openDatabase(test.config);
    repo = new CatalogueRepository(db.kysely);
  });
  afterEach(async () => {
    await db.close();
    await test.drop();
  });

  const generation = async () =>
    Number((await db.kysely.selectFrom('catalogue_state').select('generation').executeTakeFirstOrThrow()).generation);
  const rows = async (id: number) => ({
    values: await db.kysely
      .selectFrom('asset_value')
      .select(['field', 'lang', 'ord', 'value'])
      .where('asset_id', '=', id)
      .orderBy('field')
      .orderBy('lang')
      .orderBy('ord')
      .execute(),
    access: (await db.kysely.selectFrom('asset_access').select('group_name').where('asset_id', '=', id).execute()).map(
      (r) => r.group_name,
    ),
    jobs: (await db.kysely.selectFrom('job').select('key').where('key', 'like', `%:${id}:%`).execute()).map(
      (r) => r.key.split(':')[0],
    ),
  });

  it('writes a batch in one transaction: rows, values in order, tile image, jobs, one generation bump', async () => {
    const collection = await repo.ensureCollection('/c', 'C', null);
    const before = await generation();
    const ids = await buildAssets(db, [
      { filename: 'a.jpg', values: { keywords: { en: ['b', 'a'] }, creator: 'X' }, collections: [collection] },
      { filename: 'v.mp4', asset_group: 'video', access: ['users', 'users'], collections: [collection] },
    ]);
    expect(await generation()).toBe(before + 1);
    expect(await rows(ids[0])).toEqual({
      values: [
        { field: 'creator', lang: '', ord: 0, value: 'X' },
        { field: 'keywords', lang: 'en', ord: 0, value: 'b' },
        { field: 'keywords', lang: 'en', ord: 1, value: 'a' },
      ],
      access: ['public'],
      jobs: ['derivatives'],
    });
    expect((await rows(ids[1])).access).toEqual(['users']);
    expect((await rows(ids[1])).jobs.sort()).toEqual(['derivatives', 'web-video']);
    const tile = await db.kysely.selectFrom('collection').select('thumbnail_asset_id').executeTakeFirstOrThrow();
    expect(Number(tile.thumbnail_asset_id)).toBe(ids[0]);
  });

  it('replaces the asset with the same source path, keeping its id and import date, dropping its derivatives', async () => {
    const [id] = await buildAssets(db, [{ source_path: '/m/a.jpg', imp_date: 1000, values: { title: 'Old' } }]);
    await db.kysely
      .insertInto('derivative')
      .values({
        asset_id: id,
        kind: 'thumb',
        page: 0,
        sha256: 'x',
        path: 'x',
        mime: 'image/webp',
        width: 1,
        height: 1,
        bytes: 1,
        placeholder: null,
        created_at: 1,
      })
      .execute();
    const [again] = await repo.saveAssets([
      newAssetWrite({ source_path: '/m/a.jpg', values: { title: 'New' }, access: ['staff'] }),
    ]);
    expect(again).toEqual({ id, created: false });
    const asset = await db.kysely.selectFrom('asset').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(asset.imp_date)).toBe(1000);
    expect(await rows(id)).toMatchObject({ values: [{ field: 'title', value: 'New' }], access: ['staff'] });
    expect(await db.kysely.selectFrom('derivative').selectAll().execute()).toEqual([]);
  });

  it('edits as the factories do: named fields, groups and columns change, the rest stays', async () => {
    const [id] = await buildAssets(db, [{ rating: 2, values: { title: 'T', creator: 'C' }, access: ['public'] }]);
    await editAsset(db, id, { rating: 4, values: { title: 'U' }, status: 'gone' });
    const asset = await db.kysely.selectFrom('asset').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(asset).toMatchObject({ rating: 4, status: 'gone' });
    expect((await rows(id)).values.map((v) => `${v.field}=${v.value}`)).toEqual(['creator=C', 'title=U']);
    expect((await rows(id)).access).toEqual(['public']);
  });

  it('queues no derivative jobs for metadata-only bench data', async () => {
    const now = Date.now();
    await repo.saveAssets(
      Array.from({ length: 3 }, (_, i) => newAssetWrite({ filename: `b${i}.jpg` }, now)),
      { now, queueDerivatives: false },
    );
    expect(await db.kysely.selectFrom('job').selectAll().execute()).toEqual([]);
    expect(await repo.countAssets()).toBe(3);
  });

  it("adds download counts in one count-only change, and in the caller's transaction writes nothing when it fails", async () => {
    const [a, b, c] = await buildAssets(db, [{ filename: 'a.jpg' }, { filename: 'b.jpg' }, { filename: 'c.jpg' }]);
    const counts = async () =>
      (await db.kysely.selectFrom('asset').select(['id', 'obj_dload_cnt']).orderBy('id').execute()).map((r) =>
        Number(r.obj_dload_cnt),
      );
    const add = (entries: [number, number][], fail = false) =>
      db.kysely.transaction().execute(async (trx) => {
        await repo.addDownloadCounts(new Map(entries), trx);
        if (fail) throw new Error('the downloads could not be marked counted');
      });
    const before = await generation();
    await add([
      [a, 2],
      [b, 1],
      [c, 2],
    ]);
    await add([[b, 5]]);
    expect(await counts()).toEqual([2, 6, 2]);
    expect(await generation()).toBe(before + 2);
    const changes = await db.kysely
      .selectFrom('catalogue_change')
      .select(['first_id', 'last_id', 'count_only'])
      .where('seq', '=', before + 1)
      .execute();
    expect(changes.map((r) => [Number(r.first_id), Number(r.last_id), Number(r.count_only)])).toEqual([[a, c, 1]]);

    await expect(add([[a, 1]], true)).rejects.toThrow('could not be marked counted');
    expect(await counts()).toEqual([2, 6, 2]);
    expect(await generation()).toBe(before + 2);
  });
  it("keeps the edited fields of a replaced asset and takes the file's values of the others (decision 0250)", async () => {
    const collection = await repo.ensureCollection('/edited', 'Edited', null);
    const [id] = await buildAssets(db, [
      { filename: 'e.jpg', values: { title: { en: 'From the file' }, creator: 'Old creator' }, created: 1000 },
    ]);
    // An editor changed the title (every language of it), the date, the groups and the collections.
    await editAsset(db, id, {
      values: { title: { en: 'Edited', de: 'Bearbeitet' } },
      created: 2000,
      access: ['editors'],
      collections: [collection],
    });
    const now = Date.now();
    await db.kysely
      .insertInto('asset_edit')
      .values(
        ['title', 'created', 'access_groups', 'collections'].map((field) => ({
          asset_id: id,
          field,
          imported: '{}',
          edited_by: 'edna',
          edited_at: now,
        })),
      )
      .execute();
    await db.kysely.updateTable('asset').set({ status: 'bin' }).where('id', '=', id).execute();

    await editAsset(db, id, {
      values: { title: { en: 'New file title' }, creator: 'New creator' },
      created: 3000,
      access: ['public'],
      collections: [],
    });
    const asset = await db.kysely
      .selectFrom('asset')
      .select(['status', 'created'])
      .where('id', '=', id)
      .executeTakeFirst();
    expect({ ...asset, created: Number(asset?.created) }).toEqual({ status: 'bin', created: 2000 });
    const written = await rows(id);
    expect(written.values).toEqual([
      { field: 'creator', lang: '', ord: 0, value: 'New creator' },
      { field: 'title', lang: 'de', ord: 0, value: 'Bearbeitet' },
      { field: 'title', lang: 'en', ord: 0, value: 'Edited' },
    ]);
    expect(written.access).toEqual(['editors']);
    const members = await db.kysely
      .selectFrom('asset_collection')
      .select('collection_id')
      .where('asset_id', '=', id)
      .execute();
    expect(members.map((m) => Number(m.collection_id))).toEqual([collection]);
    const imported = await db.kysely
      .selectFrom('asset_edit')
      .select(['field', 'imported'])
      .where('asset_id', '=', id)
      .orderBy('field')
      .execute();
    expect(Object.fromEntries(imported.map((r) => [r.field, JSON.parse(r.imported) as unknown]))).toEqual({
      access_groups: { '': ['public'] },
      collections: {},
      created: { '': [new Date(3000).toISOString()] },
      title: { en: ['New file title'] },
    });
  });
});
