import type { FacetOrder, FacetSelection, SearchAnswer, SuggestionSelection } from '@vitrine/contract/search';

// `!` on array reads (noUncheckedIndexedAccess): loops and array sizes bound every index; checks would cost here.

/** A query or filter the engine cannot answer; `param` names the request parameter at fault. */
export class SearchInputError extends Error {
  constructor(
    readonly param: string,
    message: string,
    /** A stable error id when the fault is not plain bad input (a query too costly to answer). */
    readonly errorId?: string,
  ) {
    super(message);
  }
}

/** Most words and phrases one query may hold (each is a lookup in the full-text index). */
export const MAX_QUERY_TERMS = 32;
/**
 * Most prefix words (word*) one query may hold: each expands to every indexed word it starts, and
 * short ones to thousands, which is what makes a query costly.
 */
export const MAX_QUERY_PREFIXES = 8;
/** The error id of a query refused for its cost (contract errors.ts). */
export const QUERY_TOO_COSTLY = 'query_too_costly';

/** Content languages every catalogue offers (admin-spec §3 "Language": de and en). */
export const baseContentLanguages: readonly string[] = ['de', 'en'];

export interface EngineQuery {
  q: string;
  /**
   * The caller's content language: values of per-language fields (facets, filters, suggestions)
   * are those the caller's docs show. English when not given.
   */
  lang?: string;
  filter?: FacetSelection[];
  suggestions?: SuggestionSelection[];
  facetFields?: string[];
  sort?: { field: string; dir: 'asc' | 'desc' };
  start?: number;
  rows?: number;
  /** Only these asset ids (shared links). */
  ids?: readonly number[];
  /** Only assets of this DAM collection. */
  collection?: number;
  facetLimit?: number;
  facetOffset?: number;
  /** Per facet field, the order of its values the caller asks for; else the index field's. */
  facetSort?: ReadonlyMap<string, FacetOrder>;
  /**
   * Fields the caller may not see: for this query they do not exist (a sort, facet, filter,
   * suggestion selection or field:value naming one is answered as one naming an unknown field).
   */
  hidden?: ReadonlySet<string>;
}

export type FacetValue = SearchAnswer['facetCounts']['facetFields'][string][number];

export interface EngineResult {
  ids: number[];
  numFound: number;
  facetFields: Record<string, FacetValue[]>;
  facetRanges: Record<string, { min: number | null; max: number | null }>;
}

/**
 * Milliseconds one search spent matching the query (words, ids, collection, visibility), applying
 * filters and counting facets, and ranking, sorting and paging the results.
 */
export interface EngineTimes {
  text: number;
  facets: number;
  sort: number;
}

export type Progress = (phase: string, done: number, total: number) => void;

export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Documents of `docs` that `keep` accepts, in order. */
export function filterDocs(docs: Int32Array, keep: (doc: number) => boolean): Int32Array {
  const acc = new Int32Array(docs.length);
  let n = 0;
  for (let i = 0; i < docs.length; i++) if (keep(docs[i]!)) acc[n++] = docs[i]!;
  return acc.subarray(0, n);
}

/** Sets `bit` in `fail[i]` for every document `docs[i]` not in the bit set `docsIn` (a filter's documents). */
export function markMissing(docsIn: Uint32Array, docs: Int32Array, fail: Uint32Array, bit: number): void {
  // Without a branch: whether a match passes a filter is as good as random to the processor.
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    fail[i]! |= bit & (((docsIn[d >>> 5]! >>> (d & 31)) & 1) - 1);
  }
}

/**
 * Documents of `docs` in every bit set of `sets` (a filter's or a caller's documents), in order;
 * written into `acc` (as long as `docs`) when given.
 */
export function keepIn(
  docs: Int32Array,
  sets: readonly Uint32Array[],
  acc: Int32Array = new Int32Array(docs.length),
): Int32Array {
  let n = 0;
  // Without a branch (as markMissing); one and two sets (visibility, and a filter) are the usual.
  const [a, b] = sets;
  if (sets.length === 1 && a) {
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      acc[n] = d;
      n += (a[d >>> 5]! >>> (d & 31)) & 1;
    }
  } else if (sets.length === 2 && a && b) {
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      const w = d >>> 5;
      acc[n] = d;
      n += ((a[w]! & b[w]!) >>> (d & 31)) & 1;
    }
  } else {
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      const w = d >>> 5;
      let bits = ~0;
      for (const set of sets) bits &= set[w]!;
      acc[n] = d;
      n += (bits >>> (d & 31)) & 1;
    }
  }
  return acc.subarray(0, n);
}

/**
 * Documents `docs[i]` whose filter failures `fail[i]` have none of the bits of `mask`, in order;
 * written into `acc` (as long as `docs`) when given.
 */
export function passing(
  docs: Int32Array,
  fail: Uint32Array,
  mask: number,
  acc: Int32Array = new Int32Array(docs.length),
): Int32Array {
  let n = 0;
  for (let i = 0; i < docs.length; i++) {
    // Without a branch (as markMissing): written always, kept when no bit of `mask` failed.
    const x = fail[i]! & mask;
    acc[n] = docs[i]!;
    n += ((x | -x) >>> 31) ^ 1;
  }
  return acc.subarray(0, n);
}

/**
 * Lets other work (requests, timers) run between long steps. One setImmediate is not enough: a
 * step that runs after I/O (a request's database read) is followed by the check phase at once,
 * so the next step would run before any timer or request; the second one comes after a whole turn
 * of the event loop.
 */
export const pause = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

/** Work a search does in one turn of the event loop before it lets other work run (ms). */
export const SEARCH_SLICE_MS = 8;

/**
 * A step a long computation takes between its parts: it pauses once `sliceMs` of work passed since
 * the last pause, and costs nothing before that (cached answers never pause).
 */
export function slicer(sliceMs = SEARCH_SLICE_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await pause();
    since = performance.now();
  };
}
