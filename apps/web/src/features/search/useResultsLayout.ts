import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { sidebarWidthAfterDrag } from './searchState.ts';
import { initialResultsWidth, resultsHeight, SIDEBAR_KEY, storedSidebarWidth } from './resultsBox.ts';

export { SMALL_SCREEN, viewSizesOf } from './resultsBox.ts';
/** How far one arrow key moves the sidebar's edge. */
const SIDEBAR_KEY_STEP = 20;

function useWindowHeight(): number {
  const [h, setH] = useState(() => window.innerHeight);
  useEffect(() => {
    const on = () => setH(window.innerHeight);
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return h;
}

export interface SidebarWidth {
  width: number;
  /** Drags the sidebar's edge with the pointer (the separator's pointerdown). */
  startDrag: (e: ReactPointerEvent<HTMLElement>) => void;
  /** Arrow left and right move the edge (the separator's keydown). */
  onKey: (e: ReactKeyboardEvent<HTMLElement>) => void;
}

/**
 * The facet sidebar's width (portal-spec §2 "Search"): the config's `search.sidebar.width` until the
 * visitor drags or keys the separator; their width is kept in local storage.
 */
export function useSidebarWidth(configured: number): SidebarWidth {
  const [width, setWidth] = useState(() => storedSidebarWidth(configured));
  useEffect(() => {
    localStorage.setItem(SIDEBAR_KEY, String(width));
  }, [width]);
  const startDrag = useCallback((e: ReactPointerEvent<HTMLElement>) => {
    e.preventDefault();
    const origin = e.currentTarget.parentElement?.getBoundingClientRect().left ?? 0;
    const move = (ev: PointerEvent) => setWidth((w) => sidebarWidthAfterDrag(w, ev.clientX - origin));
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  }, []);
  const onKey = useCallback((e: ReactKeyboardEvent<HTMLElement>) => {
    if (e.key === 'ArrowLeft') setWidth((w) => sidebarWidthAfterDrag(w, w - SIDEBAR_KEY_STEP));
    if (e.key === 'ArrowRight') setWidth((w) => sidebarWidthAfterDrag(w, w + SIDEBAR_KEY_STEP));
  }, []);
  return { width, startDrag, onKey };
}

export interface ResultsBox {
  /** The results area's height: the window's less the page's chrome, at least 320 px. */
  height: number;
  /**
   * The results area's width as last measured, read when a search's first page and each next page
   * are sized (a ref: the list lays its rows out from its own measure, so a new width draws nothing
   * here).
   */
  widthRef: { readonly current: number };
  /** The result list reports its measured width here. */
  onWidth: (width: number) => void;
}

/**
 * The results area's box: its height follows the window, its width what the result list measures
 * (before the first measure, the window's width less the sidebar's when the sidebar shows).
 */
export function useResultsBox(sidebarShown: boolean, sidebarWidth: number): ResultsBox {
  const windowHeight = useWindowHeight();
  const widthRef = useRef(initialResultsWidth(window.innerWidth, sidebarShown, sidebarWidth));
  const onWidth = useCallback((w: number) => {
    if (w > 0) widthRef.current = w;
  }, []);
  return { height: resultsHeight(windowHeight), widthRef, onWidth };
}
