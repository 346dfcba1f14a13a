import type { BootData } from '@vitrine/contract/boot';
import { matchPath, routePatterns, splitPath } from '@vitrine/contract/paths';
import type { FacetSelection } from '@vitrine/contract/search';
import { facetDefs, facetRequestOf } from './facets.ts';
import { resultsHeight, initialResultsWidth, SMALL_SCREEN, storedSidebarWidth, viewSizesOf } from './resultsBox.ts';
import {
  firstPageSize,
  initialView,
  parseSearchRoute,
  routeSort,
  sortingFor,
  type SearchRoute,
  type SortState,
  type ViewKey,
} from './searchState.ts';

/*
 * A search's request as the search page asks it (no React): the page (queries.ts) and its first
 * request asked before the app runs (first-paint/earlyAnswers.ts, from the page's first-paint script) build it
 * from the same parts.
 */

export interface SearchRequest {
  lang: string;
  route: SearchRoute;
  sort: SortState;
  facetFields: string[];
  /** The value order of facets, as `facet_sort` entries ('field:count:desc'). */
  facetSort: string[];
  firstRows: number;
}

/** What narrows a request's search: text, filters, suggestions, ids, collection. */
export function narrowing({ route }: SearchRequest) {
  const filter: FacetSelection[] = route.filters;
  return {
    solr_q: route.text === '' ? '*' : route.text,
    filter: filter.length > 0 ? JSON.stringify(filter) : undefined,
    suggestions_filter: route.suggestions.length > 0 ? JSON.stringify(route.suggestions) : undefined,
    id: route.ids.length > 0 ? route.ids.join(',') : undefined,
    meta_collections: route.collection,
  };
}

/** The query of one page of a request's results (the first is also asked early: first-paint/earlyAnswers.ts). */
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

/** The search page's first search at an address, as the page will start it. */
export interface FirstSearch {
  route: SearchRoute;
  sort: SortState;
  view: ViewKey;
  /** Whether the screen is small: the facets are in a drawer, not a sidebar. */
  small: boolean;
  /** The query of its first page of results. */
  query: ReturnType<typeof pageQuery>;
}

/**
 * The search page's first search at the address `hash` (`#/search/…`), as the page will make it
 * (SearchPage, from the same parts): the route's text, filters and sort, the facets of the config
 * and the index fields, and a first page sized for the view the visitor gets and the results area of
 * this window. Asked for early (first-paint/earlyAnswers.ts) and drawn by the page's first paint on a small
 * screen (src/first-paint) for a portal whose page carried the index fields (visitors without an
 * account may search); none elsewhere.
 */
export function firstSearch(
  boot: BootData,
  hash: string,
  win: Pick<Window, 'innerWidth' | 'innerHeight' | 'matchMedia'>,
): FirstSearch | undefined {
  const { config, fields } = boot;
  const { pathname, query } = splitPath(hash.slice(1).split('#')[0] || '/');
  const at = matchPath(routePatterns.search, pathname);
  if (!fields || !at) return undefined;
  const defs = facetDefs(config, fields);
  const names = new Set(defs.map((d) => d.field));
  const route = parseSearchRoute(at.query, new URLSearchParams(query), (f) => names.has(f));
  const view = initialView(config.search.views.options, config.search.views.default);
  // As useMediaQuery reads it: without matchMedia (not a browser), the screen is not small.
  const small = typeof win.matchMedia === 'function' && win.matchMedia(SMALL_SCREEN).matches;
  const width = initialResultsWidth(win.innerWidth, !small, storedSidebarWidth(config.search.sidebar.width));
  const firstRows = firstPageSize(view, width, resultsHeight(win.innerHeight), viewSizesOf(config.search));
  const sort = routeSort(route, sortingFor(config.sorting, fields));
  const request = { lang: '', route, sort, ...facetRequestOf(defs), firstRows };
  return { route, sort, view, small, query: pageQuery(request, request.facetFields, 0, firstRows) };
}

/** The query of the search page's first request at the address `hash` (firstSearch). */
export const firstSearchQuery = (...args: Parameters<typeof firstSearch>) => firstSearch(...args)?.query;
