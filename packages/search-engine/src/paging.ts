import type { Closeness } from './alike.ts';
import type { QueryEvaluator } from './evaluate.ts';
import { bitSetOf, lowerBound } from './facet-index/doc-sets.ts';
import type { IndexView } from './index-view.ts';
import type { Scratch } from './scratch.ts';
import { positiveTextAtoms, type QueryNode } from './query.ts';

// `!` on array reads (noUncheckedIndexedAccess): loops and array sizes bound every index; checks would cost here.

/** Below this many matches sorting them directly beats walking a precomputed order. */
export const DIRECT_SORT_LIMIT = 2_000;

export interface SortBy {
  field: string;
  dir: 'asc' | 'desc';
}

/**
 * Relevance: per positive word or phrase, one point when it occurs anywhere and one more when it
 * occurs in the title. Simple and the same on both databases; ties go to the newest asset. Answers
 * the score of each position of `result`, in the search's `scratch`.
 */
export async function scores(
  view: IndexView,
  tree: QueryNode,
  evaluator: QueryEvaluator,
  result: Int32Array,
  scratch: Scratch,
): Promise<Uint8Array | undefined> {
  const positives = positiveTextAtoms(tree);
  if (positives.length === 0 || result.length === 0) return undefined;
  // Per result position, not per document: walks along the sorted lists, no array of the index's size.
  const acc = scratch.uint8(result.length);
  // A word every match has (the query's own, or one of words it ANDs) is one point for every result.
  const everywhere = new Set<QueryNode>(tree.kind === 'and' ? tree.items : [tree]);
  for (const atom of positives) {
    const all = await evaluator.matchText(atom);
    const title = atom.scope === 'title' ? all : await evaluator.matchText({ ...atom, scope: 'title' });
    if (everywhere.has(atom)) addEverywhere(acc);
    else addWhereIn(acc, result, all, view.index.size, scratch);
    addWhereIn(acc, result, title, view.index.size, scratch);
  }
  return acc;
}

function addEverywhere(acc: Uint8Array): void {
  for (let i = 0; i < acc.length; i++) if (acc[i]! < 255) acc[i]!++;
}

/**
 * Adds one to `acc[i]` (up to 255) for every `result[i]` in `docs` (both ascending): through a bit
 * set of `docs` when both are long (a common word's title matches against its results), else
 * walking the shorter list and leaping along the longer one.
 */
function addWhereIn(acc: Uint8Array, result: Int32Array, docs: Int32Array, size: number, scratch: Scratch): void {
  if (docs.length * 64 > size && result.length * 64 > size) {
    const set = bitSetOf(docs, size, scratch.uint32((size + 31) >>> 5));
    for (let i = 0; i < result.length; i++) {
      const d = result[i]!;
      // Without a branch; a score reaches 255 only with 128 words, which a query cannot have.
      acc[i] = acc[i]! + ((set[d >>> 5]! >>> (d & 31)) & 1);
    }
    return;
  }
  if (docs.length < result.length) {
    let i = 0;
    for (let j = 0; j < docs.length && i < result.length; j++) {
      const d = docs[j]!;
      i = leap(result, d, i);
      if (result[i] === d && acc[i]! < 255) acc[i]!++;
    }
    return;
  }
  let j = 0;
  for (let i = 0; i < result.length && j < docs.length; i++) {
    const d = result[i]!;
    j = leap(docs, d, j);
    if (docs[j] === d && acc[i]! < 255) acc[i]!++;
  }
}

/** The first position from `from` of an ascending list whose entry is not below `key` (galloping). */
function leap(list: Int32Array, key: number, from: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < list.length && list[hi]! < key) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  return lowerBound(list, key, lo, Math.min(hi, list.length));
}

/** One page of a result in the asked order (a list of the index's size it needs is `scratch`'s). */
export function page(
  view: IndexView,
  result: Int32Array,
  sort: SortBy,
  relevance: Uint8Array | undefined,
  start: number,
  rows: number,
  groups: readonly string[],
  scratch: Scratch,
  directSortLimit = DIRECT_SORT_LIMIT,
): Int32Array {
  if (start >= result.length || rows === 0) return new Int32Array(0);
  const end = Math.min(result.length, start + rows);
  if (sort.field === 'score') return pageByScore(result, sort, relevance, start, end);
  const cmp = comparator(view, sort);
  if (result.length <= directSortLimit) return result.slice().sort(cmp).slice(start, end);
  const acc = new Int32Array(end - start);
  let seen = 0;
  let n = 0;
  let keep: (d: number) => boolean;
  if (view.wholeCatalogueOf(result) !== undefined) {
    // The whole visible catalogue: walk the order and test visibility, no membership array.
    const caller = view.callerMasks(groups);
    keep = (d) => view.index.visible(d, caller);
  } else {
    const member = scratch.uint8(view.index.size);
    for (let i = 0; i < result.length; i++) member[result[i]!] = 1;
    keep = (d) => member[d] === 1;
  }
  const visit = (d: number): boolean => {
    if (keep(d) && seen++ >= start) acc[n++] = d;
    return n < acc.length;
  };
  // The index keeps every sort order up to date; sorting here is only for an index without one.
  if (!view.index.walkOrder(sort.field, sort.dir, visit)) {
    const order = view.cached(`order ${sort.field} ${sort.dir}`, () => view.allDocs().slice().sort(cmp));
    for (let i = 0; i < order.length && visit(order[i]!); i++);
  }
  return acc.subarray(0, n);
}

function pageByScore(
  result: Int32Array,
  sort: SortBy,
  relevance: Uint8Array | undefined,
  start: number,
  end: number,
): Int32Array {
  // Equal scores: newest (highest id) first, i.e. descending document order.
  const acc = new Int32Array(end - start);
  if (!relevance) {
    for (let i = start; i < end; i++) acc[i - start] = result[result.length - 1 - i]!;
    return acc;
  }
  let seen = 0;
  let n = 0;
  const counts = new Int32Array(256);
  for (let i = 0; i < relevance.length; i++) counts[relevance[i]!]!++;
  const order = [...counts.keys()].filter((level) => counts[level]! > 0);
  if (sort.dir === 'desc') order.reverse();
  for (const level of order) {
    // A level wholly before the page is passed over.
    if (seen + counts[level]! <= start) {
      seen += counts[level]!;
      continue;
    }
    for (let i = result.length - 1; i >= 0; i--) {
      if (relevance[i] !== level || seen++ < start) continue;
      acc[n++] = result[i]!;
      if (n === acc.length) return acc;
    }
  }
  return acc.subarray(0, n);
}

/** Orders documents by a field, missing values last, ties by descending asset id. */
function comparator(view: IndexView, { field, dir }: SortBy): (a: number, b: number) => number {
  const sign = dir === 'asc' ? 1 : -1;
  const ids = view.index.ids;
  const strings = view.index.strings.get(field);
  if (strings) {
    return (a, b) => {
      const x = strings.get(a);
      const y = strings.get(b);
      return (x < y ? -sign : x > y ? sign : 0) || ids[b]! - ids[a]!;
    };
  }
  const values = view.index.numbers.get(field)!;
  return (a, b) => {
    const x = values.get(a);
    const y = values.get(b);
    const xn = Number.isNaN(x);
    const yn = Number.isNaN(y);
    if (xn || yn) return xn && yn ? ids[b]! - ids[a]! : xn ? 1 : -1;
    return sign * (x - y) || ids[b]! - ids[a]!;
  };
}

/**
 * One page of a result ranked by visual closeness (similar:, colour:): per result its distance in
 * each term as a share of that term's cut-off, summed (a result a term did not match, under OR,
 * counts the whole cut-off); closest first for `desc` (the score order), ties newest first.
 * Distances are bucketed first, so only the buckets the page falls in are sorted.
 */
export function pageByCloseness(
  result: Int32Array,
  terms: readonly { closeness: Closeness; cutoff: number }[],
  dir: 'asc' | 'desc',
  start: number,
  rows: number,
  scratch: Scratch,
): Int32Array {
  if (start >= result.length || rows === 0) return new Int32Array(0);
  const end = Math.min(result.length, start + rows);
  const total = new Float32Array(scratch.int32(result.length).fill(0).buffer, 0, result.length);
  for (const { closeness, cutoff } of terms) {
    const { docs, distance } = closeness;
    let j = 0;
    for (let i = 0; i < result.length; i++) {
      const d = result[i]!;
      while (j < docs.length && docs[j]! < d) j++;
      total[i]! += j < docs.length && docs[j] === d ? distance[j]! / cutoff : 1;
    }
  }
  const worst = terms.length;
  const BUCKETS = 4096;
  const bucketOf = (i: number): number => {
    const b = Math.min(BUCKETS - 1, Math.floor((total[i]! / (worst || 1)) * (BUCKETS - 1)));
    return dir === 'desc' ? b : BUCKETS - 1 - b;
  };
  const counts = new Int32Array(BUCKETS);
  for (let i = 0; i < result.length; i++) counts[bucketOf(i)]!++;
  let seen = 0;
  let first = 0;
  while (seen + counts[first]! <= start) seen += counts[first++]!;
  let last = first;
  let through = seen + counts[first]!;
  while (through < end && last < BUCKETS - 1) through += counts[++last]!;
  const picked: number[] = [];
  for (let i = 0; i < result.length; i++) {
    const b = bucketOf(i);
    if (b >= first && b <= last) picked.push(i);
  }
  const sign = dir === 'desc' ? 1 : -1;
  picked.sort((x, y) => sign * (total[x]! - total[y]!) || result[y]! - result[x]!);
  return Int32Array.from(picked.slice(start - seen, end - seen), (i) => result[i]!);
}
