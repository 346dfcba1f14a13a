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
  if (dam) return `/search/*?meta_collections=${dam[1]}`;
  if (typeof collection.search === 'string') return searchPath(collection.search, new URLSearchParams());
  const parsed = preSearchSchema.shape.search.safeParse(collection.search);
  if (!parsed.success) return '/search/*';
  const perLang = parsed.data[lang] ?? parsed.data[fallbackLang] ?? Object.values(parsed.data)[0];
  const params = new URLSearchParams();
  for (const facet of perLang?.facets ?? []) {
    const value = facet.range ? `${facet.range.from} TO ${facet.range.to}` : facet.values.join(',');
    if (value) params.set(`+${facet.key}`, value);
  }
  return searchPath(perLang?.text ?? '', params);
}
