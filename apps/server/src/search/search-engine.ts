import { colorCodes } from '@vitrine/contract/fields';
import { isLive } from '../access/rule.ts';
import type { FacetSelection, SearchAnswer, SuggestionGroup, SuggestionSelection } from '@vitrine/contract/search';
import { FacetIndex, intersect, subtract, union, type CodeColumn, type IndexRow } from './facet-index.ts';
import type { FieldRegistry, SearchField } from './fields.ts';
import { columnOf } from './fields.ts';
import { parseQuery, positiveTextAtoms, QuerySyntaxError, type QueryNode, type TextAtom } from './query.ts';
import { pickLanguage } from './asset-presenter.ts';
import type { AssetBatch, SearchRepository } from './search.repository.ts';
import { fold, indexText, tokenize } from './text.ts';
import type { TextDocument, TextIndex } from './text-index.ts';

/** A query or filter the engine cannot answer; `param` names the request parameter at fault. */
export class SearchInputError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

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
}

type FacetValue = SearchAnswer['facetCounts']['facetFields'][string][number];

export interface EngineResult {
  ids: number[];
  numFound: number;
  facetFields: Record<string, FacetValue[]>;
  facetRanges: Record<string, { min: number | null; max: number | null }>;
}

export type Progress = (phase: string, done: number, total: number) => void;

/** Changes are re-read from a little before the watermark: a transaction may commit late. */
const WATERMARK_MARGIN_MS = 10_000;
const BATCH = 5000;
/** Below this many matches sorting them directly beats walking a precomputed order. */
const DIRECT_SORT_LIMIT = 2_000;
const SUGGESTION_DOCS = 50;
/** Document numbers the text cache may hold (4 bytes each). */
const TEXT_CACHE_IDS = 8_000_000;

interface Selection {
  field: SearchField;
  bit: number;
  pass: (doc: number) => boolean;
}

/**
 * The search engine: full text from the database's own index (FTS5 or tsvector, behind TextIndex),
 * facets, filters, visibility and sorting over the in-memory FacetIndex. It catches up with
 * catalogue changes made by any process: each call reads catalogue_state.generation once and, when
 * it moved, re-reads the assets changed since its watermark.
 */
export class SearchEngine {
  private index: FacetIndex;
  private generation = -1;
  private watermark = -1;
  private refreshing: Promise<void> | undefined;
  private collectionNames = new Map<number, string>();
  private readonly languages = new Set<string>(baseContentLanguages);
  /** Languages the current index has columns for (per-language fields keep one column each). */
  private indexLanguages: readonly string[] = baseContentLanguages;
  private readonly sortOrders = new Map<string, { version: number; order: Int32Array }>();
  private readonly visibleCounts = new WeakMap<CodeColumn, Map<string, { version: number; counts: Int32Array }>>();
  private readonly suggestionTokens = new WeakMap<
    CodeColumn,
    { version: number; tokens: string[]; codes: Int32Array }
  >();
  private readonly ranks = new WeakMap<CodeColumn, { size: number; rank: Int32Array }>();
  private readonly textCache = new Map<string, { version: number; docs: Int32Array }>();
  private readonly visibleCache = new Map<string, { version: number; docs: Int32Array }>();
  /** The arrays visibleAll() answered, and facet counts over them (weakly held: they die with it). */
  private readonly wholeCatalogues = new WeakSet<Int32Array>();
  private readonly wholeCounts = new WeakMap<Int32Array, Map<CodeColumn, Int32Array>>();
  private allDocsCache: { version: number; docs: Int32Array } | undefined;

  constructor(
    private readonly repository: SearchRepository,
    private readonly text: TextIndex,
    readonly fields: FieldRegistry,
    private readonly options: { directSortLimit?: number } = {},
  ) {
    this.index = this.emptyIndex();
  }

  private emptyIndex(): FacetIndex {
    return new FacetIndex(
      this.fields.coded.flatMap((f) =>
        this.isPerLanguage(f) ? this.indexLanguages.map((l) => languageColumn(f.field_name, l)) : [f.field_name],
      ),
      this.fields.numeric.map((f) => f.field_name),
      ['filename'],
    );
  }

  /** Value fields the in-memory index needs (the others are columns or collections). */
  private isPerLanguage(field: SearchField): boolean {
    return field.coded && field.storage === 'value' && field.localized === true;
  }

  /** The index column holding a coded field's values in a content language. */
  private column(name: string, lang = 'en'): CodeColumn {
    const field = this.fields.get(name);
    if (!field || !this.isPerLanguage(field)) return this.index.codes.get(name)!;
    const own = this.indexLanguages.includes(lang) ? lang : 'en';
    return this.index.codes.get(languageColumn(name, own))!;
  }

  /** Every column of a coded field: one, or one per content language. */
  private columns(name: string): CodeColumn[] {
    const field = this.fields.get(name)!;
    if (!this.isPerLanguage(field)) return [this.index.codes.get(name)!];
    return this.indexLanguages.map((l) => this.index.codes.get(languageColumn(name, l))!);
  }

  private get indexValueFields(): string[] {
    return this.fields.all
      .filter((f) => (f.coded || f.numeric) && f.storage === 'value' && f.field_name !== 'meta_collections')
      .map((f) => f.field_name);
  }

  private get textValueFields(): string[] {
    return this.fields.searchable.filter((f) => f.storage === 'value').map((f) => f.field_name);
  }

  /** Brings the index up to date with the catalogue; cheap when nothing changed. */
  async refresh(progress?: Progress): Promise<void> {
    this.refreshing ??= this.catchUp(progress).finally(() => {
      this.refreshing = undefined;
    });
    await this.refreshing;
  }

  private async catchUp(progress?: Progress): Promise<void> {
    const generation = await this.repository.generation();
    if (generation === this.generation) return;
    await this.catchUpText(generation, progress);
    if (this.watermark === -1) await this.loadAll(progress);
    else if (!(await this.applyChanges())) await this.loadAll(progress);
    this.collectionNames = new Map((await this.repository.collections()).map((c) => [c.id, c.name]));
    this.generation = generation;
  }

  private async loadAll(progress?: Progress): Promise<void> {
    this.indexLanguages = [...this.languages].sort();
    await this.loadAllOnce(progress);
    // A language first seen during the load needs its own columns, filled for every asset.
    if (this.languages.size !== this.indexLanguages.length) {
      this.indexLanguages = [...this.languages].sort();
      await this.loadAllOnce(progress);
    }
  }

  private async loadAllOnce(progress?: Progress): Promise<void> {
    const watermark = await this.repository.maxUpdatedAt();
    const total = progress ? await this.repository.countAssets() : 0;
    const index = this.emptyIndex();
    let after = 0;
    let done = 0;
    for (;;) {
      const ids = await this.repository.activeIdsAfter(after, BATCH);
      if (ids.length === 0) break;
      const batch = await this.repository.batch(ids, this.indexValueFields);
      for (const row of this.indexRows(batch)) index.put(row, true);
      after = ids[ids.length - 1]!;
      done += ids.length;
      progress?.('facet index', done, total);
    }
    index.pack();
    // Versions only grow, also across rebuilds, so no cache mistakes the new index for the old.
    index.version += this.index.version + 1;
    this.index = index;
    this.watermark = watermark;
  }

  /** Applies changed assets; answers false when the index must be rebuilt instead. */
  private async applyChanges(): Promise<boolean> {
    let after = 0;
    let watermark = this.watermark;
    for (;;) {
      const changed = await this.repository.changedSince(this.watermark - WATERMARK_MARGIN_MS, after, BATCH);
      if (changed.length === 0) break;
      const batch = await this.repository.batch(
        changed.map((c) => c.id),
        this.indexValueFields,
      );
      const rows = this.indexRows(batch);
      if (this.languages.size !== this.indexLanguages.length) return false;
      for (const row of rows) if (!this.index.put(row)) return false;
      for (const c of changed) watermark = Math.max(watermark, c.updated_at);
      after = changed[changed.length - 1].id;
    }
    this.watermark = watermark;
    return true;
  }

  /**
   * Feeds the shared full-text index with assets changed since its watermark. Skipped when the
   * generation is the one the last catch-up (of any process) started from: nothing changed since.
   */
  private async catchUpText(generation: number, progress?: Progress): Promise<void> {
    const state = await this.repository.textState();
    if (state.generation === generation) return;
    const from = state.watermark;
    const upTo = await this.repository.maxUpdatedAt();
    const total = progress ? await this.repository.countAssets() : 0;
    let after = 0;
    let done = 0;
    for (;;) {
      const ids =
        from === -1
          ? await this.repository.activeIdsAfter(after, BATCH)
          : (await this.repository.changedSince(from - WATERMARK_MARGIN_MS, after, BATCH)).map((c) => c.id);
      if (ids.length === 0) break;
      const batch = await this.repository.batch(ids, this.textValueFields);
      const docs = this.textDocuments(batch);
      const kept = new Set(docs.map((d) => d.id));
      await this.text.write(
        docs,
        ids.filter((id) => !kept.has(id)),
      );
      after = ids[ids.length - 1]!;
      done += ids.length;
      progress?.('text index', done, from === -1 ? total : done);
    }
    await this.repository.advanceTextState(Math.max(upTo, from), generation);
  }

  private grouped<T extends { asset_id: number }>(rows: T[]): Map<number, T[]> {
    const acc = new Map<number, T[]>();
    for (const r of rows) {
      const list = acc.get(r.asset_id);
      if (list) list.push(r);
      else acc.set(r.asset_id, [r]);
    }
    return acc;
  }

  private indexRows(batch: AssetBatch): IndexRow[] {
    const values = this.grouped(batch.values);
    const access = this.grouped(batch.access);
    const collections = this.grouped(batch.collections);
    return batch.assets.map((a) => {
      const own = values.get(a.id) ?? [];
      for (const v of own) if (v.lang) this.languages.add(v.lang);
      const row: IndexRow = {
        id: a.id,
        active: isLive(a.status),
        access: (access.get(a.id) ?? []).map((g) => g.group_name),
        codes: {},
        numbers: {},
        strings: { filename: a.filename },
      };
      const column = (name: string): string | number | null =>
        (a as unknown as Record<string, string | number | null>)[columnOf[name] ?? name] ?? null;
      for (const f of this.fields.coded) {
        const name = f.field_name;
        if (name === 'meta_collections') {
          row.codes[name] = (collections.get(a.id) ?? []).map((c) => String(c.collection_id));
        } else if (f.storage === 'column') {
          const v = column(name);
          row.codes[name] = v == null ? [] : [String(v)];
        } else if (this.isPerLanguage(f)) {
          // Per language the values that language's docs show (asset-presenter), so a value that
          // exists in one language only still counts once.
          const mine = own.filter((v) => v.field === name);
          for (const lang of this.indexLanguages) {
            row.codes[languageColumn(name, lang)] = pickLanguage(mine, lang).map((v) => v.value);
          }
        } else {
          row.codes[name] = own.filter((v) => v.field === name).map((v) => v.value);
        }
      }
      for (const f of this.fields.numeric) {
        const name = f.field_name;
        if (f.storage === 'column') {
          const v = column(name);
          row.numbers[name] = v == null ? null : Number(v);
        } else {
          const v = own.find((x) => x.field === name);
          row.numbers[name] = v ? parseNumber(v.value, f.type === 'date') : null;
        }
      }
      return row;
    });
  }

  private textDocuments(batch: AssetBatch): TextDocument[] {
    const values = this.grouped(batch.values);
    return batch.assets
      .filter((a) => isLive(a.status))
      .map((a) => {
        const own = values.get(a.id) ?? [];
        return {
          id: a.id,
          title: indexText(own.filter((v) => v.field === 'title').map((v) => v.value)),
          body: indexText([...own.map((v) => v.value), a.filename]),
        };
      });
  }

  // ---- answering ----------------------------------------------------------------------------

  private allDocs(): Int32Array {
    const version = this.index.version;
    if (this.allDocsCache?.version !== version) {
      const docs = new Int32Array(this.index.size);
      for (let i = 0; i < docs.length; i++) docs[i] = i;
      this.allDocsCache = { version, docs };
    }
    return this.allDocsCache.docs;
  }

  private fieldExists = (name: string): boolean => {
    const f = this.fields.get(name);
    return !!f && (f.coded || f.numeric);
  };

  private async evaluate(node: QueryNode, atoms: Map<string, Promise<Int32Array>>): Promise<Int32Array> {
    switch (node.kind) {
      case 'all':
        return this.allDocs();
      case 'text':
        return this.matchText(node, atoms);
      case 'field':
        return this.matchField(node.field, node.tokens, node.prefix, node.raw);
      case 'not':
        return subtract(this.allDocs(), await this.evaluate(node.item, atoms));
      case 'or': {
        let acc: Int32Array = new Int32Array(0);
        for (const item of node.items) acc = union(acc, await this.evaluate(item, atoms));
        return acc;
      }
      case 'and': {
        const positives = node.items.filter((n) => n.kind !== 'not');
        const negatives = node.items.flatMap((n) => (n.kind === 'not' ? [n.item] : []));
        const sets = await Promise.all(positives.map((n) => this.evaluate(n, atoms)));
        sets.sort((a, b) => a.length - b.length);
        let acc = sets.length > 0 ? sets[0] : this.allDocs();
        for (const s of sets.slice(1)) acc = intersect(acc, s);
        for (const n of negatives) if (acc.length > 0) acc = subtract(acc, await this.evaluate(n, atoms));
        return acc;
      }
    }
  }

  private matchText(atom: TextAtom, atoms: Map<string, Promise<Int32Array>>): Promise<Int32Array> {
    const key = `${atom.scope}|${atom.prefix ? 1 : 0}|${atom.tokens.join(' ')}`;
    let found = atoms.get(key);
    if (!found) {
      found = this.cachedMatch(key, atom);
      atoms.set(key, found);
    }
    return found;
  }

  /**
   * Text matches are kept until the index changes: paging through a result (infinite scroll) and
   * refining it with facets repeat the same words, and fetching the ids of a common word is the
   * dearest part of a search. Bounded by the number of ids held.
   */
  private async cachedMatch(key: string, atom: TextAtom): Promise<Int32Array> {
    const version = this.index.version;
    const hit = this.textCache.get(key);
    if (hit?.version === version) {
      this.textCache.delete(key);
      this.textCache.set(key, hit);
      return hit.docs;
    }
    const docs = this.index.docsOf(await this.text.match(atom));
    this.textCache.set(key, { version, docs });
    let held = 0;
    for (const entry of this.textCache.values()) held += entry.docs.length;
    for (const [k, entry] of this.textCache) {
      if (held <= TEXT_CACHE_IDS || k === key) break;
      held -= entry.docs.length;
      this.textCache.delete(k);
    }
    return docs;
  }

  /** Forgets cached text matches (benchmarks measure the uncached path with it). */
  clearTextCache(): void {
    this.textCache.clear();
  }

  /** Active documents a caller sees among the assets `ids` (a share link's scope). */
  private visibleOf(groups: readonly string[], ids: readonly number[]): Int32Array {
    const docs = this.index.docsOf([...new Set(ids)].sort((a, b) => a - b));
    return this.index.visibleDocs(this.index.callerMasks(groups), docs);
  }

  /** Active documents a caller sees in the whole catalogue, kept until the index changes. */
  private visibleAll(groups: readonly string[]): Int32Array {
    const key = [...groups].sort().join('\n');
    const version = this.index.version;
    const hit = this.visibleCache.get(key);
    if (hit?.version === version) return hit.docs;
    const docs = this.index.visibleDocs(this.index.callerMasks(groups));
    this.wholeCatalogues.add(docs);
    if (this.visibleCache.size >= 16) this.visibleCache.clear();
    this.visibleCache.set(key, { version, docs });
    return docs;
  }

  private matchField(name: string, tokens: string[], prefix: boolean, raw: string): Int32Array {
    const field = this.fields.get(name)!;
    const index = this.index;
    if (!field.coded) {
      const value = parseNumber(raw, field.type === 'date');
      const col = index.numbers.get(name)!;
      return this.filterDocs(this.allDocs(), (d) => col.get(d) === value);
    }
    // field:value is text search: it matches a value in any content language.
    let acc: Int32Array = new Int32Array(0);
    for (const col of this.columns(name)) {
      const wanted = new Uint8Array(col.values.length);
      let any = false;
      col.values.forEach((value, code) => {
        if (containsTokens(tokenize(value), tokens, prefix)) {
          wanted[code] = 1;
          any = true;
        }
      });
      if (any)
        acc = union(
          acc,
          this.filterDocs(this.allDocs(), (d) => col.has(d, wanted)),
        );
    }
    return acc;
  }

  private filterDocs(docs: Int32Array, keep: (doc: number) => boolean): Int32Array {
    const acc = new Int32Array(docs.length);
    let n = 0;
    for (let i = 0; i < docs.length; i++) if (keep(docs[i])) acc[n++] = docs[i]!;
    return acc.subarray(0, n);
  }

  private selections(filter: FacetSelection[], lang: string | undefined): Selection[] {
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
      const field = this.fields.get(key);
      if (!field) throw new SearchInputError('filter', `The filter names the field '${key}', which does not exist.`);
      if (acc.length >= 31) throw new SearchInputError('filter', 'At most 31 fields can be filtered at once.');
      const bit = 1 << acc.length;
      const isRange = sel.range || (!field.coded && field.numeric);
      if (isRange) {
        if (!field.numeric) {
          throw new SearchInputError('filter', `The field '${key}' has no numbers or dates, so it cannot be a range.`);
        }
        const ranges = sel.values.map((v) => parseRange(key, v, field.type === 'date'));
        const col = this.index.numbers.get(key)!;
        acc.push({
          field,
          bit,
          pass: (d) => {
            const v = col.get(d);
            return ranges.some(([lo, hi]) => v >= lo && v <= hi);
          },
        });
      } else {
        if (!field.coded) throw new SearchInputError('filter', `The field '${key}' cannot be filtered by value.`);
        const col = this.column(key, lang);
        const wanted = new Uint8Array(col.values.length);
        for (const v of sel.values) {
          const code = col.dict.get(v);
          if (code !== undefined) wanted[code] = 1;
        }
        acc.push({ field, bit, pass: (d) => col.has(d, wanted) });
      }
    }
    return acc;
  }

  /** Runs one search for a caller with these access groups. */
  async search(groups: readonly string[], query: EngineQuery): Promise<EngineResult> {
    await this.refresh();
    const index = this.index;
    const sort = query.sort ?? { field: 'score', dir: 'desc' };
    if (!this.fields.isSortable(sort.field)) {
      throw new SearchInputError('solr_sort', `Results cannot be sorted by '${sort.field}'.`);
    }
    const facetFields = [...new Set(query.facetFields ?? [])];
    for (const name of facetFields) {
      const f = this.fields.get(name);
      if (!f) throw new SearchInputError('solr_facetfields', `The facet field '${name}' does not exist.`);
      if (!f.coded && !(f.numeric && f.range_facet)) {
        throw new SearchInputError('solr_facetfields', `The field '${name}' is not a facet.`);
      }
    }
    const selections = this.selections(query.filter ?? [], query.lang);

    let tree: QueryNode;
    try {
      tree = parseQuery(query.q, this.fieldExists);
    } catch (err) {
      if (err instanceof QuerySyntaxError) throw new SearchInputError('solr_q', err.message);
      throw err;
    }
    const atoms = new Map<string, Promise<Int32Array>>();
    let docs = tree.kind === 'all' ? undefined : await this.evaluate(tree, atoms);
    if (query.ids) {
      const wanted = index.docsOf([...new Set(query.ids)].sort((a, b) => a - b));
      docs = docs ? intersect(docs, wanted) : wanted;
    }
    if (query.collection !== undefined) {
      docs = this.matchCodes(docs, this.column('meta_collections'), [String(query.collection)]);
    }
    for (const s of query.suggestions ?? []) {
      if (s.values.length === 0) continue;
      const f = this.fields.get(s.field_name);
      if (!f?.coded) {
        throw new SearchInputError('suggestions_filter', `Suggestions of the field '${s.field_name}' do not exist.`);
      }
      docs = this.matchCodes(docs, this.column(s.field_name, query.lang), s.values);
    }
    const base = docs ? index.visibleDocs(index.callerMasks(groups), docs) : this.visibleAll(groups);

    let result = base;
    let fail: Uint32Array | undefined;
    if (selections.length > 0) {
      fail = new Uint32Array(base.length);
      for (const s of selections) {
        for (let i = 0; i < base.length; i++) if (!s.pass(base[i])) fail[i] |= s.bit;
      }
      const f = fail;
      result = this.filterIndexed(base, (i) => f[i] === 0);
    }

    const facetCounts: EngineResult['facetFields'] = {};
    const facetRanges: EngineResult['facetRanges'] = {};
    for (const name of facetFields) {
      const field = this.fields.get(name)!;
      const own = selections.find((s) => s.field.field_name === name);
      const f = fail;
      const docsForFacet = own && f ? this.filterIndexed(base, (i) => (f[i] & ~own.bit) === 0) : result;
      if (field.numeric && field.range_facet) facetRanges[name] = this.minMax(name, docsForFacet);
      else {
        facetCounts[name] = this.facetValues(
          field,
          this.column(name, query.lang),
          docsForFacet,
          query.facetOffset ?? 0,
          query.facetLimit ?? 100,
        );
      }
    }

    const start = query.start ?? 0;
    const rows = query.rows ?? 25;
    const scores = sort.field === 'score' && tree.kind !== 'all' ? await this.scores(tree, atoms, result) : undefined;
    const page = this.page(result, sort, scores, start, rows, groups);
    return {
      ids: Array.from(page, (d) => index.ids[d]),
      numFound: result.length,
      facetFields: facetCounts,
      facetRanges,
    };
  }

  private filterIndexed(docs: Int32Array, keep: (i: number) => boolean): Int32Array {
    const acc = new Int32Array(docs.length);
    let n = 0;
    for (let i = 0; i < docs.length; i++) if (keep(i)) acc[n++] = docs[i]!;
    return acc.subarray(0, n);
  }

  private matchCodes(docs: Int32Array | undefined, col: CodeColumn, values: readonly string[]): Int32Array {
    const wanted = new Uint8Array(col.values.length);
    for (const v of values) {
      const c = col.dict.get(v);
      if (c !== undefined) wanted[c] = 1;
    }
    return this.filterDocs(docs ?? this.allDocs(), (d) => col.has(d, wanted));
  }

  private minMax(field: string, docs: Int32Array): { min: number | null; max: number | null } {
    const col = this.index.numbers.get(field)!.data;
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < docs.length; i++) {
      const v = col[docs[i]];
      if (v < min) min = v;
      if (v > max) max = v;
    }
    return min <= max ? { min, max } : { min: null, max: null };
  }

  private label(field: string, value: string): string | undefined {
    if (field === 'color_code') return colorCodes[Number(value)];
    if (field === 'meta_collections') return this.collectionNames.get(Number(value));
    return undefined;
  }

  /**
   * Counts of a field's values over documents. Counts over a caller's whole visible catalogue (the
   * dashboard and an empty search) are kept until the index changes.
   */
  private countValues(col: CodeColumn, docs: Int32Array): Int32Array {
    const whole = this.wholeCatalogues.has(docs);
    const cached = whole ? this.wholeCounts.get(docs)?.get(col) : undefined;
    if (cached?.length === col.values.length) return cached;
    const counts = new Int32Array(col.values.length);
    col.count(docs, counts);
    if (whole) {
      const perField = this.wholeCounts.get(docs) ?? new Map<CodeColumn, Int32Array>();
      perField.set(col, counts);
      this.wholeCounts.set(docs, perField);
    }
    return counts;
  }

  private facetValues(
    field: SearchField,
    col: CodeColumn,
    docs: Int32Array,
    offset: number,
    limit: number,
  ): FacetValue[] {
    const counts = this.countValues(col, docs);
    const codes: number[] = [];
    for (let c = 0; c < counts.length; c++) if (counts[c] > 0) codes.push(c);
    const byCount = field.options.sort === 'count';
    const dir = field.options.sort_orientation ?? (byCount ? 'desc' : 'asc');
    const sign = dir === 'asc' ? 1 : -1;
    const rank = this.alphabeticalRanks(field, col);
    const byValue = (a: number, b: number): number => rank[a] - rank[b];
    codes.sort((a, b) => (byCount ? sign * (counts[a] - counts[b]) || byValue(a, b) : sign * byValue(a, b) || a - b));
    return codes.slice(offset, offset + limit).map((c) => {
      const value = col.values[c];
      const label = this.label(field.field_name, value);
      return label === undefined ? { value, count: counts[c] } : { value, label, count: counts[c] };
    });
  }

  /** Position of every value of a field in alphabetical order (folded, then exact; numbers by value). */
  private alphabeticalRanks(field: SearchField, col: CodeColumn): Int32Array {
    const cached = this.ranks.get(col);
    if (cached?.size === col.values.length) return cached.rank;
    const numeric = field.numeric;
    const folded = col.values.map((v) => (numeric ? '' : fold(v)));
    const order = col.values.map((_, i) => i);
    order.sort((a, b) =>
      numeric
        ? Number(col.values[a]) - Number(col.values[b])
        : compareText(folded[a], folded[b]) || compareText(col.values[a], col.values[b]),
    );
    const rank = new Int32Array(order.length);
    order.forEach((code, i) => (rank[code] = i));
    this.ranks.set(col, { size: col.values.length, rank });
    return rank;
  }

  /**
   * Relevance: per positive word or phrase, one point when it occurs anywhere and one more when it
   * occurs in the title. Simple and the same on both databases; ties go to the newest asset.
   */
  private async scores(
    tree: QueryNode,
    atoms: Map<string, Promise<Int32Array>>,
    result: Int32Array,
  ): Promise<Uint8Array | undefined> {
    const positives = positiveTextAtoms(tree);
    if (positives.length === 0 || result.length === 0) return undefined;
    const scores = new Uint8Array(this.index.size);
    for (const atom of positives) {
      const all = await this.matchText(atom, atoms);
      const title = atom.scope === 'title' ? all : await this.matchText({ ...atom, scope: 'title' }, atoms);
      for (let i = 0; i < all.length; i++) scores[all[i]] = Math.min(255, scores[all[i]] + 1);
      for (let i = 0; i < title.length; i++) scores[title[i]] = Math.min(255, scores[title[i]] + 1);
    }
    return scores;
  }

  private page(
    result: Int32Array,
    sort: { field: string; dir: 'asc' | 'desc' },
    scores: Uint8Array | undefined,
    start: number,
    rows: number,
    groups: readonly string[],
  ): Int32Array {
    if (start >= result.length || rows === 0) return new Int32Array(0);
    const end = Math.min(result.length, start + rows);
    if (sort.field === 'score') {
      // Equal scores: newest (highest id) first, i.e. descending document order.
      const acc = new Int32Array(end - start);
      let seen = 0;
      let n = 0;
      const take = (d: number): boolean => {
        if (seen++ >= start) acc[n++] = d;
        return n < acc.length;
      };
      if (!scores) {
        for (let i = start; i < end; i++) acc[i - start] = result[result.length - 1 - i]!;
        return acc;
      }
      const levels = new Set<number>();
      for (let i = 0; i < result.length; i++) levels.add(scores[result[i]]);
      const order = [...levels].sort((a, b) => (sort.dir === 'desc' ? b - a : a - b));
      for (const level of order) {
        for (let i = result.length - 1; i >= 0; i--) {
          const d = result[i];
          if (scores[d] === level && !take(d)) return acc;
        }
      }
      return acc.subarray(0, n);
    }
    const cmp = this.comparator(sort.field, sort.dir);
    if (result.length <= (this.options.directSortLimit ?? DIRECT_SORT_LIMIT))
      return result.slice().sort(cmp).slice(start, end);
    const order = this.sortOrder(sort.field, sort.dir, cmp);
    const acc = new Int32Array(end - start);
    let seen = 0;
    let n = 0;
    if (this.wholeCatalogues.has(result)) {
      // The whole visible catalogue: walk the order and test visibility, no membership array.
      const caller = this.index.callerMasks(groups);
      for (let i = 0; i < order.length && n < acc.length; i++) {
        const d = order[i];
        if (this.index.visible(d, caller) && seen++ >= start) acc[n++] = d;
      }
      return acc;
    }
    const member = new Uint8Array(this.index.size);
    for (let i = 0; i < result.length; i++) member[result[i]] = 1;
    for (let i = 0; i < order.length && n < acc.length; i++) {
      const d = order[i];
      if (member[d] && seen++ >= start) acc[n++] = d;
    }
    return acc;
  }

  /** Orders documents by a field, missing values last, ties by descending asset id. */
  private comparator(field: string, dir: 'asc' | 'desc'): (a: number, b: number) => number {
    const sign = dir === 'asc' ? 1 : -1;
    const ids = this.index.ids;
    const strings = this.index.strings.get(field);
    if (strings) {
      return (a, b) => {
        const x = strings[a] ?? '';
        const y = strings[b] ?? '';
        return (x < y ? -sign : x > y ? sign : 0) || ids[b] - ids[a];
      };
    }
    const values = this.index.numbers.get(field)!.data;
    return (a, b) => {
      const x = values[a];
      const y = values[b];
      const xn = Number.isNaN(x);
      const yn = Number.isNaN(y);
      if (xn || yn) return xn && yn ? ids[b] - ids[a] : xn ? 1 : -1;
      return sign * (x - y) || ids[b] - ids[a];
    };
  }

  private sortOrder(field: string, dir: 'asc' | 'desc', cmp: (a: number, b: number) => number): Int32Array {
    const key = `${field} ${dir}`;
    const cached = this.sortOrders.get(key);
    if (cached?.version === this.index.version) return cached.order;
    const order = this.allDocs().slice().sort(cmp);
    this.sortOrders.set(key, { version: this.index.version, order });
    return order;
  }

  // ---- other answers --------------------------------------------------------------------------

  /** Per DAM collection, the newest asset the caller may see in it (of `only`, when given). */
  async collectionThumbnails(groups: readonly string[], only?: readonly number[]): Promise<Map<number, number>> {
    await this.refresh();
    const col = this.column('meta_collections');
    const docs = only ? this.visibleOf(groups, only) : this.visibleAll(groups);
    const acc = new Map<number, number>();
    for (let i = docs.length - 1; i >= 0; i--) {
      for (const code of col.get(docs[i])) {
        const id = Number(col.values[code]);
        if (!acc.has(id)) acc.set(id, this.index.ids[docs[i]]);
      }
    }
    return acc;
  }

  async collectionsById(): Promise<Map<number, string>> {
    await this.refresh();
    return this.collectionNames;
  }

  /** Content languages seen on the catalogue's values. */
  async contentLanguages(): Promise<string[]> {
    await this.refresh();
    return [...this.languages].sort();
  }

  /** Values of the given fields that contain words starting with the typed text. */
  async suggest(
    groups: readonly string[],
    text: string,
    fields: readonly string[],
    preview: number,
    lang?: string,
    /** The assets the caller is limited to (a share link's), when it is. */
    only?: readonly number[],
  ): Promise<SuggestionGroup[]> {
    await this.refresh();
    for (const name of fields) {
      if (!this.fields.get(name)?.coded) {
        throw new SearchInputError('fields', `The field '${name}' has no values to suggest.`);
      }
    }
    const typed = tokenize(text);
    if (typed.length === 0) return [];
    const groupsKey = [...groups].sort().join('\n');
    return fields.map((name) => {
      const col = this.column(name, lang);
      const counts = only
        ? this.countsOf(col, this.visibleOf(groups, only))
        : this.visibleCountsOf(col, groupsKey, groups);
      const { tokens, codes } = this.tokenList(col);
      const first = typed[0];
      let lo = lowerBound(tokens, first);
      const candidates = new Set<number>();
      for (; lo < tokens.length && tokens[lo].startsWith(first); lo++) candidates.add(codes[lo]);
      const matches = [...candidates].filter(
        (c) => counts[c] > 0 && typed.slice(1).every((t) => tokenize(col.values[c]).some((v) => v.startsWith(t))),
      );
      matches.sort(
        (a, b) =>
          counts[b] - counts[a] ||
          compareText(fold(col.values[a]), fold(col.values[b])) ||
          compareText(col.values[a], col.values[b]),
      );
      const docs = matches.slice(0, SUGGESTION_DOCS).map((c) => {
        const value = col.values[c];
        return { value, label: this.label(name, value) ?? value };
      });
      return { field_name: name, docs, preview: Math.min(preview, docs.length), total: matches.length };
    });
  }

  private countsOf(col: CodeColumn, docs: Int32Array): Int32Array {
    const counts = new Int32Array(col.values.length);
    col.count(docs, counts);
    return counts;
  }

  private visibleCountsOf(col: CodeColumn, groupsKey: string, groups: readonly string[]): Int32Array {
    const perColumn = this.visibleCounts.get(col) ?? new Map<string, { version: number; counts: Int32Array }>();
    this.visibleCounts.set(col, perColumn);
    const cached = perColumn.get(groupsKey);
    if (cached?.version === this.index.version) return cached.counts;
    const counts = new Int32Array(col.values.length);
    col.count(this.visibleAll(groups), counts);
    if (perColumn.size > 64) perColumn.clear();
    perColumn.set(groupsKey, { version: this.index.version, counts });
    return counts;
  }

  private tokenList(col: CodeColumn): { tokens: string[]; codes: Int32Array } {
    const cached = this.suggestionTokens.get(col);
    if (cached?.version === this.index.version) return cached;
    const pairs: [string, number][] = [];
    col.values.forEach((v, code) => {
      for (const t of new Set(tokenize(v))) pairs.push([t, code]);
    });
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    const entry = {
      version: this.index.version,
      tokens: pairs.map((p) => p[0]),
      codes: Int32Array.from(pairs, (p) => p[1]),
    };
    this.suggestionTokens.set(col, entry);
    return entry;
  }
}

const languageColumn = (field: string, lang: string): string => `${field}@${lang}`;

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** True when `words` holds `wanted` as a consecutive run (the last one as a prefix if asked). */
function containsTokens(words: readonly string[], wanted: readonly string[], prefix: boolean): boolean {
  const last = wanted.length - 1;
  for (let i = 0; i + wanted.length <= words.length; i++) {
    let ok = true;
    for (let j = 0; j <= last && ok; j++) {
      const w = words[i + j];
      ok = prefix && j === last ? w.startsWith(wanted[j]) : w === wanted[j];
    }
    if (ok) return true;
  }
  return false;
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
  if (!m) throw bad();
  const lo = m[1] === '*' ? -Infinity : parseNumber(m[1], date);
  const hi = m[2] === '*' ? Infinity : parseNumber(m[2], date);
  if (Number.isNaN(lo) || Number.isNaN(hi)) throw bad();
  if (lo > hi) {
    throw new SearchInputError('filter', `The range '${text}' of '${field}' starts after it ends.`);
  }
  return [lo, hi];
}
