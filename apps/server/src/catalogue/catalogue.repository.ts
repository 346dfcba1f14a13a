import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { AssetTable, Database } from '../db/schema.ts';
import { DERIVATIVES_JOB, derivativeJobsFor, WEB_VIDEO_JOB } from '../derivatives/derivative.jobs.ts';
import { JobRepository } from '../jobs/job.repository.ts';

/** The single-valued part of an asset as the import writes it. */
export type AssetColumns = Omit<Insertable<AssetTable>, 'id' | 'status' | 'imp_date' | 'updated_at' | 'obj_dload_cnt'>;

export interface AssetWrite {
  columns: AssetColumns;
  /** asset_value rows; `ord` is given by the order within a field and language. */
  values: { field: string; lang: string; value: string }[];
  collectionIds: number[];
  accessGroups: string[];
}

export interface KnownAsset {
  id: number;
  source_path: string;
  status: string;
  fingerprint: string | null;
}

/** Rows of the catalogue the import writes: assets with their values, collections and access. */
export class CatalogueRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Assets whose source lies under `prefix` (a folder path ending in the path separator). */
  async assetsUnder(prefix: string): Promise<KnownAsset[]> {
    return this.db
      .selectFrom('asset')
      .select(['id', 'source_path', 'status', 'fingerprint'])
      .where('source_path', '>=', prefix)
      .where('source_path', '<', `${prefix}\uffff`)
      .execute();
  }

  async countAssets(): Promise<number> {
    const r = await this.db
      .selectFrom('asset')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** The collection with this path, made (with `parentId`) when missing. */
  async ensureCollection(path: string, name: string, parentId: number | null, now = Date.now()): Promise<number> {
    await this.db
      .insertInto('collection')
      .values({ path, name, parent_id: parentId, created_at: now })
      .onConflict((oc) => oc.column('path').doNothing())
      .execute();
    const row = await this.db.selectFrom('collection').select('id').where('path', '=', path).executeTakeFirstOrThrow();
    return Number(row.id);
  }

  private async bumpGeneration(trx: Transaction<Database>): Promise<void> {
    await trx
      .updateTable('catalogue_state')
      .set({ generation: sql`generation + 1` })
      .where('id', '=', 1)
      .execute();
  }

  /**
   * Inserts or replaces one asset with everything that hangs on it, queues its derivative jobs and
   * bumps the catalogue generation, all in one transaction: a failure leaves the old state.
   */
  async saveAsset(write: AssetWrite, now = Date.now()): Promise<{ id: number; created: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('asset')
        .select('id')
        .where('source_path', '=', write.columns.source_path)
        .executeTakeFirst();
      let id: number;
      if (existing) {
        id = Number(existing.id);
        await trx
          .updateTable('asset')
          .set({ ...write.columns, status: 'active', updated_at: now })
          .where('id', '=', id)
          .execute();
        for (const table of ['asset_value', 'asset_collection', 'asset_access'] as const) {
          await trx.deleteFrom(table).where('asset_id', '=', id).execute();
        }
        await trx.deleteFrom('derivative').where('asset_id', '=', id).execute();
      } else {
        const row = await trx
          .insertInto('asset')
          .values({ ...write.columns, imp_date: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = Number(row.id);
      }
      const ord = new Map<string, number>();
      const values = write.values.map((v) => {
        const k = `${v.field}\n${v.lang}`;
        const n = ord.get(k) ?? 0;
        ord.set(k, n + 1);
        return { asset_id: id, field: v.field, lang: v.lang, ord: n, value: v.value };
      });
      if (values.length) await trx.insertInto('asset_value').values(values).execute();
      const collections = [...new Set(write.collectionIds)];
      if (collections.length) {
        await trx
          .insertInto('asset_collection')
          .values(collections.map((c) => ({ asset_id: id, collection_id: c })))
          .execute();
        await trx
          .updateTable('collection')
          .set({ thumbnail_asset_id: id })
          .where('id', 'in', collections)
          .where('thumbnail_asset_id', 'is', null)
          .execute();
      }
      const groups = [...new Set(write.accessGroups)];
      if (groups.length) {
        await trx
          .insertInto('asset_access')
          .values(groups.map((g) => ({ asset_id: id, group_name: g })))
          .execute();
      }
      const jobs = new JobRepository(trx);
      for (const job of derivativeJobsFor({
        id,
        sha256: write.columns.sha256,
        asset_group: write.columns.asset_group,
      })) {
        await jobs.enqueue(job, now);
      }
      await this.bumpGeneration(trx);
      return { id, created: !existing };
    });
  }

  /** Marks assets whose files are gone; they stay in the database but leave the portal. */
  async markGone(ids: number[], now = Date.now()): Promise<void> {
    if (ids.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < ids.length; i += 500) {
        await trx
          .updateTable('asset')
          .set({ status: 'gone', updated_at: now })
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
      }
      await this.bumpGeneration(trx);
    });
  }

  /** Removes every asset, collection, derivative and derivative job (for rebuilding the demo). */
  async clear(): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const t of ['derivative', 'asset_value', 'asset_collection', 'asset_access'] as const) {
        await trx.deleteFrom(t).execute();
      }
      await trx.deleteFrom('job').where('name', 'in', [DERIVATIVES_JOB, WEB_VIDEO_JOB]).execute();
      await trx.updateTable('collection').set({ parent_id: null }).execute();
      await trx.deleteFrom('asset').execute();
      await trx.deleteFrom('collection').execute();
      await this.bumpGeneration(trx);
    });
  }
}
