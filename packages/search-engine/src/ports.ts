/**
 * What the engine needs from its host and the host provides: the catalogue as the engine reads it
 * (its assets, their change log, the full-text index's shared state), the full-text index
 * (text-index.ts) and the access rule's notion of a live asset. The server implements them over its
 * database (apps/server/src/search: SearchRepository, SqliteTextIndex, PostgresTextIndex); the
 * engine never sees SQL. `Tx` is the host's transaction: the engine only hands it from
 * `Catalogue.inTransaction` to the text index, so a batch of texts is written with the state that
 * says it was.
 */
import type { TextIndex } from './text-index.ts';

/** What the engine reads of one asset: the asset columns facets use are read by their column name. */
export interface CatalogueAsset {
  id: number;
  status: string;
  filename: string;
}

/** One value of a field of an asset (asset_value); `lang` is '' for a value of no language. */
export interface ValueRow {
  asset_id: number;
  field: string;
  lang: string;
  ord: number;
  value: string;
}

/** Everything the search engine reads about a batch of assets. */
export interface AssetBatch<A extends CatalogueAsset = CatalogueAsset> {
  assets: A[];
  values: ValueRow[];
  access: { asset_id: number; group_name: string }[];
  collections: { asset_id: number; collection_id: number }[];
}

/**
 * An asset's visual signature (the host's asset_signature), of its current content: the 64-bit
 * perceptual hash as 16 hexadecimal digits, the dominant colours in OKLab as [L, a, b, share], the
 * aspect (width over height).
 */
export interface SignatureRow {
  asset_id: number;
  phash: string;
  colours: [number, number, number, number][];
  aspect: number;
}

/** The full-text index's shared state (one row for every process). */
export interface TextState {
  /** The change up to which the text index holds every change; -1 before its first full load. */
  watermark: number;
  /** The change a full load under way started at; -1 when none is under way. */
  loadSeq: number;
  /** The highest asset id the full load under way has written. */
  loadAfter: number;
}

export interface CatalogueState {
  /** The last change sequence number taken (the catalogue generation). */
  generation: number;
  /** Identifies this catalogue (a snapshot of another one is not used). */
  instance: string;
  /** Changes up to this sequence number have been pruned from the change log. */
  prunedThrough: number;
}

/** Assets first..last were touched by catalogue change `seq`. */
export interface ChangeRun {
  seq: number;
  first: number;
  last: number;
}

/** The run a change records when it touched every asset: indexes then load everything again. */
export const ALL_ASSETS: readonly [number, number] = [0, Number.MAX_SAFE_INTEGER];

/** The catalogue as the engine reads it; `Tx` is the host's transaction. */
export interface Catalogue<Tx> {
  /** The catalogue generation: the last change sequence number taken. */
  generation(): Promise<number>;
  catalogueState(): Promise<CatalogueState>;
  /** Records that `reader` holds every change up to `seq` (the purge keeps later ones). */
  markReader(reader: string, seq: number, now: number): Promise<void>;
  forgetReader(reader: string): Promise<void>;
  textState(): Promise<TextState>;
  /** Takes the lock on the text state until the transaction ends (in `inTransaction` only). */
  lockTextState(): Promise<void>;
  setTextState(state: TextState): Promise<void>;
  /** The fields whose words the full-text index holds, as last recorded (null: never recorded). */
  textFields?(): Promise<string | null>;
  /** Records them; with `reload`, the text index is made again from the catalogue at its next catch-up. */
  setTextFields?(fields: string, reload: boolean): Promise<void>;
  /** Runs `fn` with a larger database cache, where the database has one (full loads). */
  withBulkCache<T>(fn: () => Promise<T>): Promise<T>;
  /** Runs `fn` in one transaction, with the catalogue read in it. */
  inTransaction<T>(fn: (catalogue: Catalogue<Tx>, trx: Tx) => Promise<T>): Promise<T>;
  /**
   * Id runs of changes after `after` (a sequence and a first id in it) up to sequence `upTo`, in
   * (seq, first) order, at most `limit`; with `texts`, only of changes that may have changed texts.
   */
  changesAfter(
    after: { seq: number; first: number },
    upTo: number,
    limit: number,
    texts?: boolean,
  ): Promise<ChangeRun[]>;
  /** Ids of live assets above `afterId`, ascending, at most `limit`. */
  activeIdsAfter(afterId: number, limit: number): Promise<number[]>;
  highestId(): Promise<number>;
  countAssets(): Promise<number>;
  /** The assets of `ids` with the values of `fields` (and their access groups unless `withAccess` is false). */
  batch(ids: readonly number[], fields: readonly string[] | 'all', withAccess?: boolean): Promise<AssetBatch>;
  collections(): Promise<{ id: number; name: string }[]>;
  /**
   * The visual signatures of those of `ids` that have one (similar:, colour:). A host without
   * signatures leaves it out. A signature's arrival must be a change of its asset in the change log,
   * so the index follows it like any other.
   */
  signatures?(ids: readonly number[]): Promise<SignatureRow[]>;
  /**
   * The part hashes of one asset's current picture (16 hexadecimal digits each: the perceptual
   * hashes of windows of it), for the second tier of `similar:` (pictures cut from it); empty when
   * it has none. Read for the asked asset only, so they stay out of the index.
   */
  signatureParts?(id: number): Promise<string[]>;
  /**
   * The parts of change `seq` as its writer kept them for other processes (written-change.ts), in
   * order; none when it kept none (a host with one process never does). A process lacking only that
   * change takes it from them without reading the changed assets again.
   */
  writtenParts?(seq: number): Promise<string[]>;
}

/**
 * The host's access rule, in the two forms the index applies: an asset is visible to a caller when
 * it is live and one of its access groups is one of the caller's.
 */
export interface AccessRule {
  /** True when an asset of this status is live (searchable at all). */
  isLive(status: string): boolean;
  /**
   * The caller's groups as bit masks: one bit per access group, 32 groups per word (`bitOf` numbers
   * the groups the index knows). A live document is visible when its own mask shares a bit with it.
   */
  groupMask(groups: readonly string[], bitOf: (group: string) => number | undefined, words: number): Uint32Array;
}

/** The host's side of the engine. */
export interface EnginePorts<Tx> {
  catalogue: Catalogue<Tx>;
  text: TextIndex<Tx>;
  rule: AccessRule;
}

/** Rows of a batch grouped by their asset. */
export function rowsByAsset<T extends { asset_id: number }>(rows: readonly T[]): Map<number, T[]> {
  const acc = new Map<number, T[]>();
  for (const r of rows) {
    const list = acc.get(r.asset_id);
    if (list) list.push(r);
    else acc.set(r.asset_id, [r]);
  }
  return acc;
}
