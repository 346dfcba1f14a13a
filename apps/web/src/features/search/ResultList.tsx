import { CircularProgress } from '@mui/material';
import {
  elementScroll,
  measureElement as measureRowOnce,
  observeElementRect as observeRectOnce,
  useVirtualizer,
  type Virtualizer,
} from '@tanstack/react-virtual';
import {
  startTransition,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import type { AssetDoc } from '@vitrine/contract/search';
import { gridKeyHandler } from '../../lib/gridKeys.ts';
import { useStableCallback } from '../../lib/useStableCallback.ts';
import type { ClickModifiers } from '../../lib/selection.ts';
import { endFirstPaint } from '../../lib/firstPaint.ts';
import { rowGap, viewRows, type ResultRow } from './layout.ts';
import { ResultItem, type ItemActions } from './ResultItem.tsx';
import { LIST_HEADER_HEIGHT, ListHeader, ListInfoRow, ListRow, listLayout, type ListColumn } from './ListTable.tsx';
import { loadDistance, type SortState, type ViewKey, type ViewSizes } from './searchState.ts';

type ListVirtualizer = Virtualizer<HTMLDivElement, Element>;

/*
 * The virtualizer reads the list's size and its rows' heights, and writes its scroll position, at
 * once when the list or a row mounts: each lays the whole page out within the commit that mounts
 * them, a long task on a phone (decision 0244). Here the sizes are the browser's resize observer's
 * reports, after the frame's layout (a row is taken at its estimate, its layout's height, until its
 * first report), and a list just mounted is not scrolled to the top it stands at. Without an
 * observer (not a browser) they are read as the virtualizer reads them.
 */
function observeRect(instance: ListVirtualizer, cb: (rect: { width: number; height: number }) => void) {
  const el = instance.scrollElement;
  if (!el || typeof ResizeObserver === 'undefined') return observeRectOnce(instance, cb);
  const observer = new ResizeObserver(() => cb({ width: el.clientWidth, height: el.clientHeight }));
  observer.observe(el);
  return () => observer.disconnect();
}

/** Lists whose scroll position the virtualizer has written. */
const scrolled = new WeakSet<Element>();

/** The virtualizer's scrolling, but for its first write to a list just mounted, which stands at its top. */
function scrollList(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: ListVirtualizer,
): void {
  const el = instance.scrollElement;
  if (el && !scrolled.has(el)) {
    scrolled.add(el);
    if (offset === 0 && !options.adjustments) return;
  }
  elementScroll(offset, options, instance);
}

function measureRow(el: Element, entry: ResizeObserverEntry | undefined, instance: ListVirtualizer): number {
  if (entry || typeof ResizeObserver === 'undefined') return measureRowOnce(el, entry, instance);
  const index = instance.indexFromElement(el);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}

/** Scroll position is restored 250 ms after coming back (portal-spec §2 "Search"). */
const SCROLL_RESTORE_MS = 250;
/**
 * How long after that the restore waits for the rows to be drawn tall enough to scroll to it: on a
 * slow device the results' width (and so their rows) may be measured only after the 250 ms.
 */
const SCROLL_RESTORE_WAIT_MS = 3000;

/** Scroll positions of results left for an asset or the bookmarks, by search. */
const scrollPositions = new Map<string, number>();

export interface ResultListProps {
  view: ViewKey;
  docs: AssetDoc[];
  sizes: ViewSizes;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  selected: ReadonlySet<string>;
  activeId: string | null;
  onItemClick: (doc: AssetDoc, click: ClickModifiers) => void;
  titleOf: (doc: AssetDoc) => string;
  /** A thumbnail's caption (the header field of the thumbnail view). */
  captionOf: (doc: AssetDoc) => string;
  /** The lines under a thumbnail's caption (the body fields of the thumbnail view). */
  bodyOf: (doc: AssetDoc) => readonly string[];
  altOf: (doc: AssetDoc) => string;
  /** The list table's columns, a field of an asset as text, and the sort its headers show and change. */
  columns: ListColumn[];
  format: (doc: AssetDoc, field: string) => string;
  sort: SortState;
  onSort: (key: string) => void;
  renderInfo: (doc: AssetDoc, panelId: string) => ReactNode;
  actions: ItemActions;
  isBookmarked: (id: string) => boolean;
  bookmarksLoading: boolean;
  scrollKey: string;
  onWidth: (width: number) => void;
  height: number;
}

/**
 * The results in one of the three views (portal-spec §2 "Search"), virtualised so only the rows near
 * the viewport are in the DOM, with infinite scroll and the active asset's info panel under its row.
 * The list view is a table (ARIA roles: its rows are positioned one by one) under a sticky header row.
 */
export function ResultList(props: ResultListProps) {
  const { t } = useTranslation();
  const { view, docs, sizes, hasMore, loadingMore, loadMore, activeId, scrollKey, onWidth, height } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => {
      // The scroll bar's width stays out of the layout.
      const w = el.clientWidth;
      // A state update in a layout effect is drawn at once, in one task: the results' first draw
      // (every row the viewport shows) is a transition instead, which React splits into short tasks.
      startTransition(() => setWidth(w));
      onWidth(w);
    };
    // In a browser the observer's first report, after the frame's layout, gives the width: reading it
    // here would lay the page out within the commit, in the same task.
    if (typeof ResizeObserver === 'undefined') return measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [onWidth]);

  // Nothing is laid out before the area's width is known.
  const rows: ResultRow[] = useMemo(() => viewRows(view, docs, width, sizes), [view, docs, width, sizes]);

  const gap = rowGap(view);
  // The page's first paint of a phone's first results stands until these rows are drawn.
  const drawn = rows.length > 0;
  useLayoutEffect(() => {
    if (drawn) endFirstPaint();
  }, [drawn]);
  const list = view === 'list';
  const { imageWidth, tableWidth, template } = listLayout(
    props.columns.length,
    sizes.listImageWidth,
    Math.max(width, 1),
  );
  const headerHeight = list ? LIST_HEADER_HEIGHT : 0;
  const activeIndex = activeId === null ? -1 : docs.findIndex((d) => d.id === activeId);
  const activeRow = rows.findIndex((r) => activeIndex >= r.start && activeIndex < r.start + r.widths.length);

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer's functions change with its state
  const virtualizer = useVirtualizer({
    count: rows.length,
    initialRect: { width, height },
    observeElementRect: observeRect,
    measureElement: measureRow,
    scrollToFn: scrollList,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => rows[i]!.height + gap + (i === activeRow ? 320 : 0),
    overscan: 2,
    // A scroll's rows are drawn in React's next task, not inside the scroll event (flushSync): a page
    // of new rows coming into view then held the scroll handler 20–50 ms (bench/web-search).
    useFlushSync: false,
    getItemKey: (i) => `${view}-${rows[i]!.start}`,
    // The list's header row sits above its rows.
    scrollMargin: headerHeight,
  });

  const checkNearEnd = useCallback(() => {
    const el = scrollRef.current;
    if (!el || !hasMore || loadingMore) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < loadDistance(view, sizes)) loadMore();
  }, [hasMore, loadingMore, loadMore, view, sizes]);

  // Before its width is measured the area has no rows and is short: that is not the end of the results.
  // Measured in the next frame, whose layout it then reads, not in a layout of its own.
  useEffect(() => {
    if (rows.length === 0) return;
    const frame = requestAnimationFrame(checkNearEnd);
    return () => cancelAnimationFrame(frame);
  }, [checkNearEnd, rows.length]);

  // Switching view starts at the top (a list just mounted is there).
  const shownView = useRef(view);
  useEffect(() => {
    if (shownView.current === view) return;
    shownView.current = view;
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [view]);

  // Coming back from an asset or the bookmarks restores where the visitor was.
  useEffect(() => {
    const saved = scrollPositions.get(scrollKey);
    const el = scrollRef.current;
    if (saved === undefined || !el) return;
    let frame = 0;
    let until = 0;
    let reached = -1;
    const restore = () => {
      // The visitor scrolled meanwhile: theirs is the position now.
      if (reached !== -1 && el.scrollTop !== reached) return;
      until ||= performance.now() + SCROLL_RESTORE_WAIT_MS;
      el.scrollTop = saved;
      reached = el.scrollTop;
      // Not tall enough yet (rows not drawn): again at the next frame, for a while.
      if (reached < saved - 1 && performance.now() < until) frame = requestAnimationFrame(restore);
    };
    const timer = setTimeout(restore, SCROLL_RESTORE_MS);
    return () => {
      clearTimeout(timer);
      cancelAnimationFrame(frame);
    };
  }, [scrollKey]);
  // Kept while scrolling: once the page has left, its detached element reads a scroll position of 0.
  const onScroll = () => {
    const el = scrollRef.current;
    if (el) scrollPositions.set(scrollKey, el.scrollTop);
    checkNearEnd();
  };

  const panelId = 'search-info-panel';
  const items = virtualizer.getVirtualItems();
  // The palette's variables are set once on :root by the theme (lib/theme.ts paletteVariables).
  const colours = useMemo(
    () =>
      ({
        // A selected item's border, as configured for the view (portal-spec §9: 2 px by default).
        '--vt-selected-width': `${view === 'grid' ? sizes.posterBorder : view === 'thumbnail' ? sizes.thumbBorder : 2}px`,
      }) as CSSProperties,
    [view, sizes.posterBorder, sizes.thumbBorder],
  );
  // Items get only values that change with them; the handlers stay the same object, so the memoised
  // items re-render only when their own state changes.
  const onClick = useStableCallback(props.onItemClick);
  const share = useStableCallback(props.actions.share);
  const toggleBookmark = useStableCallback(props.actions.toggleBookmark);
  const download = useStableCallback(props.actions.download);
  const actions = useMemo<ItemActions>(() => ({ share, toggleBookmark, download }), [share, toggleBookmark, download]);
  const rowsOf = (item: (typeof items)[number]) => {
    // The virtualizer counts the rows, and the rows are laid out over the docs: these indexes exist.
    const row = rows[item.index]!;
    const rowDocs = docs.slice(row.start, row.start + row.widths.length);
    const info = item.index === activeRow && activeIndex !== -1 && props.renderInfo(docs[activeIndex]!, panelId);
    const rowProps = { ...props, panelId, onClick, itemActions: actions, first: item.index === 0 };
    if (list) {
      const doc = docs[row.start]!;
      return (
        <>
          <ListRow
            doc={doc}
            index={row.start}
            columns={props.columns}
            template={template}
            height={row.height}
            selected={props.selected.has(doc.id)}
            format={props.format}
            onClick={onClick}
            picture={<Row {...rowProps} doc={doc} width={imageWidth} height={row.height - 1} />}
          />
          {info && (
            <ListInfoRow columns={props.columns.length} width={Math.max(width, 1)}>
              {info}
            </ListInfoRow>
          )}
        </>
      );
    }
    return (
      <>
        <div className="vt-row" style={{ gap, paddingBottom: gap }}>
          {rowDocs.map((doc, i) => (
            <Row key={doc.id} {...rowProps} doc={doc} width={row.widths[i]!} height={row.height} />
          ))}
        </div>
        {info && <div>{info}</div>}
      </>
    );
  };
  const body = (
    <div
      role={list ? 'rowgroup' : undefined}
      style={{ height: virtualizer.getTotalSize() - headerHeight, position: 'relative', width: '100%' }}
    >
      {items.map((item) => (
        <div
          key={item.key}
          data-index={item.index}
          ref={virtualizer.measureElement}
          style={{
            position: 'absolute',
            top: 0,
            left: 0,
            width: '100%',
            transform: `translateY(${item.start - headerHeight}px)`,
          }}
        >
          {rowsOf(item)}
        </div>
      ))}
    </div>
  );
  return (
    <div
      ref={scrollRef}
      className="vt-results"
      onScroll={onScroll}
      onKeyDown={gridKeyHandler('[data-result-button]')}
      role="region"
      aria-label={t('views.search.results_label')}
      data-tour="result_view"
      data-view={view}
      data-icons-on-hover={(view === 'thumbnail' && sizes.thumbIconsOnHover) || undefined}
      // A row brought into view by the keyboard is not left under the list's header row.
      style={{ height, overflowX: list ? 'auto' : 'hidden', scrollPaddingTop: headerHeight, ...colours }}
    >
      {list ? (
        <div
          role="table"
          aria-label={t('views.search.results_label')}
          aria-rowcount={docs.length + 1}
          style={{ width: tableWidth }}
        >
          <ListHeader columns={props.columns} template={template} sort={props.sort} onSort={props.onSort} />
          {body}
        </div>
      ) : (
        body
      )}
      {/* Over the bottom of the results, taking no room: the rows above it do not move. */}
      {loadingMore && (
        <div role="status" className="vt-results-more">
          <CircularProgress
            size={24}
            aria-label={t('views.search.loading_more')}
            sx={{ position: 'absolute', bottom: 16, left: 'calc(50% - 12px)' }}
          />
        </div>
      )}
    </div>
  );
}

function Row(
  props: ResultListProps & {
    doc: AssetDoc;
    width: number;
    height: number;
    panelId: string;
    onClick: (doc: AssetDoc, click: ClickModifiers) => void;
    itemActions: ItemActions;
    first: boolean;
  },
) {
  const { view, doc, width, height, sizes, selected, activeId, titleOf, captionOf, bodyOf, altOf, panelId } = props;
  const title = titleOf(doc);
  const common = {
    doc,
    title,
    alt: altOf(doc),
    selected: selected.has(doc.id),
    active: activeId === doc.id,
    bookmarked: props.isBookmarked(doc.id),
    bookmarksLoading: props.bookmarksLoading,
    onClick: props.onClick,
    actions: props.itemActions,
    panelId,
    first: props.first,
  };
  if (view === 'thumbnail')
    return (
      <ResultItem
        {...common}
        width={sizes.thumbWidth}
        height={sizes.thumbHeight}
        caption={captionOf(doc)}
        body={bodyOf(doc)}
      />
    );
  return <ResultItem {...common} width={width} height={height} />;
}
