import type { AssetBatch } from './search.repository.ts';

/** How many assets' rows a server process keeps for answers (a few hundred pages of results). */
export const KEPT_ASSETS = 5000;

/** What an answer shows of one asset, as read from the catalogue: its row, values, collections. */
export interface AssetRows {
  batch: AssetBatch;
  /** The thumbnail's placeholder; undefined while the asset has none. */
  thumbhash: string | undefined;
  /** The count of placeholders written (AssetRowsSource.placeholderMark) when it was found to have none. */
  noneAt?: number;
}

/** Reads the rows of assets and their thumbnails' placeholders (SearchRepository). */
export interface AssetRowsSource {
  batch(ids: readonly number[], fields: 'all', withAccess: false): Promise<AssetBatch>;
  thumbhashes(ids: readonly number[]): Promise<Map<number, string>>;
  /**
   * The count of thumbnail placeholders written, as last read with the catalogue's state (each
   * answer reads it before its rows); negative when not known.
   */
  placeholderMark(): number;
}

/**
 * The catalogue rows of the assets answers show, kept per asset so an answer of assets shown
 * before does not read them again (the reading was about a quarter of a search answer's time at a
 * million assets). The rows of an asset are forgotten when the search index applies a change of it
 * (SearchEngine.onChanged, which every process follows from the catalogue's change log), so they
 * are never older than the index the answer came from. A read that began before such a change is
 * used for its answer but not kept. A missing thumbnail placeholder (thumbnails are made after an
 * import, without a change of the asset) is asked for again once the count of placeholders written
 * moved since it was found missing (the count is read with the catalogue's state, so asking costs
 * no round trip while no thumbnail is made). The least recently used assets go first once
 * KEPT_ASSETS are kept.
 */
export class AssetRowsCache {
  private readonly kept = new Map<number, AssetRows>();
  /** Counts forgettings: a read is kept only if none happened while it ran. */
  private epoch = 0;

  constructor(
    private readonly source: AssetRowsSource,
    private readonly limit = KEPT_ASSETS,
  ) {}

  /** Forgets the rows of these assets, or of all. */
  forget(ids: readonly number[] | 'all'): void {
    this.epoch++;
    if (ids === 'all') this.kept.clear();
    else for (const id of ids) this.kept.delete(id);
  }

  /** Assets kept now (tests, metrics). */
  get size(): number {
    return this.kept.size;
  }

  /** The rows of the assets of `ids` that exist, kept or read. */
  async rows(ids: readonly number[]): Promise<Map<number, AssetRows>> {
    const found = new Map<number, AssetRows>();
    const missing: number[] = [];
    const placeholderless: number[] = [];
    // Read before the placeholders are: one written after this is seen by a later answer.
    const mark = this.source.placeholderMark();
    for (const id of ids) {
      const rows = this.kept.get(id);
      if (!rows) {
        missing.push(id);
        continue;
      }
      // Used again: to the end of the eviction order.
      this.kept.delete(id);
      this.kept.set(id, rows);
      found.set(id, rows);
      if (rows.thumbhash === undefined && (mark < 0 || rows.noneAt !== mark)) placeholderless.push(id);
    }
    if (missing.length === 0 && placeholderless.length === 0) return found;
    const epoch = this.epoch;
    const [batch, thumbhashes] = await Promise.all([
      missing.length > 0 ? this.source.batch(missing, 'all', false) : undefined,
      this.source.thumbhashes([...missing, ...placeholderless]),
    ]);
    const keep = epoch === this.epoch;
    for (const id of placeholderless) {
      const thumbhash = thumbhashes.get(id);
      const rows = found.get(id);
      if (!rows) continue;
      if (thumbhash !== undefined) rows.thumbhash = thumbhash;
      else rows.noneAt = mark;
    }
    if (batch) {
      for (const [id, rows] of splitBatch(batch)) {
        const thumbhash = thumbhashes.get(id);
        const read: AssetRows = { batch: rows, thumbhash, noneAt: thumbhash === undefined ? mark : undefined };
        found.set(id, read);
        if (keep) this.kept.set(id, read);
      }
      for (const id of this.kept.keys()) {
        if (this.kept.size <= this.limit) break;
        this.kept.delete(id);
      }
    }
    return found;
  }
}

/** A batch of assets as one batch per asset. */
function splitBatch(batch: AssetBatch): Map<number, AssetBatch> {
  const per = new Map<number, AssetBatch>();
  for (const asset of batch.assets) per.set(asset.id, { assets: [asset], values: [], access: [], collections: [] });
  for (const value of batch.values) per.get(value.asset_id)?.values.push(value);
  for (const member of batch.collections) per.get(member.asset_id)?.collections.push(member);
  return per;
}

/** Kept rows of many assets as one batch, for presenting them. */
export function joinRows(rows: Iterable<AssetRows>): AssetBatch {
  const joined: AssetBatch = { assets: [], values: [], access: [], collections: [] };
  for (const { batch } of rows) {
    joined.assets.push(...batch.assets);
    joined.values.push(...batch.values);
    joined.collections.push(...batch.collections);
  }
  return joined;
}
