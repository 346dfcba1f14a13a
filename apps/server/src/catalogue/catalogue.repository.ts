import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { WrittenChange } from '@vitrine/search-engine';
import type { AssetTable, Database } from '../db/schema.ts';
import type { WriteThread } from '../db/write-thread.ts';
import type { CaptionTrack } from './caption-file.ts';
import { DERIVATIVE_JOBS, derivativeJobsFor } from '../derivatives/derivative.jobs.ts';
import type { ConversionSet } from '../settings.ts';
import { JobRepository } from '../jobs/job.repository.ts';
import {
  beginCatalogueChange,
  changeCatalogue,
  keepWrittenChange,
  keepsWrittenChanges,
  recordCatalogueChange,
  type CatalogueWriteFeed,
  type WrittenRows,
} from '../db/catalogue-state.ts';
import { isPostgres } from '../db/dialect.ts';
import { BULK_BATCH } from '../db/serve-lock.ts';
import { keepEdits } from './kept-edits.ts';
import { chunks, deleteAssetRows, giveTiles, insertAll, nextTurn, writtenRows } from './rows.ts';

/**
 * The single-valued part of an asset. `status` (default active), `imp_date` (default: the time of
 * the first write) and `updated_at` (default: the time of this write) are left out by the import and
 * given by bench data and tests.
 */
export type AssetColumns = Omit<Insertable<AssetTable>, 'id' | 'imp_date' | 'updated_at'> & {
  imp_date?: number;
  updated_at?: number;
};

/** What a change of existing assets wrote of them: the values of these fields (asset_value), nothing else. */
export type ChangedValues = Pick<WrittenChange, 'fields' | 'values'>;

/** The search index that takes this process's changes as written (CatalogueRepository.onCommitted). */
export interface WrittenChangeIndex {
  /** Applies a change this process committed from the values it wrote. */
  applyWritten(change: WrittenChange): Promise<unknown>;
  /** Whether a change of these fields can be taken as written at all (else other processes read it anyway). */
  takesAsWritten(fields: readonly string[]): boolean;
}

export interface AssetWrite {
  columns: AssetColumns;
  /** asset_value rows; `ord` is given by the order within a field and language. */
  values: { field: string; lang: string; value: string }[];
  collectionIds: number[];
  accessGroups: string[];
  /** Caption tracks of a video, numbered 1, 2, … in this order; none when left out. */
  captions?: CaptionTrack[];
}

export interface SaveOptions {
  now?: number;
  /**
   * Queue the derivative jobs of each asset (default). Bench data says no: its synthetic assets
   * have no files to make pictures of.
   */
  queueDerivatives?: boolean;
  /**
   * Write the assets' texts into the full-text index in this transaction (default, when the
   * repository has a feed). Bench data on PostgreSQL says no after its first write: a second
   * connection indexes the texts meanwhile, on the database's other core.
   */
  feedText?: boolean;
  /**
   * Writes more rows of the saved assets in the same transaction (bench data: synthetic visual
   * signatures), so readers of the change see them with the assets.
   */
  alongside?: (trx: Transaction<Database>, saved: readonly SavedAsset[]) => Promise<void>;
}

/**
 * A full asset row, every column named in one fixed order: rows of one statement must name the same
 * columns (SQLite has no DEFAULT in a VALUES list), and objects of one shape keep bulk writes fast.
 */
function assetRow(c: AssetColumns, now: number): Insertable<AssetTable> {
  return {
    source_path: c.source_path,
    filename: c.filename,
    sha256: c.sha256,
    file_size: c.file_size,
    mime: c.mime,
    format: c.format,
    asset_group: c.asset_group,
    status: c.status ?? 'active',
    created: c.created ?? null,
    imp_date: c.imp_date ?? now,
    updated_at: c.updated_at ?? now,
    pixel_x: c.pixel_x ?? null,
    pixel_y: c.pixel_y ?? null,
    bbox_x: c.bbox_x ?? null,
    bbox_y: c.bbox_y ?? null,
    color_code: c.color_code ?? 0,
    rating: c.rating ?? null,
    duration: c.duration ?? null,
    page_count: c.page_count ?? null,
    gps_lat: c.gps_lat ?? null,
    gps_lon: c.gps_lon ?? null,
    obj_dload_cnt: c.obj_dload_cnt ?? 0,
    metadata: c.metadata ?? '{}',
    fingerprint: c.fingerprint ?? null,
    import_root: c.import_root ?? null,
    plays_in_browser: c.plays_in_browser ?? 0,
  };
}

const captionColumns = ['asset_id', 'track', 'lang', 'format', 'filename', 'sha256', 'content'];
const captionRows = (assetId: number, captions: readonly CaptionTrack[]) =>
  captions.map((c, i) => ({ asset_id: assetId, track: i + 1, ...c }));

export interface SavedAsset {
  id: number;
  /** False when an asset with the same source path was replaced. */
  created: boolean;
}

export interface KnownAsset {
  id: number;
  source_path: string;
  status: string;
  fingerprint: string | null;
  import_root: string | null;
}

/** Rows of the catalogue the import writes: assets with their values, collections and access. */
export class CatalogueRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** Told of every asset write in its transaction (the full-text index, search/text-feed.ts). */
    private readonly feed?: CatalogueWriteFeed,
    /** The conversion sets: those marked `eager` are made by a job queued with an asset's derivatives. */
    private readonly conversionSets: readonly ConversionSet[] = [],
  ) {}

  /**
   * Where `changeAssets` writes: a transaction of the event loop's connection, or of the write
   * thread's (`writeInThread`, a server process on SQLite).
   */
  private changeTransaction = <T>(write: (trx: Transaction<Database>) => Promise<T>): Promise<T> =>
    this.db.transaction().execute(write);

  /**
   * `changeAssets` (edits, the bin, undo) writes through `thread` from now on: SQLite's time in a
   * bulk edit no longer holds the event loop (db/write-thread.ts).
   */
  writeInThread(thread: Pick<WriteThread, 'transaction'>): void {
    this.changeTransaction = (write) => thread.transaction(write);
  }

  /** Told of each change `changeAssets` committed with its values (onCommitted). */
  private index: WrittenChangeIndex | undefined;

  /** Assets whose source lies under `prefix` (a folder path ending in the path separator). */
  async assetsUnder(prefix: string): Promise<KnownAsset[]> {
    return this.db
      .selectFrom('asset')
      .select(['id', 'source_path', 'status', 'fingerprint', 'import_root'])
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

  /**
   * The one way assets are written (import, bench data, test factories): inserts each asset, or
   * replaces the one with the same source path, with everything that hangs on it (values, access
   * groups, collection memberships, the collection's tile asset when it has none), drops the
   * derivatives of a replaced one, queues derivative jobs and records the change under the next
   * catalogue generation so every search index catches up, all in one transaction: a failure leaves the old state. Answers
   * the ids in the order of `writes`.
   */
  async saveAssets(fileWrites: readonly AssetWrite[], options: SaveOptions = {}): Promise<SavedAsset[]> {
    const now = options.now ?? Date.now();
    if (fileWrites.length === 0) return [];
    return this.db.transaction().execute(async (trx) => {
      let writes = fileWrites;
      const feed = (options.feedText ?? true) ? this.feed : undefined;
      await feed?.begin(trx);
      const seq = await beginCatalogueChange(trx);
      const known = new Map<string, number>();
      const binned = new Set<number>();
      for (const paths of chunks(
        writes.map((w) => w.columns.source_path),
        1,
      )) {
        const rows = await trx
          .selectFrom('asset')
          .select(['id', 'source_path', 'status'])
          .where('source_path', 'in', paths)
          .execute();
        for (const r of rows) {
          known.set(r.source_path, Number(r.id));
          if (r.status === 'bin') binned.add(Number(r.id));
        }
      }
      writes = await keepEdits(trx, writes, known, binned);
      const saved: SavedAsset[] = [];
      const fresh: number[] = [];
      for (const [i, w] of writes.entries()) {
        const id = known.get(w.columns.source_path);
        if (id === undefined) {
          fresh.push(i);
          continue;
        }
        saved[i] = { id, created: false };
        await trx
          .updateTable('asset')
          .set({ status: 'active', ...w.columns, updated_at: w.columns.updated_at ?? now })
          .where('id', '=', id)
          .execute();
      }
      const replaced = saved.filter((s) => s !== undefined).map((s) => s.id);
      for (const ids of chunks(replaced, 1)) {
        for (const table of [
          'asset_value',
          'asset_collection',
          'asset_access',
          'derivative',
          'asset_caption',
        ] as const) {
          await trx.deleteFrom(table).where('asset_id', 'in', ids).execute();
        }
      }
      const rows = fresh.map((i) => assetRow(writes[i]!.columns, now));
      const inserted = await insertAll<{ id: number; source_path: string }>(
        trx,
        'asset',
        rows.length > 0 ? Object.keys(rows[0]!) : [],
        rows,
        ['id', 'source_path'],
      );
      const made = new Map(inserted.map((r) => [r.source_path, Number(r.id)]));
      for (const i of fresh) saved[i] = { id: made.get(writes[i]!.columns.source_path)!, created: true };
      // Every write has its entry in `saved` now, replaced or fresh.

      const captions = writes.flatMap((w, i) => captionRows(saved[i]!.id, w.captions ?? []));
      await insertAll(trx, 'asset_caption', captionColumns, captions);
      const values: WrittenRows['values'] = [];
      const access: { asset_id: number; group_name: string }[] = [];
      const members: { asset_id: number; collection_id: number }[] = [];
      const tiles = new Map<number, number>();
      for (const [i, w] of writes.entries()) {
        const id = saved[i]!.id;
        const ord = new Map<string, number>();
        for (const v of w.values) {
          const k = `${v.field}\n${v.lang}`;
          const n = ord.get(k) ?? 0;
          ord.set(k, n + 1);
          values.push({ asset_id: id, field: v.field, lang: v.lang, ord: n, value: v.value });
        }
        for (const g of new Set(w.accessGroups)) access.push({ asset_id: id, group_name: g });
        for (const c of new Set(w.collectionIds)) {
          members.push({ asset_id: id, collection_id: c });
          if (!tiles.has(c)) tiles.set(c, id);
        }
      }
      await insertAll(trx, 'asset_value', ['asset_id', 'field', 'lang', 'ord', 'value'], values);
      await insertAll(trx, 'asset_access', ['asset_id', 'group_name'], access);
      await insertAll(trx, 'asset_collection', ['asset_id', 'collection_id'], members);
      await giveTiles(trx, tiles);
      if (options.queueDerivatives ?? true) {
        const jobs = new JobRepository(trx);
        for (const [i, w] of writes.entries()) {
          const asset = { id: saved[i]!.id, sha256: w.columns.sha256, asset_group: w.columns.asset_group };
          for (const job of derivativeJobsFor(asset, this.conversionSets)) await jobs.enqueue(job, now);
        }
      }
      await options.alongside?.(trx, saved);
      const ids = saved.map((s) => s.id);
      await recordCatalogueChange(trx, seq, ids);
      if (feed) {
        const assets = writes.map((w, i) => ({
          id: saved[i]!.id,
          status: w.columns.status ?? 'active',
          filename: w.columns.filename,
        }));
        await feed.written(trx, seq, ids, replaced.length === 0, () => ({ assets, values }));
      }
      return saved;
    });
  }

  /**
   * A change of existing assets made by `write` in one transaction (edits, the bin, removal): the
   * change is recorded under the next catalogue generation and the full-text index is told, as
   * `saveAssets` does, so search, facets and suggestions follow on every process. `write` runs after
   * the change's lock is taken (so it reads what no other writer changes meanwhile) and answers the
   * ids it changed with its result; when it changed none, nothing is written.
   */
  async changeAssets<T>(
    write: (trx: Transaction<Database>) => Promise<{
      ids: readonly number[];
      result: T;
      written?: ChangedValues;
      /** The changed assets' rows of `textFields()` after the change, when the writer read them (nothing is read back). */
      texts?: WrittenRows;
    }>,
  ): Promise<T> {
    let unchanged: { result: T } | undefined;
    let committed: WrittenChange | undefined;
    try {
      const result = await this.changeTransaction(async (trx) => {
        await this.feed?.begin(trx);
        const seq = await beginCatalogueChange(trx);
        const { ids, result, written, texts } = await write(trx);
        if (ids.length === 0) {
          unchanged = { result };
          throw new NothingChanged();
        }
        // The assets' rows are left as `write` left them (decision 0276): the change is known by its sequence.
        await recordCatalogueChange(trx, seq, ids);
        const documents = await this.feed?.written(
          trx,
          seq,
          ids,
          false,
          (fields) => texts ?? writtenRows(trx, ids, fields),
        );
        if (written) {
          committed = { seq, ids, ...written, documents };
          // Other server processes take it as written too, where they can.
          if (keepsWrittenChanges(this.db) && this.index?.takesAsWritten(written.fields))
            await keepWrittenChange(trx, committed);
        }
        return result;
      });
      if (committed) await this.index?.applyWritten(committed);
      return result;
    } catch (err) {
      if (err instanceof NothingChanged && unchanged) return unchanged.result;
      throw err;
    }
  }

  /** The value fields whose rows after a change the full-text index reads (`changeAssets`'s `texts`). */
  textFields(): readonly string[] {
    return this.feed?.textFields?.() ?? [];
  }

  /**
   * Hands each change `changeAssets` commits with the values it wrote to this process's search
   * index, which then need not read them again; asks it which changes to keep for other processes.
   */
  onCommitted(index: WrittenChangeIndex): void {
    this.index = index;
  }

  /**
   * Deletes assets for good with every row that hangs on them (as `clear` does per asset) and their
   * queued derivative jobs, in the caller's transaction (`changeAssets`).
   */
  async removeAssets(trx: Transaction<Database>, ids: readonly number[]): Promise<void> {
    for (const some of chunks(ids, 1)) {
      const assets = await trx
        .selectFrom('asset')
        .select(['id', 'sha256', 'asset_group'])
        .where('id', 'in', some)
        .execute();
      const jobKeys = assets.flatMap((a) =>
        derivativeJobsFor({ ...a, id: Number(a.id) }, this.conversionSets).map((j) => j.key),
      );
      for (const keys of chunks(jobKeys, 1)) await trx.deleteFrom('job').where('key', 'in', keys).execute();
      await deleteAssetRows(trx, some);
      await trx
        .updateTable('collection')
        .set({ thumbnail_asset_id: null })
        .where('thumbnail_asset_id', 'in', some)
        .execute();
      await trx.deleteFrom('asset').where('id', 'in', some).execute();
    }
  }

  /**
   * Adds delivered downloads to the assets' `obj_dload_cnt` (which search sorts by): one catalogue
   * change for the whole batch, marked count-only, so every search index picks the counts up and the
   * full-text index, whose texts did not change, skips it; `updated_at` stays (a download is no
   * edit). `counts` maps asset ids to downloads; assets of the same count are written in one
   * statement. In the caller's transaction, so the downloads are marked counted with it or not at all.
   */
  async addDownloadCounts(counts: ReadonlyMap<number, number>, trx: Transaction<Database>): Promise<void> {
    if (counts.size === 0) return;
    await changeCatalogue(trx, [...counts.keys()], true);
    const byCount = new Map<number, number[]>();
    for (const [id, n] of counts) {
      const ids = byCount.get(n);
      if (ids) ids.push(id);
      else byCount.set(n, [id]);
    }
    for (const [n, ids] of byCount) {
      for (const part of chunks(ids, 1)) {
        await trx
          .updateTable('asset')
          .set((eb) => ({ obj_dload_cnt: eb('obj_dload_cnt', '+', n) }))
          .where('id', 'in', part)
          .execute();
      }
    }
  }

  /**
   * The caption tracks of an asset the import did not write again (its file and metadata are
   * unchanged): replaced when the caption files changed, so the video is not made again.
   */
  async saveCaptions(assetId: number, captions: readonly CaptionTrack[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const stored = await trx
        .selectFrom('asset_caption')
        .select(['lang', 'format', 'filename', 'sha256'])
        .where('asset_id', '=', assetId)
        .orderBy('track')
        .execute();
      const key = (c: Pick<CaptionTrack, 'lang' | 'format' | 'filename' | 'sha256'>) =>
        `${c.lang}\n${c.format}\n${c.filename}\n${c.sha256}`;
      if (stored.map(key).join('\n\n') === captions.map(key).join('\n\n')) return;
      await trx.deleteFrom('asset_caption').where('asset_id', '=', assetId).execute();
      await insertAll(trx, 'asset_caption', captionColumns, captionRows(assetId, captions));
    });
  }

  /** One asset: `saveAssets` for the import, which writes each file in its own transaction. */
  async saveAsset(write: AssetWrite, now = Date.now()): Promise<SavedAsset> {
    const [saved] = await this.saveAssets([write], { now });
    // One write, one answer.
    return saved!;
  }

  /** An asset as it was written, to be changed and written again (tests edit assets so). */
  async assetWrite(id: number): Promise<AssetWrite | undefined> {
    const row = await this.db.selectFrom('asset').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const { id: _id, ...columns } = row;
    const [values, access, members, captions] = await Promise.all([
      this.db
        .selectFrom('asset_value')
        .select(['field', 'lang', 'value'])
        .where('asset_id', '=', id)
        .orderBy('field')
        .orderBy('lang')
        .orderBy('ord')
        .execute(),
      this.db.selectFrom('asset_access').select('group_name').where('asset_id', '=', id).execute(),
      this.db.selectFrom('asset_collection').select('collection_id').where('asset_id', '=', id).execute(),
      this.db
        .selectFrom('asset_caption')
        .select(['lang', 'format', 'filename', 'sha256', 'content'])
        .where('asset_id', '=', id)
        .orderBy('track')
        .execute(),
    ]);
    return {
      columns,
      values,
      accessGroups: access.map((a) => a.group_name),
      collectionIds: members.map((m) => Number(m.collection_id)),
      captions,
    };
  }

  /**
   * Marks assets whose files are gone; they stay in the database but leave the portal. `batch` assets
   * per transaction (db/serve-lock.ts writeBatchSize), each transaction one catalogue change: a
   * failure midway leaves whole batches marked and the rest active, and the next import, which finds
   * the rest still active and their files still missing, marks them.
   */
  async markGone(ids: readonly number[], options: { batch?: number; now?: number } = {}): Promise<void> {
    const now = options.now ?? Date.now();
    const batch = Math.max(1, options.batch ?? BULK_BATCH);
    // In id order: each batch's change is a few runs of consecutive ids.
    const sorted = [...new Set(ids)].sort((a, b) => a - b);
    for (let from = 0; from < sorted.length; from += batch) {
      if (from > 0) await nextTurn();
      const part = sorted.slice(from, from + batch);
      await this.db.transaction().execute(async (trx) => {
        await changeCatalogue(trx, part);
        for (const some of chunks(part, 1)) {
          await trx.updateTable('asset').set({ status: 'gone', updated_at: now }).where('id', 'in', some).execute();
        }
      });
    }
  }

  /**
   * Refreshes the planner's statistics after a bulk write, so lookups by id use the indexes. On
   * PostgreSQL the new rows are vacuumed too (their visibility recorded once, as its manual advises
   * after a bulk load), instead of by the first reads of each row and by autovacuum while a server
   * starts to answer.
   */
  async analyze(): Promise<void> {
    await (isPostgres(this.db) ? sql`vacuum (analyze)` : sql`analyze`).execute(this.db);
  }

  /**
   * Removes every asset, collection, derivative and derivative job (for rebuilding the demo), in
   * transactions of `batch` rows (db/serve-lock.ts writeBatchSize). First the assets, newest first,
   * each batch whole (values, access, collection memberships, captions, derivatives and derivative
   * jobs go with their asset) and as one catalogue change; then derivative jobs left by older versions
   * of files; then the collections; last a change of every asset, so that search indexes read the
   * emptied catalogue afresh. A failure midway leaves a smaller catalogue of whole assets, and
   * running it again removes the rest.
   */
  async clear(batch = BULK_BATCH): Promise<void> {
    const size = Math.max(1, batch);
    for (;;) {
      const assets = await this.db
        .selectFrom('asset')
        .select(['id', 'sha256', 'asset_group'])
        .orderBy('id', 'desc')
        .limit(size)
        .execute();
      if (assets.length === 0) break;
      const ids = assets.map((a) => Number(a.id));
      const jobKeys = assets.flatMap((a) =>
        derivativeJobsFor({ ...a, id: Number(a.id) }, this.conversionSets).map((j) => j.key),
      );
      await this.db.transaction().execute(async (trx) => {
        await changeCatalogue(trx, ids);
        for (const keys of chunks(jobKeys, 1)) await trx.deleteFrom('job').where('key', 'in', keys).execute();
        for (const some of chunks(ids, 1)) {
          await deleteAssetRows(trx, some);
          await trx.deleteFrom('asset').where('id', 'in', some).execute();
        }
      });
      await nextTurn();
    }
    const jobs = () => this.db.selectFrom('job').select('id').where('name', 'in', DERIVATIVE_JOBS).limit(size);
    while (Number((await this.db.deleteFrom('job').where('id', 'in', jobs()).executeTakeFirst()).numDeletedRows) > 0)
      await nextTurn();
    const collections = () => this.db.selectFrom('collection').select('id').orderBy('id', 'desc').limit(size);
    while (
      Number(
        (await this.db.deleteFrom('collection').where('id', 'in', collections()).executeTakeFirst()).numDeletedRows,
      ) > 0
    )
      await nextTurn();
    await this.db.transaction().execute((trx) => changeCatalogue(trx, 'all'));
  }
}

/** Ends the transaction of a change that changed nothing (rolled back, answered as it is). */
class NothingChanged extends Error {}
