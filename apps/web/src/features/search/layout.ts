import type { AssetDoc } from '@vitrine/contract/search';
import { pixelAspect } from '../../lib/assetText.ts';
import type { ViewKey, ViewSizes } from './searchState.ts';

/** Gaps between posters and between thumbnails (portal-spec §9); list rows are 1 px apart. */
export const POSTER_GAP = 4;
export const THUMB_GAP = 8;
/** A thumbnail's caption under its picture (results.css `.vt-caption`). */
export const CAPTION_HEIGHT = 32;
/** A line of a thumbnail's body under the caption (results.css `.vt-caption-line`). */
export const BODY_LINE_HEIGHT = 20;
/** A thumbnail's text under its picture: the caption and a line per body field (decision 0258). */
export const captionHeight = (bodyLines: number) => CAPTION_HEIGHT + bodyLines * BODY_LINE_HEIGHT;

/** The gap between a view's rows (and between the items of a row). */
export const rowGap = (view: ViewKey) => (view === 'grid' ? POSTER_GAP : view === 'thumbnail' ? THUMB_GAP : 1);

/** One virtual row of results: the indexes of its docs and, for posters, their widths. */
export interface ResultRow {
  start: number;
  widths: number[];
  height: number;
}

/** Width over height of a doc; pixel sizes override width and height (portal-spec §3 "Asset"). */
export function aspectOf(doc: AssetDoc): number {
  const aspect = pixelAspect(doc);
  return aspect ? Math.min(4, Math.max(0.25, aspect)) : 1.5;
}

/**
 * Poster rows: posters keep their aspect and a row fills the width exactly, at a height between the
 * minimum and the maximum where it can (a row of one very wide or very narrow poster may fall outside).
 * The last row, when it does not fill the width, stays at the minimum height.
 */
export function posterRows(
  aspects: readonly number[],
  width: number,
  min: number,
  max: number,
  gap: number,
): ResultRow[] {
  const rows: ResultRow[] = [];
  const off = (h: number) => (h < min ? min - h : h > max ? h - max : 0);
  let start = 0;
  while (start < aspects.length) {
    let sum = 0;
    let end = start;
    while (end < aspects.length && sum * min + (end - start - 1) * gap < width) sum += aspects[end++]!;
    const gaps = (end - start - 1) * gap;
    let height = min;
    if (sum * min + gaps >= width) {
      // The last poster taken made the row overflow at the minimum height: with it the row shrinks
      // below the minimum, without it the row grows; the height nearer the range wins.
      const withLast = (width - gaps) / sum;
      const without = end - start > 1 ? (width - gaps + gap) / (sum - aspects[end - 1]!) : Infinity;
      if (off(without) < off(withLast)) {
        end--;
        sum -= aspects[end]!;
        height = Math.min(max, without);
      } else height = withLast;
    }
    rows.push({ start, widths: aspects.slice(start, end).map((a) => Math.floor(a * height)), height });
    start = end;
  }
  return rows;
}

/** Fixed-size rows of a grid: as many columns as fit the width. */
export function gridRows(
  count: number,
  width: number,
  itemWidth: number,
  itemHeight: number,
  gap: number,
): ResultRow[] {
  const columns = Math.max(1, Math.floor((width + gap) / (itemWidth + gap)));
  const rows: ResultRow[] = [];
  for (let start = 0; start < count; start += columns) {
    rows.push({
      start,
      widths: Array.from({ length: Math.min(columns, count - start) }, () => itemWidth),
      height: itemHeight,
    });
  }
  return rows;
}

/**
 * The rows of a view's results in an area this wide (ResultList, and the page's first paint of a
 * phone's results): posters fill their rows, thumbnails (with their captions) make a grid, and the
 * list has a row per asset. None before the width is known.
 */
export function viewRows(view: ViewKey, docs: readonly AssetDoc[], width: number, sizes: ViewSizes): ResultRow[] {
  if (width === 0) return [];
  if (view === 'grid')
    return posterRows(docs.map(aspectOf), width, sizes.posterMinHeight, sizes.posterMaxHeight, POSTER_GAP);
  if (view === 'thumbnail')
    return gridRows(
      docs.length,
      width,
      sizes.thumbWidth,
      sizes.thumbHeight + captionHeight(sizes.thumbBodyLines),
      THUMB_GAP,
    );
  return docs.map((_d, i) => ({ start: i, widths: [width], height: sizes.rowHeight }));
}
