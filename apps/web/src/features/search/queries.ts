import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { assetsCall, MAX_SEARCH_ROWS, searchCall } from '@vitrine/contract/endpoints';
import type { AssetDoc, IndexField, SearchAnswer } from '@vitrine/contract/search';
import { ApiError, arrivedEarly, callApi } from '../../lib/apiClient.ts';
import { useArrivedEarly } from '../../lib/useArrivedEarly.ts';
import { searchInputKeys } from '../../stores/searchInput.ts';
import { searchKeys } from '../../lib/searchKeys.ts';
import { narrowing, pageQuery, type SearchRequest } from './request.ts';

export { pageQuery, type SearchRequest } from './request.ts';

/** A server 500 is retried at most 2 more times (portal-spec §9). */
export const SEARCH_RETRIES = 2;

export { searchKeys } from '../../lib/searchKeys.ts';

export interface SearchPage {
  docs: AssetDoc[];
  numFound: number;
  facetFields: SearchAnswer['facetCounts']['facetFields'];
  facetRanges: SearchAnswer['facetCounts']['facetRanges'];
}

/** A page of results as the search's answer has it. */
const pageOf = (answer: SearchAnswer): SearchPage => ({
  docs: answer.response.docs,
  numFound: answer.response.numFound,
  facetFields: answer.facetCounts.facetFields,
  facetRanges: answer.facetCounts.facetRanges,
});

async function fetchPage(
  request: SearchRequest,
  facetFields: string[],
  start: number,
  rows: number,
  signal?: AbortSignal,
): Promise<SearchPage> {
  return pageOf(await callApi(searchCall, { query: pageQuery(request, facetFields, start, rows), signal }));
}

/**
 * On a server 500 the available facets are reloaded and configured facets that no longer exist are
 * dropped before the next try; after two more tries the search fails (portal-spec §4 "Search").
 */
async function withRetries(
  queryClient: QueryClient,
  request: SearchRequest,
  start: number,
  rows: number,
  signal: AbortSignal,
): Promise<SearchPage> {
  let facetFields = request.facetFields;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchPage(request, facetFields, start, rows, signal);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 500 || attempt >= SEARCH_RETRIES) throw error;
      await queryClient.invalidateQueries({ queryKey: searchInputKeys.fields() });
      const fields = queryClient.getQueryData<IndexField[]>(searchInputKeys.fields()) ?? [];
      const known = new Set(fields.map((f) => f.field_name));
      facetFields = facetFields.filter((f) => known.has(f));
    }
  }
}

/** Facet values the server sends per field and page (the search's `facet_limit` default). */
export const FACET_PAGE = 100;

export type FacetValue = SearchPage['facetFields'][string][number];

/**
 * A further page of one facet's values for the same search, from `offset` on: a facet's "show more"
 * goes on past the values of the first answer (portal-spec §2 "Search"). No assets are asked for.
 */
export async function fetchFacetValues(request: SearchRequest, field: string, offset: number): Promise<FacetValue[]> {
  const answer = await callApi(searchCall, {
    query: {
      ...narrowing(request),
      solr_facetfields: [field],
      facet_sort: request.facetSort.filter((entry) => entry.startsWith(`${field}:`)),
      solr_rows: 0,
      facet_offset: offset,
      facet_limit: FACET_PAGE,
    },
  });
  return answer.facetCounts.facetFields[field] ?? [];
}

/**
 * The ids of every asset the search finds, for bookmarking the found assets (portal-spec §4
 * "Bookmark toggle"): fetched page by page at the largest page size, without facets.
 */
export async function fetchFoundIds(request: SearchRequest): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const page = await fetchPage(request, [], ids.length, MAX_SEARCH_ROWS);
    ids.push(...page.docs.map((d) => d.id));
    if (page.docs.length === 0 || ids.length >= page.numFound) return ids;
  }
}

/** The results, loaded page by page: the first page's size from the view, then `nextRows()` each. */
export function useSearchResults(request: SearchRequest, nextRows: () => number, enabled: boolean) {
  const queryClient = useQueryClient();
  const queryKey = searchKeys.results(request);
  // The first page asked for before the app ran, when it is the page this request asks for.
  useArrivedEarly(queryKey, () => {
    if (!enabled) return undefined;
    const first = { start: 0, rows: request.firstRows };
    const early = arrivedEarly(searchCall, { query: pageQuery(request, request.facetFields, 0, first.rows) });
    return early && { pages: [pageOf(early)], pageParams: [first] };
  });
  return useInfiniteQuery({
    enabled,
    queryKey,
    initialPageParam: { start: 0, rows: request.firstRows },
    queryFn: ({ pageParam, signal }) => withRetries(queryClient, request, pageParam.start, pageParam.rows, signal),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.docs.length, 0);
      return loaded < last.numFound && last.docs.length > 0 ? { start: loaded, rows: nextRows() } : undefined;
    },
    retry: false,
    staleTime: 60_000,
    // The sidebar and results stay while the next search loads, so nothing jumps.
    placeholderData: keepPreviousData,
  });
}

/**
 * The asset a search of look-alikes asks about (`similar:<id>`, issue #52), for its tag; null when
 * the caller may not see it. Not asked without an id.
 */
export function useSimilarOrigin(lang: string, id: string | undefined) {
  return useQuery({
    enabled: id !== undefined,
    queryKey: [...searchKeys.all, 'similar-origin', lang, id],
    queryFn: async ({ signal }): Promise<AssetDoc | null> =>
      (await callApi(assetsCall, { query: { assetid: id ?? '' }, signal })).response.docs[0] ?? null,
    staleTime: 5 * 60_000,
  });
}
