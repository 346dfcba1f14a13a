import type { QueryEvaluator } from './evaluate.ts';
import type { IndexView } from './index-view.ts';
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
 * occurs in the title. Simple and the same on both databases; ties go to the newest asset.
 */
export async function scores(
  view: IndexView,
  tree: QueryNode,
  evaluator: QueryEvaluator,
  result: Int32Array,
): Promise<Uint8Array | undefined> {
  const positives = positiveTextAtoms(tree);
  if (positives.length === 0 || result.length === 0) return undefined;
  const acc = new Uint8Array(view.index.size);
  for (const atom of positives) {
    const all = await evaluator.matchText(atom);
    const title = atom.scope === 'title' ? all : await evaluator.matchText({ ...atom, scope: 'title' });
    for (let i = 0; i < all.length; i++) acc[all[i]!] = Math.min(255, acc[all[i]!]! + 1);
    for (let i = 0; i < title.length; i++) acc[title[i]!] = Math.min(255, acc[title[i]!]! + 1);
  }
  return acc;
}

/** One page of a result in the asked order. */
export function page(
  view: IndexView,
  result: Int32Array,
  sort: SortBy,
  relevance: Uint8Array | undefined,
  start: number,
  rows: number,
  groups: readonly string[],
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
    const member = new Uint8Array(view.index.size);
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
  const levels = new Set<number>();
  for (let i = 0; i < result.length; i++) levels.add(relevance[result[i]!]!);
  const order = [...levels].sort((a, b) => (sort.dir === 'desc' ? b - a : a - b));
  for (const level of order) {
    for (let i = result.length - 1; i >= 0; i--) {
      const d = result[i]!;
      if (relevance[d] !== level || seen++ < start) continue;
      acc[n++] = d;
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
