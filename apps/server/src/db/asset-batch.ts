import type { Kysely } from 'kysely';
import { pause, type AssetBatch as EngineBatch } from '@vitrine/search-engine';
import type { Db } from './database.ts';
import type { AssetTable, Database } from './schema.ts';

export type AssetRow = Omit<
  AssetTable,
  'id' | 'status' | 'color_code' | 'obj_dload_cnt' | 'metadata' | 'fingerprint' | 'import_root' | 'plays_in_browser'
> & {
  id: number;
  status: string;
  color_code: number;
  obj_dload_cnt: number;
};

/** Everything the search engine reads about a batch of assets, with every asset column. */
export type AssetBatch = EngineBatch<AssetRow>;

const assetColumns = [
  'id',
  'source_path',
  'filename',
  'sha256',
  'file_size',
  'mime',
  'format',
  'asset_group',
  'status',
  'created',
  'imp_date',
  'updated_at',
  'pixel_x',
  'pixel_y',
  'bbox_x',
  'bbox_y',
  'color_code',
  'rating',
  'duration',
  'page_count',
  'gps_lat',
  'gps_lon',
  'obj_dload_cnt',
] as const;

/**
 * Assets by id with every value, their access groups (unless `withAccess` is false) and
 * collections, as the catalogue holds them: what the search engine reads of a changed asset, and
 * what an edit reads before it changes assets (so it knows what it leaves behind, `WrittenBatches`).
 */
export async function readAssetBatch(
  k: Kysely<Database>,
  dialect: Db['dialect'],
  ids: readonly number[],
  withAccess = true,
): Promise<AssetBatch> {
  if (ids.length === 0) return { assets: [], values: [], access: [], collections: [] };
  const list = [...ids];
  const lo = Math.min(...list);
  const hi = Math.max(...list);
  // A contiguous id range reads faster (and with fewer parameters) than a long IN list.
  const contiguous = hi - lo + 1 === list.length;
  const assets = await k
    .selectFrom('asset')
    .select(assetColumns)
    .$if(contiguous, (q) => q.where('id', '>=', lo).where('id', '<=', hi))
    .$if(!contiguous, (q) => q.where('id', 'in', list))
    .orderBy('id')
    .execute();
  // Fields are never picked in SQL: a field condition lures SQLite onto the (field, value) index
  // instead of the primary key's asset_id range, which is many times slower.
  const readValues = () =>
    k
      .selectFrom('asset_value')
      .select(['asset_id', 'field', 'lang', 'ord', 'value'])
      .$if(contiguous, (q) => q.where('asset_id', '>=', lo).where('asset_id', '<=', hi))
      .$if(!contiguous, (q) => q.where('asset_id', 'in', list))
      .orderBy('asset_id')
      .orderBy('field')
      .orderBy('lang')
      .orderBy('ord')
      .execute();
  const readAccess = async () =>
    withAccess
      ? k
          .selectFrom('asset_access')
          .select(['asset_id', 'group_name'])
          .$if(contiguous, (q) => q.where('asset_id', '>=', lo).where('asset_id', '<=', hi))
          .$if(!contiguous, (q) => q.where('asset_id', 'in', list))
          .execute()
      : ([] as { asset_id: number; group_name: string }[]);
  const readCollections = () =>
    k
      .selectFrom('asset_collection')
      .select(['asset_id', 'collection_id'])
      .$if(contiguous, (q) => q.where('asset_id', '>=', lo).where('asset_id', '<=', hi))
      .$if(!contiguous, (q) => q.where('asset_id', 'in', list))
      .orderBy('collection_id')
      .execute();
  // PostgreSQL answers the three side by side; SQLite answers each synchronously, so they come one
  // a turn of the event loop (together they held it 40–90 ms for 250 assets of a changed catalogue).
  const [values, access, collections] =
    dialect === 'sqlite'
      ? [await pause().then(readValues), await pause().then(readAccess), await pause().then(readCollections)]
      : await Promise.all([readValues(), readAccess(), readCollections()]);
  const num = <T extends { asset_id: number }>(r: T): T => ({ ...r, asset_id: Number(r.asset_id) });
  return {
    assets: assets.map((a) => ({ ...a, id: Number(a.id) })),
    values: values.map(num),
    access: access.map(num),
    collections: collections.map((c) => ({ asset_id: Number(c.asset_id), collection_id: Number(c.collection_id) })),
  };
}

/** A batch with only the values of `fields` ('all': every one). */
export function pickFields(batch: AssetBatch, fields: readonly string[] | 'all'): AssetBatch {
  if (fields === 'all') return batch;
  const wanted = new Set(fields);
  return { ...batch, values: batch.values.filter((v) => wanted.has(v.field)) };
}

/** Edits of at most this many assets are held for the index (`WrittenBatches`); larger ones are read again. */
const HELD_ASSETS = 20_000;

/**
 * The assets a change of this process wrote, as the catalogue holds them after its commit, so the
 * search index of the same process catches up without reading them again (an edit of 5,000 assets:
 * twice 20 reads of all their values). They stand for the catalogue only while the generation is
 * still the change's own: a later change may have touched them (`SearchRepository.batch` checks).
 * One change is held, the newest.
 */
export class WrittenBatches {
  private held: { seq: number; assets: Map<number, AssetBatch> } | undefined;

  /** Holds the assets change `seq` left behind (after its commit). */
  hold(seq: number, batch: AssetBatch): void {
    if (batch.assets.length > HELD_ASSETS) {
      this.held = undefined;
      return;
    }
    const assets = new Map<number, AssetBatch>();
    for (const a of batch.assets) assets.set(a.id, { assets: [a], values: [], access: [], collections: [] });
    for (const v of batch.values) assets.get(v.asset_id)?.values.push(v);
    for (const g of batch.access) assets.get(g.asset_id)?.access.push(g);
    for (const c of batch.collections) assets.get(c.asset_id)?.collections.push(c);
    this.held = { seq, assets };
  }

  /** The change held, when it holds every asset of `ids` (in id order, as the catalogue reads them). */
  covering(ids: readonly number[]): { seq: number; batch: (withAccess: boolean) => AssetBatch } | undefined {
    const held = this.held;
    if (!held || ids.length === 0 || !ids.every((id) => held.assets.has(id))) return undefined;
    return {
      seq: held.seq,
      batch: (withAccess) => {
        const out: AssetBatch = { assets: [], values: [], access: [], collections: [] };
        for (const id of [...ids].sort((a, b) => a - b)) {
          const one = held.assets.get(id)!;
          out.assets.push(...one.assets);
          out.values.push(...one.values);
          if (withAccess) out.access.push(...one.access);
          out.collections.push(...one.collections);
        }
        // The catalogue's read orders collections by collection id across the assets.
        out.collections.sort((a, b) => a.collection_id - b.collection_id);
        return out;
      },
    };
  }

  /** Lets the held change go (the generation moved on). */
  drop(seq: number): void {
    if (this.held?.seq === seq) this.held = undefined;
  }
}
