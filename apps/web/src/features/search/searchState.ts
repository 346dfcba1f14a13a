import type { GlobalConfig } from '@vitrine/contract/global-config';
import type { FacetSelection, SuggestionSelection } from '@vitrine/contract/search';
import { readSearchQuery, routePath, type SearchQuery } from '@vitrine/contract/paths';

/**
 * The search page's state as its route carries it (portal-spec §2 "Search"): the text ('*' = none),
 * '+{field}' parameters for facet filters and selected suggestions (values comma-joined, a range as
 * 'from TO to'), id for shared asset ids and meta_collections for a DAM collection.
 */
export interface SearchRoute {
  text: string;
  filters: FacetSelection[];
  suggestions: SuggestionSelection[];
  ids: string[];
  collection: number | undefined;
  /** The sort key and orientation the route asks for (a dashboard row's, or the visitor's choice). */
  sort?: string;
  orientation?: 'asc' | 'desc';
}

const RANGE = /^\s*\S+\s+TO\s+\S+\s*$/;

/** Reads the route; '+{field}' of a sidebar facet is a filter, of any other field a suggestion. */
export function parseSearchRoute(
  query: string | undefined,
  params: URLSearchParams,
  isFacet: (field: string) => boolean,
): SearchRoute {
  const read = readSearchQuery(query, params);
  const filters: FacetSelection[] = [];
  const suggestions: SuggestionSelection[] = [];
  for (const { name: key, values } of read.fields) {
    const [only] = values;
    if (values.length === 1 && only !== undefined && RANGE.test(only)) {
      filters.push({ key, values: [only.trim()], range: true });
    } else if (isFacet(key)) filters.push({ key, values });
    else suggestions.push({ field_name: key, values });
  }
  const ids = read.ids.filter((v) => /^\d+$/.test(v));
  const collection = read.collection && /^\d+$/.test(read.collection) ? Number(read.collection) : undefined;
  const state: SearchRoute = { text: read.text, filters, suggestions, ids, collection };
  if (read.sort) state.sort = read.sort;
  if (read.orientation === 'asc' || read.orientation === 'desc') state.orientation = read.orientation;
  return state;
}

/** The contract's search query of a state. */
export function searchQueryOf(state: SearchRoute): SearchQuery {
  return {
    text: state.text,
    fields: [
      ...state.filters.map((f) => ({ name: f.key, values: f.values })),
      ...state.suggestions.map((s) => ({ name: s.field_name, values: s.values })),
    ],
    ids: state.ids,
    collection: state.collection === undefined ? undefined : String(state.collection),
    sort: state.sort,
    orientation: state.orientation,
  };
}

/** The route of a state: /search/{text or *} and its query string, so a shared link restores it. */
export function searchRoutePath(state: SearchRoute): string {
  return routePath({ page: 'search', ...searchQueryOf(state) });
}

export function hasQuery(state: SearchRoute): boolean {
  return (
    state.text !== '' ||
    state.filters.length > 0 ||
    state.suggestions.length > 0 ||
    state.ids.length > 0 ||
    state.collection !== undefined
  );
}

// ---- facet update (portal-spec §4 "Search") ---------------------------------------------------

function replaceFacet(filters: FacetSelection[], key: string, next: FacetSelection | null): FacetSelection[] {
  const at = filters.findIndex((f) => f.key === key);
  if (next === null) return filters.filter((f) => f.key !== key);
  if (at === -1) return [...filters, next];
  return filters.map((f, i) => (i === at ? next : f));
}

/** Selecting a value adds it, selecting it again removes it; removing the last removes the facet. */
export function toggleFacetValue(filters: FacetSelection[], key: string, value: string): FacetSelection[] {
  const current = filters.find((f) => f.key === key && !f.range)?.values ?? [];
  const values = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  return replaceFacet(filters, key, values.length > 0 ? { key, values } : null);
}

/** A radio facet replaces its value. */
export function setRadioValue(filters: FacetSelection[], key: string, value: string): FacetSelection[] {
  return replaceFacet(filters, key, { key, values: [value] });
}

export type RangeKind = 'date' | 'filesize' | 'other';

/** Slider steps (portal-spec §5): a day for dates (the index keeps milliseconds), 10 for file sizes, else 1. */
export function sliderStep(kind: RangeKind): number {
  return kind === 'date' ? 86_400_000 : kind === 'filesize' ? 10 : 1;
}

/** For file sizes a range counts as unchanged when both ends are within 10 of the bounds (portal-spec §5). */
export function isFullRange(range: [number, number], bounds: [number, number], kind: RangeKind): boolean {
  if (kind === 'filesize') return Math.abs(range[0] - bounds[0]) <= 10 && Math.abs(range[1] - bounds[1]) <= 10;
  return range[0] <= bounds[0] && range[1] >= bounds[1];
}

/** A slider sets 'min TO max' and removes the facet when the range is the full range again. */
export function setSliderRange(
  filters: FacetSelection[],
  key: string,
  range: [number, number],
  bounds: [number, number],
  kind: RangeKind,
): FacetSelection[] {
  if (isFullRange(range, bounds, kind)) return replaceFacet(filters, key, null);
  return replaceFacet(filters, key, { key, values: [`${range[0]} TO ${range[1]}`], range: true });
}

/** The range a range filter holds, or undefined. */
export function selectedRange(filters: FacetSelection[], key: string): [number, number] | undefined {
  const value = filters.find((f) => f.key === key && f.range)?.values[0];
  const m = value ? /^\s*(\S+)\s+TO\s+(\S+)\s*$/.exec(value) : null;
  if (!m) return undefined;
  const lo = Number(m[1]);
  const hi = Number(m[2]);
  return Number.isFinite(lo) && Number.isFinite(hi) ? [lo, hi] : undefined;
}

/** A slider is shown only when the bounds differ (dates compared as formatted dates). */
export function sliderShown(bounds: [number, number], kind: RangeKind, formatDate: (ms: number) => string): boolean {
  if (kind === 'date') return formatDate(bounds[0]) !== formatDate(bounds[1]);
  return bounds[0] !== bounds[1];
}

export function resetFacet(filters: FacetSelection[], key: string): FacetSelection[] {
  return replaceFacet(filters, key, null);
}

// ---- sort (portal-spec §4 "Search") -------------------------------------------------------------

export interface SortState {
  key: string;
  orientation: 'asc' | 'desc';
}

/**
 * The sort of a route (portal-spec §4 "Search"): its sort key when that is an active option of the
 * config, in its orientation or the default one; else the configured default. A route keeps the
 * visitor's choice, so going to an asset and back, a reload or a dashboard row's "More results" show
 * the results in the same order.
 */
export function routeSort(
  route: Pick<SearchRoute, 'sort' | 'orientation'>,
  sorting: Pick<GlobalConfig['sorting'], 'default'> & {
    options: readonly { key: string; active: boolean }[];
    orientation: { default: 'asc' | 'desc' };
  },
): SortState {
  const known = route.sort !== undefined && sorting.options.some((o) => o.active && o.key === route.sort);
  if (!known) return { key: sorting.default, orientation: sorting.orientation.default };
  return { key: route.sort ?? sorting.default, orientation: route.orientation ?? sorting.orientation.default };
}

/**
 * The sort options a caller can use: those whose key is relevance or a field of the caller's index
 * (a field only some groups see is not in a guest's index fields, and a search sorted by it would be
 * refused); the default falls back to relevance when its field is not there. Until the fields are
 * known, the configured sorting as it is.
 */
export function sortingFor<
  S extends Pick<GlobalConfig['sorting'], 'default'> & { options: readonly { key: string }[] },
>(sorting: S, fields: readonly { field_name: string }[]): S {
  if (fields.length === 0) return sorting;
  const usable = (key: string) => key === 'score' || fields.some((f) => f.field_name === key);
  const options = sorting.options.filter((o) => usable(o.key));
  if (options.length === sorting.options.length && usable(sorting.default)) return sorting;
  return { ...sorting, options, default: usable(sorting.default) ? sorting.default : 'score' };
}

/** Choosing the active key toggles asc/desc; another key uses that key with the default orientation. */
export function chooseSort(current: SortState, key: string, defaultOrientation: 'asc' | 'desc'): SortState {
  if (current.key === key) return { key, orientation: current.orientation === 'asc' ? 'desc' : 'asc' };
  return { key, orientation: defaultOrientation };
}

// ---- page sizes (portal-spec §9) -----------------------------------------------------------------

export type ViewKey = 'grid' | 'thumbnail' | 'list';

export interface ViewSizes {
  posterMinHeight: number;
  posterMaxHeight: number;
  thumbWidth: number;
  thumbHeight: number;
  /** The lines of a thumbnail's body under its caption: one per configured body field. */
  thumbBodyLines: number;
  rowHeight: number;
  listImageWidth: number;
  /** The width of a selected poster's and thumbnail's border (config posters / thumbnails border_width). */
  posterBorder: number;
  thumbBorder: number;
  /** Thumbnails show their icon set only while hovered or focused (config search.thumbnails.icon_hover). */
  thumbIconsOnHover: boolean;
}

/** Rows of the first request for a results area of this size. */
export function firstPageSize(view: ViewKey, width: number, height: number, s: ViewSizes): number {
  switch (view) {
    case 'thumbnail':
      return Math.max(25, Math.ceil((((width / s.thumbWidth) * height) / s.thumbHeight) * 1.5));
    case 'list':
      return Math.ceil(height / s.rowHeight) + 10;
    case 'grid':
      return Math.max(25, (Math.ceil((width / s.posterMinHeight) * (height / s.posterMinHeight)) + 10) * 2);
  }
}

/** Rows of each further request. */
export function nextPageSize(view: ViewKey, width: number, s: ViewSizes): number {
  switch (view) {
    case 'thumbnail':
      return Math.max(15, Math.ceil((width / s.thumbWidth) * 5));
    case 'grid':
      return Math.max(15, Math.ceil((width / s.posterMinHeight) * 5));
    case 'list':
      return 15;
  }
}

/** How near the end infinite scroll asks for the next page (portal-spec §4 "Search"). */
export function loadDistance(view: ViewKey, s: ViewSizes): number {
  switch (view) {
    case 'grid':
      return 4 * s.posterMaxHeight;
    case 'thumbnail':
      return 4 * s.thumbHeight;
    case 'list':
      return 7 * s.rowHeight;
  }
}

/** Poster icon slots (portal-spec §2): none below width 19.2 + 40, else one per 40 px. */
export function posterIconSlots(width: number): number {
  const room = width - 19.2;
  return room >= 40 ? Math.floor(room / 40) : 0;
}

/** Sidebar drags below x = 80 are ignored (portal-spec §5). */
export const SIDEBAR_MIN_X = 80;
export function sidebarWidthAfterDrag(current: number, x: number): number {
  return x < SIDEBAR_MIN_X ? current : x;
}

/** The view chosen in this tab (session storage). */
export const VIEW_KEY = 'vitrine.searchView';

/**
 * The view the visitor chose in this tab, when the config still shows it, else `fallback`. Kept in
 * session storage, so going to an asset or the bookmarks and back, a reload or a new search keep it.
 */
function chosenView(visible: readonly ViewKey[], fallback: ViewKey): ViewKey {
  const stored = sessionStorage.getItem(VIEW_KEY);
  return visible.find((v) => v === stored) ?? fallback;
}

/** The view a search page starts with (useSearchView). */
export function initialView(options: readonly { key: ViewKey; visible: boolean }[], configured: ViewKey): ViewKey {
  const visible = options.filter((v) => v.visible).map((v) => v.key);
  return chosenView(visible, visible.includes(configured) ? configured : (visible[0] ?? 'grid'));
}
