import type { Collection } from '@vitrine/contract/collection';
import type { PreSearch } from '@vitrine/contract/global-config';
import { routePath, type SearchQuery } from '@vitrine/contract/paths';

const damCollection = /^collection_(\d+)$/;

/**
 * Where 'More results' and a tile lead: a DAM collection to /search/* filtered by meta_collections,
 * a pre-search to its text and facets in the content language (query '+{field}' as portal-spec §2
 * "Search" writes it; ranges as 'from TO to').
 */
export function collectionSearchPath(collection: Collection, lang: string, fallbackLang: string): string {
  const dam = damCollection.exec(collection.indicator);
  if (dam) return searchRoute(collection, { collection: dam[1] ?? '' });
  if (typeof collection.search === 'string') return searchRoute(collection, { text: collection.search });
  const queries = preSearchQueries(collection.search);
  if (!queries) return searchRoute(collection, {});
  const perLang = queries[lang] ?? queries[fallbackLang] ?? Object.values(queries)[0];
  const fields = (perLang?.facets ?? []).map((facet) => ({
    name: facet.key,
    values: facet.range ? [`${facet.range.from} TO ${facet.range.to}`] : facet.values,
  }));
  return searchRoute(collection, { text: perLang?.text ?? '', fields });
}

type PreSearchQuery = PreSearch['search'][string];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/**
 * A pre-search's queries per language, read as the contract's `preSearchSchema` reads them (text
 * defaults to '', facets to none), or undefined when any of them has another shape.
 */
function preSearchQueries(search: unknown): Record<string, PreSearchQuery> | undefined {
  if (!isObject(search)) return undefined;
  const queries: Record<string, PreSearchQuery> = {};
  for (const [lang, query] of Object.entries(search)) {
    if (!isObject(query)) return undefined;
    const { text = '', facets = [] } = query;
    if (typeof text !== 'string' || !Array.isArray(facets)) return undefined;
    const read: PreSearchQuery['facets'] = [];
    for (const facet of facets as unknown[]) {
      if (!isObject(facet) || typeof facet.key !== 'string' || !isStringList(facet.values)) return undefined;
      const { range } = facet;
      if (range === undefined) {
        read.push({ key: facet.key, values: facet.values });
      } else if (isObject(range) && typeof range.from === 'string' && typeof range.to === 'string') {
        read.push({ key: facet.key, values: facet.values, range: { from: range.from, to: range.to } });
      } else {
        return undefined;
      }
    }
    queries[lang] = { text, facets: read };
  }
  return queries;
}

/**
 * The search route of a query, with the collection's own sort key and orientation (the names of
 * portal-spec §3 "Sort state"), so its results come in the same order.
 */
function searchRoute(collection: Collection, query: SearchQuery): string {
  return routePath({
    page: 'search',
    ...query,
    sort: collection.sort || undefined,
    orientation: collection.orientation,
  });
}
