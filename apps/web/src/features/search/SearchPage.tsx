import { Box, CircularProgress, Link, Typography, useMediaQuery, useTheme } from '@mui/material';
import {
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { SearchFailure } from './SearchFailure.tsx';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from '../../lib/router.tsx';
import { pickContentLanguage } from '@vitrine/contract/config-defaults';
import { facetSortEntry } from '@vitrine/contract/endpoints';
import { routePath } from '@vitrine/contract/paths';
import type { AssetDoc, FacetSelection } from '@vitrine/contract/search';
import { useAvailableFiles, useGlobalConfig } from '../../stores/config.ts';
import { copyLink, useShareDialog } from '../../widgets/ShareDialog.tsx';
import { configImageUrl } from '../../stores/customAssets.ts';
import { DownloadFlowHost, useDownloadOptions } from '../../widgets/DownloadFlowHost.tsx';
import { GuidedTour } from '../../widgets/GuidedTour.tsx';
import { FilterDrawer } from './FilterDrawer.tsx';
import { SuggestionInput } from '../../widgets/SuggestionInput.tsx';
import { visuallyHidden } from '../../components/visuallyHidden.ts';
import { altText } from '../../lib/assetText.ts';
import { useBookmarks } from '../../stores/bookmarks.ts';
import { fieldLabel, useIndexFields, useSearchInput, type SuggestionOption } from '../../stores/searchInput.ts';
import { startDownload } from '../../stores/downloadFlow.ts';
import { nextSelection, type ClickModifiers } from '../../lib/selection.ts';
import { FacetSidebar } from './FacetSidebar.tsx';
import { useStableCallback } from '../../lib/useStableCallback.ts';
import { useFieldFormatter } from '../../stores/fieldText.ts';
import { facetDefs, facetValueLabel, type FacetDef } from './facets.ts';
import type { InfoField } from './infoFields.ts';
import type { ListColumn } from './ListTable.tsx';
import { InfoPanel } from './InfoPanel.tsx';
import { fetchFacetValues, fetchFoundIds, useSearchResults } from './queries.ts';
import { ResultList } from './ResultList.tsx';
import { ShareVisitBanner } from './ShareVisitBanner.tsx';
import {
  chooseSort,
  routeSort,
  firstPageSize,
  hasQuery,
  nextPageSize,
  parseSearchRoute,
  searchQueryOf,
  searchRoutePath,
  sidebarWidthAfterDrag,
  type SearchRoute,
  type SortState,
  type ViewKey,
  type ViewSizes,
} from './searchState.ts';
import { FilterTags, ResultsBar, type Tag } from './SearchToolbar.tsx';
import { assetsLink, portalLink } from '../../lib/portalLinks.ts';
import { toast } from '../../lib/toast.ts';
import { returnAfterLogin, useSession } from '../../stores/session.ts';

/** Results area height is the window height minus 250 (portal-spec §2 "Search"). */
const CHROME_HEIGHT = 250;
const MIN_RESULTS_HEIGHT = 320;
const SIDEBAR_KEY = 'sidebarWidth';
/** The view chosen in this tab (session storage). */
const VIEW_KEY = 'vitrine.searchView';
/** Fields the info panel shows when the config names none. */
const defaultInfoFields = [
  'title',
  'description',
  'creator',
  'category',
  'keywords',
  'format',
  'file_size',
  'imp_date',
];
/** Columns of the list table after the title and the picture when the config names none (those in the index). */
const defaultListColumns = ['format', 'file_size', 'imp_date'];

function useWindowHeight(): number {
  const [h, setH] = useState(() => window.innerHeight);
  useEffect(() => {
    const on = () => setH(window.innerHeight);
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return h;
}

function storedSidebarWidth(fallback: number): number {
  const stored = Number(localStorage.getItem(SIDEBAR_KEY));
  return Number.isFinite(stored) && stored >= 80 ? stored : fallback;
}

/**
 * The view the visitor chose in this tab, when the config still shows it, else `fallback`. Kept in
 * session storage, so going to an asset or the bookmarks and back, a reload or a new search keep it.
 */
function chosenView(visible: readonly ViewKey[], fallback: ViewKey): ViewKey {
  const stored = sessionStorage.getItem(VIEW_KEY);
  return visible.find((v) => v === stored) ?? fallback;
}

function storeView(view: ViewKey): void {
  sessionStorage.setItem(VIEW_KEY, view);
}

/** The route's state; '+{field}' of a sidebar facet is a filter, any other a suggestion. */
function useRouteState(defs: FacetDef[]): SearchRoute {
  const { query } = useParams();
  const [params] = useSearchParams();
  const facetNames = useMemo(() => new Set(defs.map((d) => d.field)), [defs]);
  const key = `${query ?? ''}?${params.toString()}`;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for query and params
  return useMemo(() => parseSearchRoute(query, params, (f) => facetNames.has(f)), [key, facetNames]);
}

/**
 * A link to chosen assets (`/search/*?id=…`, portal-spec §4 "Shared links"): when some of them are
 * hidden from the visitor it says so (part_visible); when all are, it says so too (none_visible)
 * and a guest is asked to log in, coming back here afterwards. Once per link.
 */
function useSharedIdsNotice(route: SearchRoute, total: number | undefined, path: string): void {
  const navigate = useNavigate();
  const guest = useSession().session?.user === null;
  const told = useRef<string | null>(null);
  const onlyIds = route.ids.length > 0 && !route.text && !route.filters.length && !route.suggestions.length;
  useEffect(() => {
    if (!onlyIds || total === undefined || total >= route.ids.length || told.current === path) return;
    told.current = path;
    if (total > 0) {
      toast.show('toast.open_share.part_visible', 'info');
      return;
    }
    toast.show('toast.open_share.none_visible', 'info');
    if (guest) {
      returnAfterLogin(path);
      void navigate(routePath({ page: 'login' }));
    }
  }, [onlyIds, total, route.ids.length, path, guest, navigate]);
}

/**
 * The search page (portal-spec §2 "Search", §4 "Search", "Active asset", "Selection"): header with
 * logo and search input, results heading, filter tags, sort, views, the facet sidebar and the
 * results; the route's query string is the state, so a reload or a shared link restores the page.
 */
export function SearchPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const theme = useTheme();
  const small = useMediaQuery(theme.breakpoints.down('md'));
  const { config } = useGlobalConfig();
  const files = useAvailableFiles();
  const lang = pickContentLanguage(i18n.language, config.content_languages);
  const fieldsQuery = useIndexFields();
  const fields = useMemo(() => fieldsQuery.data ?? [], [fieldsQuery.data]);
  const defs = useMemo(() => facetDefs(config, fields), [config, fields]);
  const route = useRouteState(defs);
  const currentPath = searchRoutePath(route);

  const sort: SortState = routeSort(route, config.sorting);
  const visibleViews = config.search.views.options.filter((v) => v.visible).map((v) => v.key);
  const [view, setView] = useState<ViewKey>(() =>
    chosenView(
      visibleViews,
      visibleViews.includes(config.search.views.default) ? config.search.views.default : (visibleViews[0] ?? 'grid'),
    ),
  );
  const [activeId, setActiveId] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const downloadOptions = useDownloadOptions();
  const shareDialog = useShareDialog();
  const bookmarks = useBookmarks();
  const [sidebarWidth, setSidebarWidth] = useState(() => storedSidebarWidth(config.search.sidebar.width));

  const sizes: ViewSizes = {
    posterMinHeight: config.search.posters.min_height,
    posterMaxHeight: config.search.posters.max_height,
    thumbWidth: config.search.thumbnails.width,
    thumbHeight: config.search.thumbnails.height,
    rowHeight: config.search.list.options.rowHeight,
    listImageWidth: config.search.list.options.imageColWidth,
    posterBorder: config.search.posters.border_width,
    thumbBorder: config.search.thumbnails.border_width,
  };
  const windowHeight = useWindowHeight();
  const resultsHeight = Math.max(MIN_RESULTS_HEIGHT, windowHeight - CHROME_HEIGHT);
  const initialWidth = Math.max(320, window.innerWidth - (small ? 0 : sidebarWidth));
  const widthRef = useRef(initialWidth);
  const [width, setWidth] = useState(initialWidth);
  const onWidth = useCallback((w: number) => {
    if (w > 0) {
      widthRef.current = w;
      setWidth(w);
    }
  }, []);
  // The first page's size is fixed per search, so resizing does not start a new one.
  const firstRows = useMemo(
    () => firstPageSize(view, width, resultsHeight, sizes),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- sized once per search and view
    [view, currentPath, sort.key, sort.orientation],
  );
  const facetFields = useMemo(() => defs.map((d) => d.field), [defs]);
  const facetSort = useMemo(() => defs.flatMap((d) => (d.order ? [facetSortEntry(d.field, d.order)] : [])), [defs]);
  const request = { lang, route, sort, facetFields, facetSort, firstRows };
  const results = useSearchResults(request, () => nextPageSize(view, widthRef.current, sizes), !fieldsQuery.isPending);
  // An answer's arrival is a store update, which React draws in one blocking task; the results and
  // facets it brings are drawn in a transition instead, which yields to the browser as it goes.
  const data = useDeferredValue(results.data);
  const docs = useMemo(() => data?.pages.flatMap((p) => p.docs) ?? [], [data]);
  const firstPage = data?.pages[0];
  const total = firstPage?.numFound ?? 0;
  useSharedIdsNotice(route, firstPage === undefined ? undefined : total, currentPath);

  // The search input: text and chosen suggestions follow the route.
  const routeChips = (r: SearchRoute): SuggestionOption[] =>
    r.suggestions.flatMap((s) => s.values.map((v) => ({ field: s.field_name, value: v, label: v })));
  const input = useSearchInput({
    t,
    lang,
    fallbackLang: config.fallback_locale,
    configuredFields: config.suggestions,
    initialText: route.text,
    initialChosen: () => routeChips(route),
  });
  const { setText, setChosen } = input;

  // A chosen suggestion read back from the address names its value only: once the answer's facets
  // are there, it reads as the portal labels that value (a colour's name, a collection's name).
  const answerFacets = firstPage?.facetFields;
  const valueLabel = useCallback(
    (field: string, value: string) =>
      facetValueLabel(t, field, value, answerFacets?.[field]?.find((v) => v.value === value)?.label),
    [t, answerFacets],
  );
  useEffect(() => {
    setChosen((chosen) => {
      const named = chosen.map((c) => (c.label === c.value ? { ...c, label: valueLabel(c.field, c.value) } : c));
      return named.some((c, i) => c.label !== chosen[i]?.label) ? named : chosen;
    });
  }, [valueLabel, setChosen]);

  // A new search, sort or filter clears the active asset; the selection is about this result.
  const searchKey = `${currentPath}|${sort.key}|${sort.orientation}`;
  const [seenSearch, setSeenSearch] = useState({ key: searchKey, path: currentPath });
  if (seenSearch.key !== searchKey) {
    setSeenSearch({ key: searchKey, path: currentPath });
    setActiveId(null);
    setSelected([]);
    if (seenSearch.path !== currentPath) {
      setText(route.text);
      setChosen(routeChips(route));
    }
  }
  const labelOfField = (field: string, translation?: string) =>
    fieldLabel(t, fields, field, lang, config.fallback_locale, translation);

  const go = (next: SearchRoute) => void navigate(searchRoutePath(next));
  // The sidebar and the input are memoised: their handlers stay the same while results load.
  const setFilters = useStableCallback((filters: FacetSelection[]) => go({ ...route, filters }));
  // Submitting rewrites the route from text and suggestions alone and resets sort (portal-spec §4).
  const submit = useStableCallback(() => void navigate(input.submitPath()));
  const reset = useStableCallback(() => {
    setText('');
    setChosen([]);
    void navigate(routePath({ page: 'search' }));
  });

  const changeView = useStableCallback((next: ViewKey) => {
    setView(next);
    storeView(next);
    setActiveId(null);
  });

  const onItemClick = (doc: AssetDoc, click: ClickModifiers) => {
    setSelected((s) =>
      nextSelection(
        s,
        docs.map((d) => d.id),
        doc.id,
        click,
      ),
    );
    if (!click.ctrlKey && !click.metaKey && !click.shiftKey) setActiveId((a) => (a === doc.id ? null : doc.id));
  };

  // A governed share link holds the selection, or else the results loaded so far.
  const shareFound = useStableCallback(() =>
    shareDialog.share(
      selected.length > 0 ? selected : docs.map((d) => d.id),
      () =>
        void copyLink(
          selected.length > 0 ? assetsLink(selected) : portalLink({ page: 'search', ...searchQueryOf(route) }),
          true,
        ),
    ),
  );
  // The results bar is memoised too: its handlers stay the same while further results load.
  const fetchIds = useStableCallback(() => (selected.length > 0 ? Promise.resolve(selected) : fetchFoundIds(request)));
  const downloadSelection = useStableCallback(() => void startDownload(selected, downloadOptions));
  // The sort lives in the route, replaced in place: going to an asset and back keeps it.
  const chooseSortKey = useStableCallback((key: string) => {
    const next = chooseSort(sort, key, config.sorting.orientation.default);
    void navigate(searchRoutePath({ ...route, sort: next.key, orientation: next.orientation }), { replace: true });
  });

  const formatter = useFieldFormatter(fields);
  const titleField = config.infoView.title || 'title';
  const titleOf = (doc: AssetDoc) => formatter.title(doc, titleField);
  const format = formatter.text;
  const asInfoFields = (list: { field_name: string; translation?: string }[]): InfoField[] =>
    list.map((f) => ({ field: f.field_name, label: formatter.label(f) }));
  const configuredLeft = asInfoFields(config.infoView.paramsLeft);
  const configuredRight = asInfoFields(config.infoView.paramsRight);
  const fallbackFields = asInfoFields(
    defaultInfoFields.filter((f) => f !== titleField).map((field_name) => ({ field_name })),
  );
  const [left, right] =
    configuredLeft.length + configuredRight.length > 0
      ? [configuredLeft, configuredRight]
      : [fallbackFields.slice(0, 4), fallbackFields.slice(4)];
  const sortKeys = new Set(config.sorting.options.filter((o) => o.active).map((o) => o.key));
  const listColumns: ListColumn[] = asInfoFields(
    config.search.list.columns.length > 0
      ? config.search.list.columns
      : [titleField, ...defaultListColumns]
          .filter((f) => fields.length === 0 || fields.some((x) => x.field_name === f))
          .map((field_name) => ({ field_name })),
  ).map((c) => (sortKeys.has(c.field) ? { ...c, sortKey: c.field } : c));
  const { alt, alt_fallback } = config.accessibility.assets;

  const collectionName = (id: number) => valueLabel('meta_collections', String(id));
  const tags: Tag[] = [
    ...route.filters
      .filter((f) => !fields.some((x) => x.field_name === f.key) && fields.length > 0)
      .map((f) => ({
        key: `error-${f.key}`,
        label: t('views.search.tags.error'),
        value: `${f.key}: ${f.values.join(', ')}`,
        onDelete: () => setFilters(route.filters.filter((x) => x.key !== f.key)),
      })),
    ...(route.collection !== undefined
      ? [
          {
            key: 'collection',
            label: t('views.search.tags.collection'),
            value: collectionName(route.collection),
            onDelete: () => go({ ...route, collection: undefined }),
          },
        ]
      : []),
    ...(route.ids.length > 0
      ? [
          {
            key: 'ids',
            label: t('views.search.tags.asset_id'),
            value: route.ids.join(', '),
            onDelete: () => go({ ...route, ids: [] }),
          },
        ]
      : []),
  ];

  const logoVisible = files.searchLogo && config.visibleLogos.find((l) => l.key === 'search')?.visible !== false;
  const logoImg = logoVisible && (
    <Box
      component="img"
      src={configImageUrl('searchLogo')}
      alt={t('global.logo', { title: config.global.website_title })}
      sx={{ height: 48, display: 'block' }}
    />
  );

  const suggestionLabels = route.suggestions.flatMap((s) =>
    s.values.map((v) => `${labelOfField(s.field_name)}: ${valueLabel(s.field_name, v)}`),
  );
  const heading = route.text
    ? `${t('views.search.results.query', { count: total })} ${t('views.search.results.quoted', { text: route.text })}`
    : t('views.search.results.all', { count: total });

  // The tour's info panel step opens the first result's panel when none is open.
  const openFirstInfo = useStableCallback(() => setActiveId((a) => a ?? docs[0]?.id ?? null));
  const tourBringUp = useMemo(() => ({ info_panel: openFirstInfo }), [openFirstInfo]);
  const moreFacetValues = useStableCallback((field: string, offset: number) =>
    fetchFacetValues(request, field, offset),
  );
  const sidebar = (
    <FacetSidebar
      defs={defs}
      answer={firstPage}
      filters={route.filters}
      onChange={setFilters}
      fields={fields}
      lang={lang}
      fallbackLang={config.fallback_locale}
      loadMore={moreFacetValues}
    />
  );

  const startDrag = (e: ReactPointerEvent<HTMLElement>) => {
    e.preventDefault();
    const origin = e.currentTarget.parentElement?.getBoundingClientRect().left ?? 0;
    const move = (ev: PointerEvent) => setSidebarWidth((w) => sidebarWidthAfterDrag(w, ev.clientX - origin));
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  useEffect(() => {
    localStorage.setItem(SIDEBAR_KEY, String(sidebarWidth));
  }, [sidebarWidth]);

  const status = results.isError ? 'failure' : data === undefined ? 'loading' : 'success';
  // While the next search loads, the last results stay; the heading says it is loading.
  const headingText = status === 'loading' || results.isPlaceholderData ? t('global.loading') : heading;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography component="h1" sx={visuallyHidden}>
        {t('views.search.title')}
      </Typography>
      <ShareVisitBanner />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        {logoImg &&
          (config.global.hide_dashboard ? (
            logoImg
          ) : (
            <Link component={RouterLink} to="/">
              {logoImg}
            </Link>
          ))}
        <SuggestionInput
          id="search-input"
          groups={input.groups}
          text={input.text}
          onTextChange={setText}
          chosen={input.chosen}
          onChosenChange={setChosen}
          onSubmit={submit}
          labelOf={input.labelOf}
        />
      </Box>
      <ResultsBar
        heading={`${headingText}${suggestionLabels.length > 0 ? ` ${t('views.search.results.suggestions')} ${suggestionLabels.join(', ')}` : ''}`}
        selectedCount={selected.length}
        total={total}
        fetchIds={fetchIds}
        onShare={shareFound}
        onDownload={downloadSelection}
        sorting={config.sorting}
        sort={sort}
        onChooseSort={chooseSortKey}
        views={config.search.views.options}
        view={view}
        onView={changeView}
        onReset={hasQuery(route) ? reset : undefined}
      />
      <FilterTags tags={tags} />
      <Box sx={{ display: 'flex', alignItems: 'stretch', gap: 1 }}>
        {!small && (
          <>
            <Box
              component="aside"
              aria-label={t('views.search.facets')}
              sx={{ width: sidebarWidth, flex: 'none', height: resultsHeight, overflowY: 'auto', pr: 1 }}
            >
              {sidebar}
            </Box>
            <Box
              role="separator"
              aria-orientation="vertical"
              aria-label={t('views.search.resize_facets')}
              aria-valuenow={sidebarWidth}
              aria-valuemin={80}
              tabIndex={0}
              onPointerDown={startDrag}
              onKeyDown={(e) => {
                if (e.key === 'ArrowLeft') setSidebarWidth((w) => sidebarWidthAfterDrag(w, w - 20));
                if (e.key === 'ArrowRight') setSidebarWidth((w) => sidebarWidthAfterDrag(w, w + 20));
              }}
              sx={{
                width: 6,
                flex: 'none',
                cursor: 'col-resize',
                bgcolor: 'divider',
                '&:focus-visible': { outline: 2, outlineStyle: 'solid', outlineColor: 'primary.main' },
              }}
            />
          </>
        )}
        <Box sx={{ flex: 1, minWidth: 0 }}>
          {small && <FilterDrawer>{sidebar}</FilterDrawer>}
          {status === 'loading' && (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
              <CircularProgress aria-label={t('global.loading')} />
            </Box>
          )}
          {status === 'failure' && <SearchFailure error={results.error} onRetry={() => void results.refetch()} />}
          {status === 'success' && total === 0 && <Typography sx={{ p: 2 }}>{t('views.search.no_results')}</Typography>}
          {status === 'success' && total > 0 && (
            <ResultList
              view={view}
              docs={docs}
              sizes={sizes}
              hasMore={results.hasNextPage}
              loadingMore={results.isFetchingNextPage}
              loadMore={() => void results.fetchNextPage()}
              selected={new Set(selected)}
              activeId={activeId}
              onItemClick={onItemClick}
              titleOf={titleOf}
              altOf={(doc) => altText(doc, alt, alt_fallback.field_name)}
              columns={listColumns}
              format={format}
              sort={sort}
              onSort={chooseSortKey}
              renderInfo={(doc, panelId) => (
                <InfoPanel
                  key={doc.id}
                  id={panelId}
                  doc={doc}
                  title={titleOf(doc)}
                  left={left}
                  right={right}
                  format={format}
                  borderWidth={config.infoView.options.border_width}
                  onClose={() => {
                    setActiveId(null);
                    document.querySelector<HTMLElement>(`[data-asset-id="${doc.id}"] [data-result-button]`)?.focus();
                  }}
                />
              )}
              actions={{
                share: (doc) => shareDialog.share([doc.id], () => void copyLink(assetsLink([doc.id]), false)),
                toggleBookmark: (id) => bookmarks.toggle(id),
                download: (doc) => void startDownload([doc.id], downloadOptions),
              }}
              isBookmarked={(id) => bookmarks.isBookmarked(id)}
              bookmarksLoading={bookmarks.isLoading}
              scrollKey={`${currentPath}|${sort.key}|${sort.orientation}|${view}`}
              onWidth={onWidth}
              height={resultsHeight}
            />
          )}
        </Box>
      </Box>
      <DownloadFlowHost />
      {shareDialog.dialog}
      {/* On search the tour starts when the total changes (portal-spec §2 "Guided tour"). */}
      <GuidedTour page="search" ready={status === 'success' && total > 0} startKey={total} bringUp={tourBringUp} />
    </Box>
  );
}
