import type { EngineQuery } from '@vitrine/search-engine';
import { SyntheticCatalogue } from '@vitrine/server/src/bench-data/synthetic.ts';
import type { createSearchEngine } from '@vitrine/server/src/search/create-engine.ts';

type Engine = ReturnType<typeof createSearchEngine>;

/** One search of the bench: asked of the engine in this process and of the server through HTTP. */
export interface Scenario {
  name: string;
  engine: () => Promise<unknown>;
  /** The call under the API's base path. */
  url: string;
  /** Searches words, so the engine's cache of text matches matters. */
  text?: boolean;
  /**
   * The same search not cached (the engine keeps similar: and colour: matches with the index
   * version): each call asks for another asset or colour, as a first search does.
   */
  fresh?: () => Promise<unknown>;
  /** The bound of its HTTP median at 1M (ms). */
  httpTarget: number;
}

/**
 * The seven searches of bench/search (and of the benches that compare the server with and without
 * something, e.g. bench/insights), chosen on the catalogue a guest sees: match-all sorted by date, the
 * keyword closest to 20 % of the assets, one found in roughly 0.02 %, the common word with filters,
 * similar:<id>, a colour with two facet filters (issue #52), and suggestions for a two-letter prefix;
 * each with six facets.
 */
export async function searchScenarios(
  engine: Engine,
  groups: string[],
): Promise<{ visible: number; common: string; rare: string; scenarios: Scenario[] }> {
  const facets = ['keywords', 'category', 'creator', 'asset_groups', 'rating', 'color_code'];
  const catalogue = new SyntheticCatalogue();
  const visible = (await engine.search(groups, { q: '*', rows: 0 })).numFound;
  let common = catalogue.keywords[0]!;
  let best = Infinity;
  for (const word of catalogue.keywords.slice(0, 12)) {
    const n = (await engine.search(groups, { q: word, rows: 0 })).numFound;
    if (Math.abs(n / visible - 0.2) < best) {
      best = Math.abs(n / visible - 0.2);
      common = word;
    }
  }
  const rare = catalogue.keywords[2000]!;
  const commonShare = (100 * (await engine.search(groups, { q: common, rows: 0 })).numFound) / visible;
  const [top] = (
    (await engine.search(groups, { q: '*', rows: 0, facetFields: ['category'], facetLimit: 10_000 })).facetFields
      .category ?? []
  ).sort((a, b) => b.count - a.count);
  if (!top) throw new Error('the bench catalogue has no category to filter by');
  const topCategory = top.value;

  const facetParams = facets.map((f) => `solr_facetfields=${f}`).join('&');
  const q = (query: EngineQuery) => () => engine.search(groups, { rows: 50, facetFields: facets, ...query });
  const filters = [
    { key: 'category', values: [topCategory] },
    { key: 'asset_groups', values: ['image'] },
    { key: 'file_size', values: ['1000000 TO 100000000'], range: true },
  ];
  // similar: an asset with look-alikes (bench data makes every tenth a near copy of the one before);
  // colour: a red common among the synthetic colours, with the category and type filters.
  let alike = 0;
  for (let id = 10; id < 10_000 && alike === 0; id += 10) {
    if ((await engine.search(groups, { q: `similar:${id}`, rows: 0 })).numFound > 0) alike = id;
  }
  if (alike === 0) throw new Error('the bench catalogue has no signatures: write it again with vitrine bench-data');
  const colourQuery = 'colour:#c04030';
  let freshRuns = 0;
  const twoFilters = filters.slice(0, 2);
  const scenarios: Scenario[] = [
    {
      name: 'match-all + 6 facets, sorted by date',
      engine: q({ q: '*', sort: { field: 'imp_date', dir: 'desc' } }),
      url: `search?solr_q=*&solr_rows=50&solr_sort=imp_date%20desc&${facetParams}`,
      httpTarget: 15,
    },
    {
      name: `common word (${commonShare.toFixed(0)} % of assets) + 6 facets`,
      engine: q({ q: common }),
      text: true,
      url: `search?solr_q=${common}&solr_rows=50&${facetParams}`,
      httpTarget: 15,
    },
    {
      name: `rare word (${(await engine.search(groups, { q: rare, rows: 0 })).numFound} hits) + 6 facets`,
      engine: q({ q: rare }),
      text: true,
      url: `search?solr_q=${rare}&solr_rows=50&${facetParams}`,
      httpTarget: 3,
    },
    {
      name: 'common word + 2 facet filters + size range + 6 facets',
      engine: q({ q: common, filter: filters }),
      text: true,
      url: `search?solr_q=${common}&solr_rows=50&${facetParams}&filter=${encodeURIComponent(JSON.stringify(filters))}`,
      httpTarget: 30,
    },
    {
      name: `similar:<id> (${(await engine.search(groups, { q: `similar:${alike}`, rows: 0 })).numFound} found) + 6 facets`,
      engine: q({ q: `similar:${alike}` }),
      fresh: () => q({ q: `similar:${alike + 10 * ++freshRuns}` })(),
      url: `search?solr_q=similar:${alike}&solr_rows=50&${facetParams}`,
      httpTarget: 50,
    },
    {
      name: `colour (${(await engine.search(groups, { q: colourQuery, filter: twoFilters, rows: 0 })).numFound} found) + 2 facet filters + 6 facets`,
      engine: q({ q: colourQuery, filter: twoFilters }),
      fresh: () =>
        q({ q: `colour:#c040${(0x30 + (++freshRuns % 200)).toString(16).padStart(2, '0')}`, filter: twoFilters })(),
      url: `search?solr_q=${encodeURIComponent(colourQuery)}&solr_rows=50&${facetParams}&filter=${encodeURIComponent(JSON.stringify(twoFilters))}`,
      httpTarget: 50,
    },
    {
      name: "suggestions for a 2-letter prefix ('ka')",
      engine: () => engine.suggest(groups, 'ka', ['keywords', 'category', 'creator'], 5),
      url: 'search/suggestions?text=ka',
      httpTarget: 3,
    },
  ];
  return { visible, common, rare, scenarios };
}
