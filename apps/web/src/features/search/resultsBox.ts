import type { GlobalConfig } from '@vitrine/contract/global-config';
import { SIDEBAR_MIN_X, type ViewSizes } from './searchState.ts';

/*
 * The results area's box and the views' sizes before anything is drawn (no React): the search page
 * (useResultsLayout.ts), its first request (request.ts) and the page's first paint read them.
 */

/** Where the visitor's sidebar width is kept (useSidebarWidth). */
export const SIDEBAR_KEY = 'sidebarWidth';

/** Results area height is the window height minus 250 (portal-spec §2 "Search"). */
const CHROME_HEIGHT = 250;
const MIN_RESULTS_HEIGHT = 320;

/** The screens that show the facets in a drawer, not a sidebar (the theme's `md` breakpoint and below). */
export const SMALL_SCREEN = '(max-width:899.95px)';

export function storedSidebarWidth(fallback: number): number {
  const stored = Number(localStorage.getItem(SIDEBAR_KEY));
  return Number.isFinite(stored) && stored >= SIDEBAR_MIN_X ? stored : fallback;
}

/** The sizes of the views' items, from the config (portal-spec §2 "Search", admin-spec §3). */
export function viewSizesOf(search: GlobalConfig['search']): ViewSizes {
  return {
    posterMinHeight: search.posters.min_height,
    posterMaxHeight: search.posters.max_height,
    thumbWidth: search.thumbnails.width,
    thumbHeight: search.thumbnails.height,
    thumbBodyLines: search.thumbnails.body.length,
    rowHeight: search.list.options.rowHeight,
    listImageWidth: search.list.options.imageColWidth,
    posterBorder: search.posters.border_width,
    thumbBorder: search.thumbnails.border_width,
    thumbIconsOnHover: search.thumbnails.icon_hover,
  };
}

/** The results area's width before the list has measured it: the window's less the sidebar's. */
export const initialResultsWidth = (windowWidth: number, sidebarShown: boolean, sidebarWidth: number) =>
  Math.max(320, windowWidth - (sidebarShown ? sidebarWidth : 0));

/** The results area's height in a window this high. */
export const resultsHeight = (windowHeight: number) => Math.max(MIN_RESULTS_HEIGHT, windowHeight - CHROME_HEIGHT);
