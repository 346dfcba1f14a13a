import { keepPreviousData, useInfiniteQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { MAX_SEARCH_ROWS, searchCall } from '@vitrine/contract/endpoints';
import type { AssetDoc, FacetSelection, IndexField, SearchAnswer } from '@vitrine/contract/search';
import { ApiError, askEarly, callApi, type Asker } from '../../lib/apiClient.ts';
import type { BootData } from '@vitrine/contract/boot';
import { matchPath, routePatterns } from '@vitrine/contract/paths';
import { parsePath } from '../../lib/router.tsx';
import { facetDefs, facetRequestOf } from './facets.ts';
import { firstPageSize, parseSearchRoute, routeSort } from './searchState.ts';
import {
  initialResultsWidth,
  resultsHeight,
  SMALL_SCREEN,
  storedSidebarWidth,
  viewSizesOf,
} from './useResultsLayout.ts';
import { initialView } from './useResultSelection.ts';

import { searchInputKeys } from '../../stores/searchInput.ts';
import type { SearchRoute, SortState } from './searchState.ts';

/** A server 500 is retried at most 2 more times (portal-spec §9). */
export const SEARCH_RETRIES = 2;

export interface SearchRequest {
  lang: string;
  route: SearchRoute;
  sort: SortState;
  facetFields: string[];
  /** The value order of facets, as `facet_sort` entries ('field:count:desc'). */
  facetSort: string[];
  firstRows: number;
}

export const searchKeys = {
  all: ['search'] as const,
  results: (r: SearchRequest) => [...searchKeys.all, 'results', r] as const,
};

export interface SearchPage {
  docs: AssetDoc[];
  numFound: number;
  facetFields: SearchAnswer['facetCounts']['facetFields'];
  facetRanges: SearchAnswer['facetCounts']['facetRanges'];
}

/** What narrows a request's search: text, filters, suggestions, ids, collection. */
function narrowing({ route }: SearchRequest) {
  const filter: FacetSelection[] = route.filters;
  return {
    solr_q: route.text === '' ? '*' : route.text,
    filter: filter.length > 0 ? JSON.stringify(filter) : undefined,
    suggestions_filter: route.suggestions.length > 0 ? JSON.stringify(route.suggestions) : undefined,
    id: route.ids.length > 0 ? route.ids.join(',') : undefined,
    meta_collections: route.collection,
  };
}

/** The query of one page of a request's results (the first is also asked early: askFirstSearch). */
export function pageQuery(request: SearchRequest, facetFields: string[], start: number, rows: number) {
  const { sort } = request;
  // Facets come with the first page only.
  const facets = start === 0 ? facetFields : [];
  return {
    ...narrowing(request),
    solr_facetfields: facets,
    facet_sort: facets.length > 0 ? request.facetSort : [],
    solr_sort: `${sort.key} ${sort.orientation}`,
    solr_rows: rows,
    solr_start: start,
  };
}

/** Whether the page has asked for results (askFirstSearch asks only before). */
let searched = false;

async function fetchPage(
  request: SearchRequest,
  facetFields: string[],
  start: number,
  rows: number,
  signal?: AbortSignal,
): Promise<SearchPage> {
  searched = true;
  const answer = await callApi(searchCall, { query: pageQuery(request, facetFields, start, rows), signal });
  return {
    docs: answer.response.docs,
    numFound: answer.response.numFound,
    facetFields: answer.facetCounts.facetFields,
    facetRanges: answer.facetCounts.facetRanges,
  };
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
  return useInfiniteQuery({
    enabled,
    queryKey: searchKeys.results(request),
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
 * The query of the search page's first request at the address `hash` (`#/search/…`), as the page
 * will make it (SearchPage, from the same parts): the route's text, filters and sort, the facets of
 * the config and the index fields, and a first page sized for the view the visitor gets and the
 * results area of this window. Asked for early (lib/earlyAnswers.ts) for a portal whose page
 * carried the index fields (visitors without an account may search); none elsewhere.
 */
export function firstSearchQuery(
  boot: BootData,
  hash: string,
  win: Pick<Window, 'innerWidth' | 'innerHeight' | 'matchMedia'>,
): ReturnType<typeof pageQuery> | undefined {
  const { config, fields } = boot;
  const { pathname, search } = parsePath(hash.slice(1) || '/', '');
  const at = matchPath(routePatterns.search, pathname);
  if (!fields || !at) return undefined;
  const defs = facetDefs(config, fields);
  const names = new Set(defs.map((d) => d.field));
  const route = parseSearchRoute(at.query, new URLSearchParams(search), (f) => names.has(f));
  const view = initialView(config.search.views.options, config.search.views.default);
  // As useMediaQuery reads it: without matchMedia (not a browser), the screen is not small.
  const sidebarShown = typeof win.matchMedia !== 'function' || !win.matchMedia(SMALL_SCREEN).matches;
  const width = initialResultsWidth(win.innerWidth, sidebarShown, storedSidebarWidth(config.search.sidebar.width));
  const firstRows = firstPageSize(view, width, resultsHeight(win.innerHeight), viewSizesOf(config.search));
  const request = { lang: '', route, sort: routeSort(route, config.sorting), ...facetRequestOf(defs), firstRows };
  return pageQuery(request, request.facetFields, 0, firstRows);
}

/**
 * Asks for the search page's first results now (lib/apiClient.ts askEarly), unless the page has asked
 * for results already (its call would not take this answer).
 */
export function askFirstSearch(boot: BootData, hash: string, asker: Asker): void {
  const query = firstSearchQuery(boot, hash, window);
  if (query && !searched) void askEarly(searchCall, { query }, asker);
}
