import { sql, type Insertable, type Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { AssetTable, Database } from '../db/schema.ts';

/** Columns of a new asset; what is left out gets a plain default. */
export type NewAssetColumns = Partial<Omit<Insertable<AssetTable>, 'id'>>;

/** A value of a field: one, a list, or per content language one or a list. */
export type FieldValue = string | number | (string | number)[] | Record<string, string | (string | number)[]>;

export interface NewAsset extends NewAssetColumns {
  values?: Record<string, FieldValue>;
  /** Groups that may see the asset (default: public). */
  access?: string[];
  collections?: number[];
}

let sequence = 0;

function assetRow(a: NewAsset, now: number): Insertable<AssetTable> {
  const n = ++sequence;
  const filename = a.filename ?? `asset-${now}-${n}.jpg`;
  return {
    source_path: a.source_path ?? `/catalogue/${now}/${n}/${filename}`,
    filename,
    sha256: a.sha256 ?? n.toString(16).padStart(64, '0'),
    file_size: a.file_size ?? 1000,
    mime: a.mime ?? 'image/jpeg',
    format: a.format ?? 'jpg',
    asset_group: a.asset_group ?? 'image',
    status: a.status ?? 'active',
    created: a.created ?? null,
    imp_date: a.imp_date ?? now,
    updated_at: a.updated_at ?? now,
    pixel_x: a.pixel_x ?? null,
    pixel_y: a.pixel_y ?? null,
    bbox_x: a.bbox_x ?? null,
    bbox_y: a.bbox_y ?? null,
    color_code: a.color_code ?? 0,
    rating: a.rating ?? null,
    duration: a.duration ?? null,
    page_count: a.page_count ?? null,
    gps_lat: a.gps_lat ?? null,
    gps_lon: a.gps_lon ?? null,
    obj_dload_cnt: a.obj_dload_cnt ?? 0,
    metadata: a.metadata ?? '{}',
  };
}

function valueRows(assetId: number, values: Record<string, FieldValue>) {
  const rows: { asset_id: number; field: string; lang: string; ord: number; value: string }[] = [];
  const add = (field: string, lang: string, list: (string | number)[]) =>
    list.forEach((v, ord) => rows.push({ asset_id: assetId, field, lang, ord, value: String(v) }));
  for (const [field, value] of Object.entries(values)) {
    if (typeof value === 'string' || typeof value === 'number') add(field, '', [value]);
    else if (Array.isArray(value)) add(field, '', value);
    else for (const [lang, v] of Object.entries(value)) add(field, lang, Array.isArray(v) ? v : [v]);
  }
  return rows;
}

/** Both databases limit the parameters of one statement (SQLite 32766, PostgreSQL 65535). */
async function chunked<T>(rows: T[], columns: number, write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  const size = Math.floor(30_000 / columns);
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}

/**
 * Writes assets as an import would: catalogue rows, values, access groups and collection
 * memberships, and a bump of catalogue_state.generation in the same transaction so every search
 * index sees the change. Answers the new ids in order. Used by test factories and bench data.
 */
export async function insertAssets(db: Db, assets: readonly NewAsset[], now = Date.now()): Promise<number[]> {
  return db.kysely.transaction().execute(async (trx) => {
    const ids: number[] = [];
    const rows = assets.map((a) => assetRow(a, now));
    await chunked(rows, 24, async (chunk) => {
      const inserted = await trx.insertInto('asset').values(chunk).returning('id').execute();
      ids.push(...inserted.map((r) => Number(r.id)));
    });
    const values = assets.flatMap((a, i) => valueRows(ids[i], a.values ?? {}));
    const access = assets.flatMap((a, i) => (a.access ?? ['public']).map((g) => ({ asset_id: ids[i], group_name: g })));
    const members = assets.flatMap((a, i) =>
      (a.collections ?? []).map((c) => ({ asset_id: ids[i], collection_id: c })),
    );
    await chunked(values, 5, (c) => trx.insertInto('asset_value').values(c).execute());
    await chunked(access, 2, (c) => trx.insertInto('asset_access').values(c).execute());
    await chunked(members, 2, (c) => trx.insertInto('asset_collection').values(c).execute());
    await bumpGeneration(trx);
    return ids;
  });
}

export async function bumpGeneration(trx: Transaction<Database> | Db['kysely']): Promise<void> {
  await sql`update catalogue_state set generation = generation + 1 where id = 1`.execute(trx);
}

/** Changes an asset as an import or edit would: new columns and values, updated_at, generation. */
export async function updateAsset(db: Db, id: number, change: NewAsset, now = Date.now()): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const { values, access, collections, ...columns } = change;
    await trx
      .updateTable('asset')
      .set({ ...columns, updated_at: now })
      .where('id', '=', id)
      .execute();
    if (values) {
      await trx
        .deleteFrom('asset_value')
        .where('asset_id', '=', id)
        .where('field', 'in', Object.keys(values))
        .execute();
      await chunked(valueRows(id, values), 5, (c) => trx.insertInto('asset_value').values(c).execute());
    }
    if (access) {
      await trx.deleteFrom('asset_access').where('asset_id', '=', id).execute();
      await trx
        .insertInto('asset_access')
        .values(access.map((g) => ({ asset_id: id, group_name: g })))
        .execute();
    }
    if (collections) {
      await trx.deleteFrom('asset_collection').where('asset_id', '=', id).execute();
      if (collections.length > 0) {
        await trx
          .insertInto('asset_collection')
          .values(collections.map((c) => ({ asset_id: id, collection_id: c })))
          .execute();
      }
    }
    await bumpGeneration(trx);
  });
}

export async function insertCollection(db: Db, name: string, now = Date.now()): Promise<number> {
  const row = await db.kysely
    .insertInto('collection')
    .values({ name, path: `/${name}-${++sequence}`, parent_id: null, thumbnail_asset_id: null, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Refreshes the planner's statistics after a bulk load, so lookups by id use the indexes. */
export async function analyze(db: Db): Promise<void> {
  await sql`analyze`.execute(db.kysely);
}
