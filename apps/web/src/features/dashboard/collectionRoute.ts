import { preSearchSchema } from '@vitrine/contract/global-config';
import type { Collection } from '@vitrine/contract/collection';
import { searchPath } from '../../lib/searchInput.ts';

const damCollection = /^collection_(\d+)$/;

/**
 * Where 'More results' and a tile lead: a DAM collection to /search/* filtered by meta_collections,
 * a pre-search to its text and facets in the content language (query '+{field}' as portal-spec §2
 * "Search" writes it; ranges as 'from TO to').
 */
export function collectionSearchPath(collection: Collection, lang: string, fallbackLang: string): string {
  const dam = damCollection.exec(collection.indicator);
  if (dam) return searchPath('', sorted(collection, new URLSearchParams({ meta_collections: dam[1] ?? '' })));
  if (typeof collection.search === 'string') return searchPath(collection.search, sorted(collection));
  const parsed = preSearchSchema.shape.search.safeParse(collection.search);
  if (!parsed.success) return searchPath('', sorted(collection));
  const perLang = parsed.data[lang] ?? parsed.data[fallbackLang] ?? Object.values(parsed.data)[0];
  const params = new URLSearchParams();
  for (const facet of perLang?.facets ?? []) {
    const value = facet.range ? `${facet.range.from} TO ${facet.range.to}` : facet.values.join(',');
    if (value) params.set(`+${facet.key}`, value);
  }
  return searchPath(perLang?.text ?? '', sorted(collection, params));
}

/**
 * The collection's own sort key and orientation, carried into the search route as `sort` and
 * `orientation` (the names of portal-spec §3 "Sort state"), so its results come in the same order.
 */
function sorted(collection: Collection, params = new URLSearchParams()): URLSearchParams {
  if (collection.sort) params.set('sort', collection.sort);
  if (collection.orientation) params.set('orientation', collection.orientation);
  return params;
}
