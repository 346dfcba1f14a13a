/**
 * The guided tour's state (portal-spec §2 "Guided tour"): which pages' tours the visitor has
 * finished is kept in local storage (the tour list, §7), so a tour runs once per page and browser.
 */
import type { GlobalConfig } from '@vitrine/contract/global-config';

export const TOUR_STORAGE_KEY = 'tour';

/** The pages that offer the tour. */
export type TourPage = 'dashboard' | 'search';

/** A step of the configured tour (config guide.tour). */
export type TourStep = GlobalConfig['guide']['tour'][number];

export function finishedTours(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(TOUR_STORAGE_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    // A hand-edited or foreign value counts as no finished tour.
    return [];
  }
}

export function markTourFinished(page: TourPage): void {
  const list = finishedTours();
  if (!list.includes(page)) localStorage.setItem(TOUR_STORAGE_KEY, JSON.stringify([...list, page]));
}

/** The element a step points at: the first visible one marked with its key. */
export function tourTarget(key: string, root: ParentNode = document): HTMLElement | null {
  for (const el of root.querySelectorAll<HTMLElement>(`[data-tour="${CSS.escape(key)}"]`)) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) return el;
  }
  return null;
}

/**
 * The configured steps whose element is on the page (or that the page can bring up: `find` answers
 * anything but null or undefined); the others are skipped, not broken.
 */
export function presentSteps(steps: readonly TourStep[], find: (key: string) => unknown): TourStep[] {
  return steps.filter((s) => find(s.key) != null);
}
