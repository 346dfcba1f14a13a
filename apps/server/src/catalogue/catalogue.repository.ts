import { CompiledQuery, sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { AssetTable, Database } from '../db/schema.ts';
import type { CaptionTrack } from './caption-file.ts';
import { DERIVATIVE_JOBS, derivativeJobsFor } from '../derivatives/derivative.jobs.ts';
import type { ConversionSet } from '../settings.ts';
import { JobRepository } from '../jobs/job.repository.ts';
import {
  beginCatalogueChange,
  changeCatalogue,
  recordCatalogueChange,
  type CatalogueWriteFeed,
  type WrittenRows,
} from '../db/catalogue-state.ts';
import { isPostgres } from '../db/dialect.ts';
import { BULK_BATCH } from '../db/serve-lock.ts';
import {
  ACCESS_GROUPS,
  canonical,
  COLLECTIONS,
  CREATED,
  createdValues,
  editedFields,
  listValues,
  valuesOfField,
} from './edit-overlay.ts';

/**
 * The single-valued part of an asset. `status` (default active), `imp_date` (default: the time of
 * the first write) and `updated_at` (default: the time of this write) are left out by the import and
 * given by bench data and tests.
 */
export type AssetColumns = Omit<Insertable<AssetTable>, 'id' | 'imp_date' | 'updated_at'> & {
  imp_date?: number;
  updated_at?: number;
};

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

/** Rows per statement: both databases limit the parameters of one (SQLite 32766, PostgreSQL 65535). */
const PARAMETERS = 30_000;

/** Rows split into parts small enough for one statement of `columns` parameters per row. */
/**
 * Assets per statement where a change of existing assets runs beside searches (edits): SQLite
 * answers synchronously, and a statement over 500 assets holds the event loop some 5–30 ms.
 */
export const TURN_SIZE = 500;

/** Slices of `rows` of `size`, with a turn of the event loop before each but the first. */
export async function* inTurns<T>(rows: readonly T[], size = TURN_SIZE): AsyncGenerator<T[]> {
  for (let i = 0; i < rows.length; i += size) {
    if (i > 0) await nextTurn();
    yield rows.slice(i, i + size);
  }
}

export function chunks<T>(rows: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(PARAMETERS / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * Inserts rows (objects with the keys `columns`) in the order given, with as few statements as the
 * database allows, and answers the `returning` columns. Rows are passed without the query builder:
 * building a statement of thousands of values through it costs more than the database's work. On
 * PostgreSQL they travel as one JSON parameter that json_populate_recordset unpacks (the server
 * parses it on its own core); on SQLite as VALUES lists of bound parameters, which it reads fastest.
 */
export async function insertAll<R = unknown>(
  trx: Kysely<Database>,
  table: string,
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
  returning: readonly string[] = [],
): Promise<R[]> {
  if (rows.length === 0) return [];
  const names = columns.join(', ');
  const ret = returning.length > 0 ? ` returning ${returning.join(', ')}` : '';
  if (isPostgres(trx)) {
    const query = CompiledQuery.raw(
      `insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, $1::json)
       with ordinality order by ordinality${ret}`,
      [JSON.stringify(rows)],
    );
    return (await trx.executeQuery<R>(query)).rows;
  }
  const out: R[] = [];
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (const part of chunks(rows, columns.length)) {
    const parameters: unknown[] = [];
    for (const row of part) for (const c of columns) parameters.push(row[c]);
    const query = CompiledQuery.raw(
      `insert into ${table} (${names}) values ${Array.from(part, () => tuple).join(', ')}${ret}`,
      parameters,
    );
    out.push(...(await trx.executeQuery<R>(query)).rows);
  }
  return out;
}

/** Collections without a tile take the asset given (collection id → asset id) as theirs. */
export async function giveTiles(trx: Transaction<Database>, tiles: ReadonlyMap<number, number>): Promise<void> {
  for (const [collection, id] of tiles) {
    await trx
      .updateTable('collection')
      .set({ thumbnail_asset_id: id })
      .where('id', '=', collection)
      .where('thumbnail_asset_id', 'is', null)
      .execute();
  }
}

/** The rows that hang on assets (all but the asset's own), removed with them for good. */
async function deleteAssetRows(trx: Transaction<Database>, ids: readonly number[]): Promise<void> {
  for (const table of [
    'derivative',
    'asset_value',
    'asset_collection',
    'asset_access',
    'asset_caption',
    'asset_edit',
  ] as const) {
    await trx.deleteFrom(table).where('asset_id', 'in', ids).execute();
  }
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
    write: (trx: Transaction<Database>) => Promise<{ ids: readonly number[]; result: T }>,
  ): Promise<T> {
    let unchanged: { result: T } | undefined;
    try {
      return await this.db.transaction().execute(async (trx) => {
        await this.feed?.begin(trx);
        const seq = await beginCatalogueChange(trx);
        const { ids, result } = await write(trx);
        if (ids.length === 0) {
          unchanged = { result };
          throw new NothingChanged();
        }
        const now = Date.now();
        for await (const part of inTurns(ids))
          await trx.updateTable('asset').set({ updated_at: now }).where('id', 'in', part).execute();
        await recordCatalogueChange(trx, seq, ids);
        await this.feed?.written(trx, seq, ids, false, (fields) => writtenRows(trx, ids, fields));
        return result;
      });
    } catch (err) {
      if (err instanceof NothingChanged && unchanged) return unchanged.result;
      throw err;
    }
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

/**
 * The edit overlay (decision 0250) over writes that replace assets: a field an editor changed keeps
 * its current value (every language of an index field, the date column, the access groups, the
 * collection memberships) and `asset_edit.imported` takes the file's new value; an asset in the bin
 * stays there. One indexed read of `asset_edit` per batch of replaced assets; the current values are
 * read only for assets that have edits.
 */
async function keepEdits(
  trx: Kysely<Database>,
  writes: readonly AssetWrite[],
  known: ReadonlyMap<string, number>,
  binned: ReadonlySet<number>,
): Promise<readonly AssetWrite[]> {
  const replaced = [...new Set(known.values())];
  const edits = new Map<number, Set<string>>();
  for (const ids of chunks(replaced, 1)) for (const [id, f] of await editedFields(trx, ids)) edits.set(id, f);
  if (edits.size === 0 && binned.size === 0) return writes;
  const editedIds = [...edits.keys()];
  const current = new Map<
    number,
    { values: AssetWrite['values']; access: string[]; members: number[]; created: number | null }
  >();
  for (const ids of chunks(editedIds, 1)) {
    const [assets, values, access, members] = await Promise.all([
      trx.selectFrom('asset').select(['id', 'created']).where('id', 'in', ids).execute(),
      trx
        .selectFrom('asset_value')
        .select(['asset_id', 'field', 'lang', 'value'])
        .where('asset_id', 'in', ids)
        .orderBy('asset_id')
        .orderBy('field')
        .orderBy('lang')
        .orderBy('ord')
        .execute(),
      trx.selectFrom('asset_access').select(['asset_id', 'group_name']).where('asset_id', 'in', ids).execute(),
      trx.selectFrom('asset_collection').select(['asset_id', 'collection_id']).where('asset_id', 'in', ids).execute(),
    ]);
    for (const a of assets) {
      current.set(Number(a.id), {
        values: [],
        access: [],
        members: [],
        created: a.created === null ? null : Number(a.created),
      });
    }
    for (const v of values) current.get(Number(v.asset_id))?.values.push(v);
    for (const a of access) current.get(Number(a.asset_id))?.access.push(a.group_name);
    for (const m of members) current.get(Number(m.asset_id))?.members.push(Number(m.collection_id));
  }
  const out: AssetWrite[] = [];
  for (const w of writes) {
    const id = known.get(w.columns.source_path);
    const fields = id === undefined ? undefined : edits.get(id);
    const was = id === undefined ? undefined : current.get(id);
    let write = w;
    if (id !== undefined && binned.has(id)) write = { ...write, columns: { ...write.columns, status: 'bin' } };
    if (id !== undefined && fields && was) {
      const file = write;
      const kept = new Set([...fields].filter((f) => f !== CREATED && f !== ACCESS_GROUPS && f !== COLLECTIONS));
      write = {
        ...write,
        columns: fields.has(CREATED) ? { ...write.columns, created: was.created } : write.columns,
        values: [...write.values.filter((v) => !kept.has(v.field)), ...was.values.filter((v) => kept.has(v.field))],
        accessGroups: fields.has(ACCESS_GROUPS) ? was.access : write.accessGroups,
        collectionIds: fields.has(COLLECTIONS) ? was.members : write.collectionIds,
      };
      for (const field of fields) {
        const imported =
          field === CREATED
            ? createdValues(file.columns.created)
            : field === ACCESS_GROUPS
              ? listValues([...new Set(file.accessGroups)])
              : field === COLLECTIONS
                ? listValues([...new Set(file.collectionIds)])
                : valuesOfField(file.values, field);
        await trx
          .updateTable('asset_edit')
          .set({ imported: canonical(imported) })
          .where('asset_id', '=', id)
          .where('field', '=', field)
          .execute();
      }
    }
    out.push(write);
  }
  return out;
}

/** Ends the transaction of a change that changed nothing (rolled back, answered as it is). */
class NothingChanged extends Error {}

/** What the full-text index reads of assets after a change: their status, file name and the values of `fields`. */
async function writtenRows(
  trx: Kysely<Database>,
  ids: readonly number[],
  fields: readonly string[],
): Promise<WrittenRows> {
  const rows: WrittenRows = { assets: [], values: [] };
  for await (const some of inTurns(ids)) {
    const assets = await trx.selectFrom('asset').select(['id', 'status', 'filename']).where('id', 'in', some).execute();
    for (const a of assets) rows.assets.push({ id: Number(a.id), status: a.status, filename: a.filename });
    if (fields.length === 0) continue;
    const values = await trx
      .selectFrom('asset_value')
      .select(['asset_id', 'field', 'lang', 'ord', 'value'])
      .where('asset_id', 'in', some)
      .where('field', 'in', fields)
      .execute();
    for (const v of values) rows.values.push({ ...v, asset_id: Number(v.asset_id), ord: Number(v.ord) });
  }
  return rows;
}

/** Lets timers and I/O run between a command's transactions (better-sqlite3 answers synchronously). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
