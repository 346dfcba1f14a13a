import type { FacetOrder, FacetSelection } from '@vitrine/contract/search';
import { compareText, filterDocs, keepIn, markMissing, SearchInputError, type FacetValue } from './engine-types.ts';
import type { CodeColumn } from './facet-index/code-column.ts';
import type { SearchField } from './fields.ts';
import type { IndexView } from './index-view.ts';
import type { Scratch } from './scratch.ts';
import { fold } from './text.ts';

// `!` on array reads (noUncheckedIndexedAccess): loops and array sizes bound every index; checks would cost here.

/** One filtered field of a search: its bit in the per-document failure mask and its tests. */
export interface Selection {
  field: SearchField;
  bit: number;
  /** True when the filter keeps the document. */
  keeps: (doc: number) => boolean;
  /**
   * The filter's documents as a bit set over the whole index (bit d of word d >>> 5), made in one
   * pass over every document and kept with the index version: testing a match then reads 1.25 MB
   * at ten million documents instead of the column.
   */
  docsIn: () => Uint32Array;
  /** True when docsIn is made already. */
  made: () => boolean;
}

/**
 * From how many documents to test (a share of the index) a filter's bit set is made when it is not
 * kept: making it reads every document once, so a rare word's few matches after a change are
 * tested one by one.
 */
const BIT_SET_SHARE = 16;

/** The bit set of a filter when it is kept, or worth making to test `tested` documents. */
function bitSetFor(view: IndexView, s: Selection, tested: number): Uint32Array | undefined {
  return s.made() || tested * BIT_SET_SHARE >= view.index.size ? s.docsIn() : undefined;
}

/** Sets each filter's bit in `fail[i]` for every document `docs[i]` it leaves out. */
export function markFailures(
  view: IndexView,
  filters: readonly Selection[],
  docs: Int32Array,
  fail: Uint32Array,
): void {
  for (const s of filters) {
    const set = bitSetFor(view, s, docs.length);
    if (set) markMissing(set, docs, fail, s.bit);
    else for (let i = 0; i < docs.length; i++) if (!s.keeps(docs[i]!)) fail[i]! |= s.bit;
  }
}

/**
 * The documents of `docs` a caller sees that every filter keeps, in one pass over them where the
 * bit sets serve (`docs` undefined: the caller's whole catalogue); a list made by the pass is the
 * search's `scratch`.
 */
export function visibleKept(
  view: IndexView,
  groups: readonly string[],
  docs: Int32Array | undefined,
  filters: readonly Selection[],
  scratch?: Scratch,
): Int32Array {
  let tested = docs ?? view.visibleAll(groups);
  const sets: Uint32Array[] = [];
  if (docs) {
    const visible = view.visibleBitSet(groups, docs.length * BIT_SET_SHARE >= view.index.size);
    if (visible) sets.push(visible);
    else tested = view.index.visibleDocs(view.callerMasks(groups), docs);
  }
  const oneByOne: Selection[] = [];
  for (const s of filters) {
    const set = bitSetFor(view, s, tested.length);
    if (set) sets.push(set);
    else oneByOne.push(s);
  }
  let acc = sets.length > 0 ? keepIn(tested, sets, scratch?.int32(tested.length)) : tested;
  for (const s of oneByOne) acc = filterDocs(acc, s.keeps);
  return acc;
}

/**
 * Makes, with `step` between them, the sets `visibleKept` and `markFailures` use that this index
 * version does not keep yet: the caller's visible documents (and their bit set) and each filter's bit
 * set, a pass over the whole index each. The first search of an index version (after every change of
 * the catalogue) made them all in one turn of the event loop: some 40 ms at a million documents.
 */
export async function makeSets(
  view: IndexView,
  groups: readonly string[],
  docs: Int32Array | undefined,
  filters: readonly Selection[],
  step: () => Promise<void>,
): Promise<void> {
  const size = view.index.size;
  let tested = docs?.length;
  if (tested === undefined) {
    tested = (await view.visibleAllInSteps(groups, step)).length;
  } else if (tested * BIT_SET_SHARE >= size && !view.visibleBitSet(groups, false)) {
    await view.visibleAllInSteps(groups, step);
    await step();
    view.visibleBitSet(groups, true);
  }
  // A filter of a shown facet tests fewer documents (those the others keep): at worst its set is
  // made here where it would not have been, and kept for the next search.
  for (const s of filters) {
    if (s.made() || tested * BIT_SET_SHARE < size) continue;
    await step();
    s.docsIn();
  }
}

/** The facet filters of a search, merged per field (values of one field are ORed). */
export function selections(
  view: IndexView,
  filter: FacetSelection[],
  lang: string | undefined,
  hidden?: ReadonlySet<string>,
): Selection[] {
  const merged = new Map<string, { values: string[]; range: boolean }>();
  for (const s of filter) {
    const m = merged.get(s.key) ?? { values: [], range: false };
    m.values.push(...s.values);
    m.range ||= s.range === true;
    merged.set(s.key, m);
  }
  const acc: Selection[] = [];
  for (const [key, sel] of merged) {
    if (sel.values.length === 0) continue;
    const field = hidden?.has(key) ? undefined : view.fields.get(key);
    if (!field) throw new SearchInputError('filter', `The filter names the field '${key}', which does not exist.`);
    if (acc.length >= 31) throw new SearchInputError('filter', 'At most 31 fields can be filtered at once.');
    const bit = 1 << acc.length;
    const isRange = sel.range || (!field.coded && field.numeric);
    if (isRange) {
      if (!field.numeric) {
        throw new SearchInputError('filter', `The field '${key}' has no numbers or dates, so it cannot be a range.`);
      }
      const ranges = sel.values.map((v) => parseRange(key, v, field.type === 'date'));
      const col = view.index.numbers.get(key)!;
      const setKey = `inside ${key} ${ranges.map(([lo, hi]) => `${lo}..${hi}`).join(',')}`;
      acc.push({
        field,
        bit,
        keeps: (d) => {
          const v = col.get(d);
          return ranges.some(([lo, hi]) => v >= lo && v <= hi);
        },
        docsIn: () => view.cached(setKey, () => col.docsInside(ranges, view.index.size)),
        made: () => view.kept(setKey) !== undefined,
      });
    } else {
      if (!field.coded) throw new SearchInputError('filter', `The field '${key}' cannot be filtered by value.`);
      const name = view.columnName(key, lang);
      const col = view.column(key, lang);
      const wanted = new Uint8Array(col.values.length);
      const codes: number[] = [];
      for (const v of sel.values) {
        const code = col.dict.get(v);
        if (code !== undefined && wanted[code] === 0) {
          wanted[code] = 1;
          codes.push(code);
        }
      }
      codes.sort((a, b) => a - b);
      const setKey = `with ${name} ${codes.join(',')}`;
      acc.push({
        field,
        bit,
        keeps: (d) => col.has(d, wanted),
        docsIn: () => view.cached(setKey, () => col.docsWith(wanted, view.index.size)),
        made: () => view.kept(setKey) !== undefined,
      });
    }
  }
  return acc;
}

/** Documents (all when `docs` is not given) having one of `values` in a column. */
export function matchCodes(
  view: IndexView,
  docs: Int32Array | undefined,
  col: CodeColumn,
  values: readonly string[],
): Int32Array {
  const wanted = new Uint8Array(col.values.length);
  for (const v of values) {
    const c = col.dict.get(v);
    if (c !== undefined) wanted[c] = 1;
  }
  return filterDocs(docs ?? view.allDocs(), (d) => col.has(d, wanted));
}

export function minMax(view: IndexView, field: string, docs: Int32Array): { min: number | null; max: number | null } {
  const col = view.index.numbers.get(field)!;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < docs.length; i++) {
    const v = col.get(docs[i]!);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? { min, max } : { min: null, max: null };
}

/**
 * Counts of a column's values over documents. Counts over a caller's whole visible catalogue (the
 * dashboard and an empty search) are kept with the view.
 */
export function countValues(view: IndexView, columnName: string, col: CodeColumn, docs: Int32Array): Int32Array {
  const count = (): Int32Array => {
    const counts = new Int32Array(col.values.length);
    col.count(docs, counts);
    return counts;
  };
  const key = countsKey(view, columnName, docs);
  return key === undefined ? count() : view.cached(key, count);
}

/** Documents counted between two steps of a search's count (a few milliseconds at most). */
const COUNT_PART = 1 << 18;

/**
 * countValues for a search, which holds its index version while it yields: `step` runs between parts
 * of COUNT_PART documents, so a count over ten million lets other requests run in between.
 */
export async function countValuesInSteps(
  view: IndexView,
  columnName: string,
  col: CodeColumn,
  docs: Int32Array,
  step: () => Promise<void>,
): Promise<Int32Array> {
  const key = countsKey(view, columnName, docs);
  const kept = key === undefined ? undefined : view.kept<Int32Array>(key);
  if (kept) return kept;
  const counts = new Int32Array(col.values.length);
  for (let from = 0; from < docs.length; from += COUNT_PART) {
    if (from > 0) await step();
    col.count(docs.subarray(from, from + COUNT_PART), counts);
  }
  if (key !== undefined) view.keep(key, counts);
  return counts;
}

/** Where counts over a caller's whole catalogue are kept with the view; undefined for other documents. */
function countsKey(view: IndexView, columnName: string, docs: Int32Array): string | undefined {
  const whole = view.wholeCatalogueOf(docs);
  return whole === undefined ? undefined : `counts ${columnName} ${whole}`;
}

/**
 * A facet's values with counts over `docs`, one page of them: in the order the caller asks for (the
 * search settings' value order of the facet), else in the index field's configured order.
 */
export async function facetValues(
  view: IndexView,
  field: SearchField,
  lang: string | undefined,
  docs: Int32Array,
  page: { offset: number; limit: number; step: () => Promise<void> },
  order?: FacetOrder,
): Promise<FacetValue[]> {
  const { offset, limit } = page;
  const name = view.columnName(field.field_name, lang);
  const col = view.column(field.field_name, lang);
  const counts = await countValuesInSteps(view, name, col, docs, page.step);
  const byCount = (order?.sort ?? field.options.sort) === 'count';
  const dir = order?.orientation ?? field.options.sort_orientation ?? (byCount ? 'desc' : 'asc');
  /** The values with a count in the asked order: all of them, or the first `first`. */
  const ordered = (first = Infinity): Int32Array => {
    const codes: number[] = [];
    for (let c = 0; c < counts.length; c++) if (counts[c]! > 0) codes.push(c);
    const sign = dir === 'asc' ? 1 : -1;
    const rank = view.cached(`ranks ${name}`, () => alphabeticalRanks(field, col));
    const byValue = (a: number, b: number): number => rank[a]! - rank[b]!;
    const compare = (a: number, b: number): number =>
      byCount ? sign * (counts[a]! - counts[b]!) || byValue(a, b) : sign * byValue(a, b) || a - b;
    return Int32Array.from(firstInOrder(codes, compare, first));
  };
  // Over a caller's whole catalogue (kept counts) the order is kept too: sorting thousands of
  // values took half a millisecond of every empty search. Over other documents only the values up to
  // the page's end are put in order (a search's keywords: a hundred of some thousands).
  const whole = view.wholeCatalogueOf(docs);
  const codes =
    whole === undefined
      ? ordered(offset + limit)
      : view.cached(`facet order ${name} ${whole} ${byCount ? 'count' : 'value'} ${dir}`, () => ordered());
  const end = Math.min(codes.length, offset + limit);
  const values: FacetValue[] = [];
  for (let i = offset; i < end; i++) {
    const c = codes[i]!;
    const value = col.values[c]!;
    const count = counts[c]!;
    const label = view.label(field.field_name, value);
    values.push(label === undefined ? { value, count } : { value, label, count });
  }
  return values;
}

/**
 * The first `first` of `items` in the order of `compare` (a total order), sorted: a heap of the
 * best `first` seen, whose worst leaves when a better one comes, so thousands of values cost a
 * comparison each rather than a sort.
 */
export function firstInOrder(items: number[], compare: (a: number, b: number) => number, first: number): number[] {
  if (items.length <= first * 2) return items.sort(compare).slice(0, first);
  // A max-heap under `compare`: heap[0] is the worst kept.
  const heap: number[] = [];
  const down = (from: number): void => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && compare(heap[l]!, heap[worst]!) > 0) worst = l;
      if (r < heap.length && compare(heap[r]!, heap[worst]!) > 0) worst = r;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst]!, heap[i]!];
      i = worst;
    }
  };
  for (const item of items) {
    if (heap.length < first) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (compare(heap[i]!, heap[parent]!) <= 0) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (first > 0 && compare(item, heap[0]!) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(compare);
}

/** Position of every value of a field in alphabetical order (folded, then exact; numbers by value). */
function alphabeticalRanks(field: SearchField, col: CodeColumn): Int32Array {
  const numeric = field.numeric;
  const folded = col.values.map((v) => (numeric ? '' : fold(v)));
  const order = col.values.map((_, i) => i);
  order.sort((a, b) =>
    numeric
      ? Number(col.values[a]) - Number(col.values[b])
      : compareText(folded[a]!, folded[b]!) || compareText(col.values[a]!, col.values[b]!),
  );
  const rank = new Int32Array(order.length);
  order.forEach((code, i) => (rank[code] = i));
  return rank;
}

/** A number, or for dates also an ISO date; NaN when it is neither. */
export function parseNumber(text: string, date: boolean): number {
  const t = text.trim();
  if (t !== '' && Number.isFinite(Number(t))) return Number(t);
  return date ? Date.parse(t) : NaN;
}

/** Parses 'from TO to' ('*' for an open end) into an inclusive interval. */
export function parseRange(field: string, text: string, date: boolean): [number, number] {
  const m = /^\s*(\S+)\s+TO\s+(\S+)\s*$/.exec(text);
  const bad = () =>
    new SearchInputError('filter', `The range '${text}' of '${field}' must be written 'from TO to' with numbers.`);
  const from = m?.[1];
  const to = m?.[2];
  if (from === undefined || to === undefined) throw bad();
  const lo = from === '*' ? -Infinity : parseNumber(from, date);
  const hi = to === '*' ? Infinity : parseNumber(to, date);
  if (Number.isNaN(lo) || Number.isNaN(hi)) throw bad();
  if (lo > hi) {
    throw new SearchInputError('filter', `The range '${text}' of '${field}' starts after it ends.`);
  }
  return [lo, hi];
}
