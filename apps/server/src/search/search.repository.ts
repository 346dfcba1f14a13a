import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type {
  AssetBatch as EngineBatch,
  Catalogue,
  CatalogueState,
  ChangeRun,
  SignatureRow,
  TextState,
} from '@vitrine/search-engine';
import { pause } from '@vitrine/search-engine';
import { PLACEHOLDER_KIND, type AssetTable, type Database } from '../db/schema.ts';
import { partsFromText } from '../db/signature-parts.ts';
import { keepsWrittenChanges } from '../db/catalogue-state.ts';

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

/** Reads of the catalogue for the search engine and the asset presenter (SQL lives only here). */
export class SearchRepository implements Catalogue<Kysely<Database>> {
  private readonly k: Kysely<Database>;

  /** What the last read of the catalogue's state saw besides it (shared with repositories in transactions). */
  private readonly marks: { placeholders: number };

  constructor(
    private readonly db: Db,
    executor?: Kysely<Database>,
    marks?: { placeholders: number },
  ) {
    this.k = executor ?? db.kysely;
    this.marks = marks ?? { placeholders: -1 };
  }

  /**
   * The statement of `catalogueState`, compiled at its first use and kept: every search makes it,
   * and building it anew (Kysely's builders and compiler) cost more than SQLite's answer to it.
   */
  private stateQuery: CompiledQuery<{
    generation: number;
    instance: string | null;
    pruned_through: number;
    placeholders: number | null;
  }> | null = null;

  /**
   * The count of thumbnail placeholders written, as the last read of the catalogue's state saw it
   * (-1 before the first): an asset found without a placeholder needs asking again only once it moved.
   */
  placeholderMark(): number {
    return this.marks.placeholders;
  }

  async generation(): Promise<number> {
    const row = await this.k.selectFrom('catalogue_state').select('generation').where('id', '=', 1).executeTakeFirst();
    return Number(row?.generation ?? 0);
  }

  /**
   * The generation, the catalogue's identity and the sequence up to which changes were pruned. The
   * count of thumbnail placeholders written is read with it (the same round trip, which every search
   * makes): `placeholderMark` answers it.
   */
  async catalogueState(): Promise<CatalogueState> {
    this.stateQuery ??= this.k
      .selectFrom('catalogue_state')
      .select(['generation', 'instance', 'pruned_through'])
      .select((eb) =>
        eb.selectFrom('placeholder_state').select('mark').where('placeholder_state.id', '=', 1).as('placeholders'),
      )
      .where('id', '=', 1)
      .compile();
    const [row] = (await this.k.executeQuery(this.stateQuery)).rows;
    this.marks.placeholders = Number(row?.placeholders ?? 0);
    return {
      generation: Number(row?.generation ?? 0),
      instance: row?.instance ?? '',
      prunedThrough: Number(row?.pruned_through ?? 0),
    };
  }

  /** Records that a reader of the change log (a process, a snapshot) holds every change up to `seq`. */
  async markReader(reader: string, seq: number, now: number): Promise<void> {
    await this.k
      .insertInto('catalogue_reader')
      .values({ reader, seq, seen_at: now })
      .onConflict((oc) => oc.column('reader').doUpdateSet({ seq, seen_at: now }))
      .execute();
  }

  /** A reader that stops (a process shutting down) no longer holds changes back from the purge. */
  async forgetReader(reader: string): Promise<void> {
    await this.k.deleteFrom('catalogue_reader').where('reader', '=', reader).execute();
  }

  /**
   * Removes the changes that no reader needs any more: those the full-text index and every reader
   * seen since `liveSince` hold. Readers not seen since then are forgotten; should they come back,
   * they find their changes pruned and rebuild. Answers how many change rows went.
   */
  async pruneChanges(liveSince: number): Promise<number> {
    return this.k.transaction().execute(async (trx) => {
      const repository = new SearchRepository(this.db, trx, this.marks);
      await repository.lockTextState();
      const text = await repository.textState();
      const state = await repository.catalogueState();
      await trx.deleteFrom('catalogue_reader').where('seen_at', '<', liveSince).execute();
      const oldest = await trx
        .selectFrom('catalogue_reader')
        .select((eb) => eb.fn.min<number>('seq').as('seq'))
        .executeTakeFirst();
      // The full-text index needs the changes after its watermark, or after where its load began.
      const textHolds = text.loadSeq !== -1 ? text.loadSeq : text.watermark;
      const floor = Math.min(textHolds, oldest?.seq == null ? state.generation : Number(oldest.seq));
      if (floor <= state.prunedThrough) return 0;
      const gone = await trx.deleteFrom('catalogue_change').where('seq', '<=', floor).executeTakeFirst();
      await trx.deleteFrom('catalogue_change_written').where('seq', '<=', floor).execute();
      await trx.updateTable('catalogue_state').set({ pruned_through: floor }).where('id', '=', 1).execute();
      return Number(gone.numDeletedRows);
    });
  }

  /** The full-text index's shared state (search_state). */
  async textState(): Promise<TextState> {
    const row = await this.k
      .selectFrom('search_state')
      .select(['text_watermark', 'text_load_seq', 'text_load_after'])
      .where('id', '=', 1)
      .executeTakeFirst();
    return {
      watermark: Number(row?.text_watermark ?? -1),
      loadSeq: Number(row?.text_load_seq ?? -1),
      loadAfter: Number(row?.text_load_after ?? 0),
    };
  }

  /**
   * Takes the write lock on the full-text index's state until the transaction ends (a row lock on
   * PostgreSQL, the database's write lock on SQLite): one process at a time reads changed assets
   * and writes them, so an older reading never overwrites a newer one.
   */
  async lockTextState(): Promise<void> {
    await this.k
      .updateTable('search_state')
      .set((eb) => ({ text_watermark: eb.ref('text_watermark') }))
      .where('id', '=', 1)
      .execute();
  }

  async setTextState(state: TextState): Promise<void> {
    await this.k
      .updateTable('search_state')
      .set({ text_watermark: state.watermark, text_load_seq: state.loadSeq, text_load_after: state.loadAfter })
      .where('id', '=', 1)
      .execute();
  }

  async textFields(): Promise<string | null> {
    const row = await this.k.selectFrom('search_state').select('text_fields').where('id', '=', 1).executeTakeFirst();
    return row?.text_fields ?? null;
  }

  /** Records the text index's fields; with `reload`, its next catch-up is a full load (watermark -1). */
  async setTextFields(fields: string, reload: boolean): Promise<void> {
    await this.k
      .updateTable('search_state')
      .set(
        reload
          ? { text_fields: fields, text_watermark: -1, text_load_seq: -1, text_load_after: 0 }
          : { text_fields: fields },
      )
      .where('id', '=', 1)
      .execute();
  }

  /**
   * Runs a bulk read or write (a full index load, writing many assets) with a page cache of
   * `megabytes` on SQLite: with the default 2 MB, a catalogue of a million assets and its full-text
   * index spend most of a bulk load reading the same pages again. PostgreSQL has its own buffers.
   */
  async withBulkCache<T>(fn: () => Promise<T>, megabytes = 256): Promise<T> {
    if (this.db.dialect !== 'sqlite') return fn();
    const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(this.k);
    const before = Number(rows[0]?.cache_size ?? -2000);
    if (before < 0 && -before >= megabytes * 1024) return fn();
    await sql.raw(`pragma cache_size = ${-megabytes * 1024}`).execute(this.k);
    try {
      return await fn();
    } finally {
      await sql.raw(`pragma cache_size = ${before}`).execute(this.k);
    }
  }

  /** Runs `fn` in one transaction, with a repository that reads and writes in it. */
  async inTransaction<T>(fn: (repository: SearchRepository, trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.k.transaction().execute((trx) => fn(new SearchRepository(this.db, trx, this.marks), trx));
  }

  /**
   * Id runs of changes after `after` (a sequence and a first id in it) up to sequence `upTo`, in
   * order; with `texts`, only of changes that may have changed texts (not those that only counted
   * downloads).
   */
  async changesAfter(
    after: { seq: number; first: number },
    upTo: number,
    limit: number,
    texts = false,
  ): Promise<ChangeRun[]> {
    const rows = await this.k
      .selectFrom('catalogue_change')
      .select(['seq', 'first_id', 'last_id'])
      .where((eb) =>
        eb.or([eb('seq', '>', after.seq), eb.and([eb('seq', '=', after.seq), eb('first_id', '>', after.first)])]),
      )
      .where('seq', '<=', upTo)
      .$if(texts, (qb) => qb.where('count_only', '=', 0))
      .orderBy('seq')
      .orderBy('first_id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ seq: Number(r.seq), first: Number(r.first_id), last: Number(r.last_id) }));
  }

  async writtenParts(seq: number): Promise<string[]> {
    if (!keepsWrittenChanges(this.k)) return [];
    const rows = await this.k
      .selectFrom('catalogue_change_written')
      .select('body')
      .where('seq', '=', seq)
      .orderBy('part')
      .execute();
    return rows.map((r) => r.body);
  }

  /** Ids of assets (of any status) between `first` and `last`, above `afterId`, ascending. */
  async idsBetween(first: number, last: number, afterId: number, limit: number): Promise<number[]> {
    const rows = await this.k
      .selectFrom('asset')
      .select('id')
      .where('id', '>=', Math.max(first, afterId + 1))
      .where('id', '<=', last)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => Number(r.id));
  }

  /** Active assets with ids above `afterId`, in id order: the pages of a full index load. */
  /** The statement of activeIdsAfter (its plan is tested on PostgreSQL). */
  activeIdsQuery(afterId: number, limit: number) {
    return this.k
      .selectFrom('asset')
      .select('id')
      .where('id', '>', afterId)
      .where('status', '=', 'active')
      .orderBy('id')
      .limit(limit);
  }

  async activeIdsAfter(afterId: number, limit: number): Promise<number[]> {
    const rows = await this.activeIdsQuery(afterId, limit).execute();
    return rows.map((r) => Number(r.id));
  }

  /** The highest asset id (of any status), 0 in an empty catalogue. */
  async highestId(): Promise<number> {
    const row = await this.k
      .selectFrom('asset')
      .select((eb) => eb.fn.max<number>('id').as('id'))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  async countAssets(): Promise<number> {
    const row = await this.k
      .selectFrom('asset')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'active')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The ThumbHash placeholders of the assets' thumbnails, for those that have one. */
  async thumbhashes(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.kysely
      .selectFrom('derivative')
      .select(['asset_id', 'placeholder'])
      .where('kind', '=', PLACEHOLDER_KIND)
      .where('page', '=', 0)
      .where('asset_id', 'in', [...ids])
      .where('placeholder', 'is not', null)
      .execute();
    return new Map(rows.map((r) => [Number(r.asset_id), r.placeholder ?? '']));
  }

  /** Assets by id with the values of the given fields, their access groups and collections. */
  async batch(ids: readonly number[], fields: readonly string[] | 'all', withAccess = true): Promise<AssetBatch> {
    if (ids.length === 0) return { assets: [], values: [], access: [], collections: [] };
    const k = this.k;
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
    const readValues = () =>
      k
        .selectFrom('asset_value')
        .select(['asset_id', 'field', 'lang', 'ord', 'value'])
        .$if(contiguous, (q) => q.where('asset_id', '>=', lo).where('asset_id', '<=', hi))
        .$if(!contiguous, (q) => q.where('asset_id', 'in', list))
        .orderBy('asset_id')
        // In code point order on both databases (SQLite's binary collation; PostgreSQL's "C", whatever
        // the database's own): a document's text is then the same as the one the writer of a change
        // made from the rows it wrote (search/text-feed.ts).
        .$if(this.db.dialect === 'postgres', (q) => q.orderBy(sql`field collate "C"`).orderBy(sql`lang collate "C"`))
        .$if(this.db.dialect !== 'postgres', (q) => q.orderBy('field').orderBy('lang'))
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
      this.db.dialect === 'sqlite'
        ? [await pause().then(readValues), await pause().then(readAccess), await pause().then(readCollections)]
        : await Promise.all([readValues(), readAccess(), readCollections()]);
    const num = <T extends { asset_id: number }>(r: T): T => ({ ...r, asset_id: Number(r.asset_id) });
    // Fields are picked here, not in SQL: a field condition lures SQLite onto the (field, value)
    // index instead of the primary key's asset_id range, which is many times slower.
    const wanted = fields === 'all' ? undefined : new Set(fields);
    return {
      assets: assets.map((a) => ({ ...a, id: Number(a.id) })),
      values: (wanted ? values.filter((v) => wanted.has(v.field)) : values).map(num),
      access: access.map(num),
      collections: collections.map((c) => ({ asset_id: Number(c.asset_id), collection_id: Number(c.collection_id) })),
    };
  }

  /**
   * The visual signatures of those of `ids` that have one of their current content (a signature of a
   * replaced file waits for the new one), for similar: and colour: in search.
   */
  async signatures(ids: readonly number[]): Promise<SignatureRow[]> {
    if (ids.length === 0) return [];
    const list = [...ids];
    const lo = Math.min(...list);
    const hi = Math.max(...list);
    const contiguous = hi - lo + 1 === list.length;
    const rows = await this.k
      .selectFrom('asset_signature as s')
      .innerJoin('asset as a', 'a.id', 's.asset_id')
      .select(['s.asset_id', 's.phash', 's.colours', 's.aspect'])
      .whereRef('s.sha256', '=', 'a.sha256')
      .$if(contiguous, (q) => q.where('s.asset_id', '>=', lo).where('s.asset_id', '<=', hi))
      .$if(!contiguous, (q) => q.where('s.asset_id', 'in', list))
      .execute();
    return rows.map((r) => ({
      asset_id: Number(r.asset_id),
      phash: r.phash,
      // Stored as [[L, a, b, share], …] (alike/signature.repository.ts), the engine's own form.
      colours: JSON.parse(r.colours) as [number, number, number, number][],
      aspect: Number(r.aspect),
    }));
  }

  /**
   * The part hashes of an asset's current picture (similar:'s second tier), none when its signature
   * is of another content or older than part hashes.
   */
  async signatureParts(id: number): Promise<string[]> {
    const row = await this.k
      .selectFrom('asset_signature as s')
      .innerJoin('asset as a', 'a.id', 's.asset_id')
      .select('s.parts')
      .where('s.asset_id', '=', id)
      .whereRef('s.sha256', '=', 'a.sha256')
      .executeTakeFirst();
    return partsFromText(row?.parts ?? null);
  }

  async collections(): Promise<{ id: number; name: string; thumbnail_asset_id: number | null }[]> {
    const rows = await this.k
      .selectFrom('collection')
      .select(['id', 'name', 'thumbnail_asset_id'])
      // In the order the catalogue made them, so an import (the demo's curated rows) decides it.
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      thumbnail_asset_id: r.thumbnail_asset_id == null ? null : Number(r.thumbnail_asset_id),
    }));
  }
}
