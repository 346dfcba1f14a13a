import type { SuggestionGroup } from '@vitrine/contract/search';
import { CatchUp, type CatalogueWriting, type CatchUpOptions, type WrittenChange } from './catch-up/catch-up.ts';
import {
  passing,
  MAX_QUERY_PREFIXES,
  MAX_QUERY_TERMS,
  QUERY_TOO_COSTLY,
  SearchInputError,
  slicer,
  type EngineQuery,
  type EngineResult,
  type EngineTimes,
  type Progress,
} from './engine-types.ts';
import { QueryEvaluator, TextMatches } from './evaluate.ts';
import { intersect } from './facet-index/doc-sets.ts';
import { facetValues, makeSets, markFailures, matchCodes, minMax, selections, visibleKept } from './facets.ts';
import type { FieldRegistry } from './fields.ts';
import type { IndexView } from './index-view.ts';
import { COLOUR, SIMILAR_RANGE } from './alike.ts';
import { page, pageByCloseness, scores } from './paging.ts';
import { parseQuery, positiveVisualAtoms, QuerySyntaxError, queryTerms, type QueryNode } from './query.ts';
import type { EnginePorts } from './ports.ts';
import { ScratchPool, type Scratch } from './scratch.ts';
import { suggest } from './suggestions.ts';

export {
  baseContentLanguages,
  SearchInputError,
  type EngineQuery,
  type EngineResult,
  type EngineTimes,
  type Progress,
} from './engine-types.ts';

// `!` on array reads (noUncheckedIndexedAccess): loops and array sizes bound every index; checks would cost here.
export { parseNumber, parseRange } from './facets.ts';

/**
 * The search engine: full text from the database's own index (FTS5 or tsvector, behind TextIndex),
 * facets, filters, visibility and sorting over the in-memory FacetIndex. Its parts: catching up
 * with the catalogue (catch-up.ts), one index version as a search sees it with its caches
 * (index-view.ts, cache.ts), evaluating a query (evaluate.ts), facets and filters (facets.ts),
 * paging and sorting (paging.ts) and suggestions (suggestions.ts).
 */
export class SearchEngine<Tx = unknown> {
  private readonly catchUp: CatchUp<Tx>;
  private readonly textMatches: TextMatches;
  /** Memory for the document lists of searches, lent from one to the next. */
  private readonly scratch = new ScratchPool();
  /** The asked asset's part hashes, when the host keeps them (similar:'s second tier). */
  private readonly partsOf?: (id: number) => Promise<string[]>;

  constructor(
    ports: EnginePorts<Tx>,
    readonly fields: FieldRegistry,
    private readonly options: {
      directSortLimit?: number;
      /** Told how long the parts of each search took (metrics). */
      onTimes?: (times: EngineTimes) => void;
    } & CatchUpOptions = {},
  ) {
    this.catchUp = new CatchUp(ports, fields, options);
    this.partsOf = ports.catalogue.signatureParts?.bind(ports.catalogue);
    this.textMatches = new TextMatches(ports.text);
  }

  /** Brings the index up to date with the catalogue; cheap when nothing changed. */
  async refresh(progress?: Progress): Promise<void> {
    await this.catchUp.refresh(progress);
  }

  /** Whether a change of these fields can be applied as its writer wrote it (see CatchUp.takesAsWritten). */
  takesAsWritten(fields: readonly string[]): boolean {
    return this.catchUp.takesAsWritten(fields);
  }

  /** Applies a change this process committed from the values it wrote (see CatchUp.applyWritten). */
  async applyWritten(change: WrittenChange): Promise<boolean> {
    return this.catchUp.applyWritten(change);
  }

  /** Loads the index while this process writes the catalogue (see CatchUp.loadWhileWritten). */
  async loadWhileWritten(writing: CatalogueWriting, progress?: Progress): Promise<void> {
    await this.catchUp.loadWhileWritten(writing, progress);
  }

  /**
   * Writes the index snapshot (when the engine keeps one) unless it already holds this generation:
   * after an import, and at shutdown.
   */
  async saveSnapshot(): Promise<void> {
    await this.catchUp.saveSnapshot();
  }

  /** At shutdown: this process no longer holds catalogue changes back from the purge. */
  async leave(): Promise<void> {
    await this.catchUp.leave();
  }

  /** Entries and bytes the text cache holds (it is bounded by TEXT_CACHE). */
  get textCacheHeld(): { entries: number; bytes: number } {
    return this.textMatches.held;
  }

  /** Forgets cached text matches (benchmarks measure the uncached path with it). */
  clearTextCache(): void {
    this.textMatches.clear();
  }

  private fieldExists = (name: string): boolean => {
    const f = this.fields.get(name);
    return !!f && (f.coded || f.numeric);
  };

  /** Runs one search for a caller with these access groups. */
  async search(groups: readonly string[], query: EngineQuery): Promise<EngineResult> {
    await this.refresh();
    return this.catchUp.read(async (view) => {
      const scratch = this.scratch.lease();
      try {
        return await this.answer(view, groups, query, scratch);
      } finally {
        scratch.release();
      }
    });
  }

  /** Bytes the index's visual signatures take (similar:, colour:; the memory bound). */
  get visualBytes(): number {
    return this.catchUp.view().index.visual.bytes;
  }

  /** True once the index has been loaded (readiness). */
  get loaded(): boolean {
    return this.catchUp.loaded;
  }

  /**
   * Calls `listener` whenever the index holds assets anew: with their ids when it applied a change of
   * the catalogue to them (before any search sees it), with 'all' when a whole index was loaded.
   * What the host keeps of assets beside the index (their presented rows) is forgotten there, so it
   * is never older than the index. Answers the function that stops the calls.
   */
  onChanged(listener: (ids: readonly number[] | 'all') => void): () => void {
    this.catchUp.listeners.add(listener);
    return () => this.catchUp.listeners.delete(listener);
  }

  /** The last catalogue change the index holds, and when that was the newest one (metrics). */
  get position(): { applied: number; currentAt: number } {
    return this.catchUp.position;
  }

  /** One search's answer; its document lists are `scratch`'s, so none of them may be kept past it. */
  private async answer(
    view: IndexView,
    groups: readonly string[],
    query: EngineQuery,
    scratch: Scratch,
  ): Promise<EngineResult> {
    const index = view.index;
    const sort = query.sort ?? { field: 'score', dir: 'desc' };
    const hidden = query.hidden;
    const fieldOf = (name: string) => (hidden?.has(name) ? undefined : this.fields.get(name));
    if (hidden?.has(sort.field) || !this.fields.isSortable(sort.field)) {
      throw new SearchInputError('solr_sort', `Results cannot be sorted by '${sort.field}'.`);
    }
    const facetFields = [...new Set(query.facetFields ?? [])];
    for (const name of facetFields) {
      const f = fieldOf(name);
      if (!f) throw new SearchInputError('solr_facetfields', `The facet field '${name}' does not exist.`);
      if (!f.coded && !(f.numeric && f.range_facet)) {
        throw new SearchInputError('solr_facetfields', `The field '${name}' is not a facet.`);
      }
    }
    const filters = selections(view, query.filter ?? [], query.lang, hidden);

    let tree: QueryNode;
    try {
      tree = parseQuery(query.q, (name) => !hidden?.has(name) && this.fieldExists(name));
    } catch (err) {
      if (err instanceof QuerySyntaxError) throw new SearchInputError('solr_q', err.message);
      throw err;
    }
    const { terms, prefixes } = queryTerms(tree);
    if (terms > MAX_QUERY_TERMS) {
      throw new SearchInputError(
        'solr_q',
        `The query has ${terms} words; at most ${MAX_QUERY_TERMS} can be searched at once.`,
        QUERY_TOO_COSTLY,
      );
    }
    if (prefixes > MAX_QUERY_PREFIXES) {
      throw new SearchInputError(
        'solr_q',
        `The query has ${prefixes} words ending in '*'; at most ${MAX_QUERY_PREFIXES} can be searched at once.`,
        QUERY_TOO_COSTLY,
      );
    }
    const started = performance.now();
    // Matching, making the sets of a new index version, and counting a facet over a whole catalogue
    // take milliseconds each (over ten million, a hundred or more): other requests run between them.
    const step = slicer();
    const evaluator = new QueryEvaluator(view, this.textMatches, groups, this.partsOf, step);
    let docs = tree.kind === 'all' ? undefined : await evaluator.evaluate(tree);
    if (query.ids) {
      const wanted = index.docsOf([...new Set(query.ids)].sort((a, b) => a - b));
      docs = docs ? intersect(docs, wanted) : wanted;
    }
    if (query.collection !== undefined) {
      docs = matchCodes(view, docs, view.column('meta_collections'), [String(query.collection)]);
    }
    for (const s of query.suggestions ?? []) {
      if (s.values.length === 0) continue;
      const f = fieldOf(s.field_name);
      if (!f?.coded) {
        throw new SearchInputError('suggestions_filter', `Suggestions of the field '${s.field_name}' do not exist.`);
      }
      docs = matchCodes(view, docs, view.column(s.field_name, query.lang), s.values);
    }
    // Filters of fields not shown as facets are applied with visibility at once; those of facets
    // mark their failures, since a facet counts its values without its own filter.
    const shown = new Set(facetFields);
    await makeSets(view, groups, docs, filters, step);
    const base = visibleKept(
      view,
      groups,
      docs,
      filters.filter((s) => !shown.has(s.field.field_name)),
      scratch,
    );
    const marked = filters.filter((s) => shown.has(s.field.field_name));

    const matched = performance.now();
    let result = base;
    let fail: Uint32Array | undefined;
    if (marked.length > 0) {
      fail = scratch.uint32(base.length);
      markFailures(view, marked, base, fail);
      result = passing(base, fail, ~0, scratch.int32(base.length));
    }

    const facetCounts: EngineResult['facetFields'] = {};
    const facetRanges: EngineResult['facetRanges'] = {};
    for (const name of facetFields) {
      await step();
      const field = this.fields.get(name)!;
      const own = marked.find((s) => s.field.field_name === name);
      const docsForFacet = own && fail ? passing(base, fail, ~own.bit, scratch.int32(base.length)) : result;
      if (field.numeric && field.range_facet) facetRanges[name] = minMax(view, name, docsForFacet);
      else {
        facetCounts[name] = await facetValues(
          view,
          field,
          query.lang,
          docsForFacet,
          { offset: query.facetOffset ?? 0, limit: query.facetLimit ?? 100, step },
          query.facetSort?.get(name),
        );
      }
    }

    await step();
    const counted = performance.now();
    const start = query.start ?? 0;
    const rows = query.rows ?? 25;
    // similar: and colour: rank by closeness where the order is the score's (the default).
    const visual = sort.field === 'score' ? positiveVisualAtoms(tree) : [];
    const relevance =
      sort.field === 'score' && tree.kind !== 'all' && visual.length === 0
        ? await scores(view, tree, evaluator, result, scratch)
        : undefined;
    const ids =
      visual.length > 0
        ? pageByCloseness(
            result,
            await Promise.all(
              visual.map(async (atom) => ({
                closeness: await evaluator.closeness(atom),
                cutoff: atom.kind === 'similar' ? SIMILAR_RANGE : COLOUR.cutoff,
              })),
            ),
            sort.dir,
            start,
            rows,
            scratch,
          )
        : page(view, result, sort, relevance, start, rows, groups, scratch, this.options.directSortLimit);
    this.options.onTimes?.({ text: matched - started, facets: counted - matched, sort: performance.now() - counted });
    return {
      ids: Array.from(ids, (d) => index.idOf(d)),
      numFound: result.length,
      facetFields: facetCounts,
      facetRanges,
    };
  }

  /** Per DAM collection, the newest asset the caller may see in it (of `only`, when given). */
  async collectionThumbnails(
    groups: readonly string[],
    only?: readonly number[],
    /** The tile each collection has chosen (by collection id): kept where the caller sees it in the collection. */
    chosen: ReadonlyMap<number, number> = new Map(),
  ): Promise<Map<number, number>> {
    await this.refresh();
    const view = this.catchUp.view();
    const col = view.column('meta_collections');
    const docs = only ? view.visibleOf(groups, only) : view.visibleAll(groups);
    const acc = new Map<number, number>();
    const kept = new Set<number>();
    for (let i = docs.length - 1; i >= 0; i--) {
      const d = docs[i]!;
      const asset = view.index.ids[d]!;
      for (const code of col.get(d)) {
        const id = Number(col.values[code]);
        if (!acc.has(id)) acc.set(id, asset);
        if (chosen.get(id) === asset) kept.add(id);
      }
    }
    for (const id of kept) acc.set(id, chosen.get(id)!);
    return acc;
  }

  async collectionsById(fresh = true): Promise<ReadonlyMap<number, string>> {
    if (fresh) await this.refresh();
    return this.catchUp.view().collectionNames;
  }

  /** Content languages seen on the catalogue's values (`fresh: false`: as of the last check). */
  async contentLanguages(fresh = true): Promise<string[]> {
    if (fresh) await this.refresh();
    return [...this.catchUp.languages].sort();
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
    /** Fields the caller may not see (EngineQuery.hidden). */
    hidden?: ReadonlySet<string>,
  ): Promise<SuggestionGroup[]> {
    await this.refresh();
    return suggest(this.catchUp.view(), groups, text, fields, preview, lang, only, hidden);
  }
}
