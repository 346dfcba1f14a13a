import { CircularProgress, Link, Typography, useMediaQuery } from '@mui/material';
import { useCallback, useDeferredValue, useLayoutEffect, useMemo } from 'react';
import { endFirstPaint } from '../../lib/firstPaint.ts';
import { useTranslation } from '../../lib/translate.tsx';
import { SearchFailure } from './SearchFailure.tsx';
import { Link as RouterLink, useNavigate } from '../../lib/router.tsx';
import { routePath } from '@vitrine/contract/paths';
import type { FacetSelection } from '@vitrine/contract/search';
import { logoVisible, useAvailableFiles, useGlobalConfig } from '../../stores/config.ts';
import { copyLink, useShareDialog } from '../../widgets/ShareDialog.tsx';
import { configImageUrl } from '../../lib/pictures.ts';
import { DownloadFlowHost, useDownloadOptions } from '../../widgets/DownloadFlowHost.tsx';
import { GuidedTour } from '../../widgets/GuidedTour.tsx';
import { FilterDrawer } from './FilterDrawer.tsx';
import { SuggestionInput } from '../../widgets/SuggestionInput.tsx';
import { VISUALLY_HIDDEN } from '../../components/visuallyHidden.ts';
import { altText } from '../../lib/assetText.ts';
import { useBookmarks } from '../../stores/bookmarks.ts';
import { fieldLabel, useIndexFields } from '../../stores/searchInput.ts';
import { useValueText } from '../../stores/fieldText.ts';
import { startDownload } from '../../stores/downloadFlow.ts';
import { FacetSidebar } from './FacetSidebar.tsx';
import { useStableCallback } from '../../lib/useStableCallback.ts';
import { facetDefs, facetRequestOf, facetValueLabel } from './facets.ts';
import { InfoPanel } from './InfoPanel.tsx';
import { fetchFacetValues, fetchFoundIds, useSearchResults, useSimilarOrigin } from './queries.ts';
import { ResultList } from './ResultList.tsx';
import { ShareVisitBanner } from './ShareVisitBanner.tsx';
import {
  chooseSort,
  routeSort,
  sortingFor,
  firstPageSize,
  hasQuery,
  nextPageSize,
  searchQueryOf,
  searchRoutePath,
  SIDEBAR_MIN_X,
  type SearchRoute,
  type SortState,
  type ViewKey,
} from './searchState.ts';
import { FilterTags, ResultsBar, type Tag } from './SearchToolbar.tsx';
import { colourOf, similarOf, withColour, withSimilar, wordsOf } from './colour.ts';
import { assetsLink, portalLink } from '../../lib/portalLinks.ts';
import { useResultFields } from './useResultFields.ts';
import { SMALL_SCREEN, useResultsBox, useSidebarWidth, viewSizesOf } from './useResultsLayout.ts';
import { useResultSelection, useSearchView } from './useResultSelection.ts';
import { useRouteInput, useRouteState, useSharedIdsNotice } from './useSearchRoute.ts';
import './searchPage.css';
import { contentLanguageOf } from '../../lib/contentLanguage.ts';

// The app's start asks for the first results from here (app/firstScreen.ts): this module is loaded
// as the app starts anyway, its code asked for by the page beside the app's (decision 0243).

/**
 * The search page (portal-spec §2 "Search", §4 "Search", "Active asset", "Selection"): header with
 * logo and search input, results heading, filter tags, sort, views, the facet sidebar and the
 * results; the route's query string is the state, so a reload or a shared link restores the page.
 */
export function SearchPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const small = useMediaQuery(SMALL_SCREEN);
  const { config } = useGlobalConfig();
  const files = useAvailableFiles();
  const lang = contentLanguageOf(i18n, config.content_languages);
  const fieldsQuery = useIndexFields();
  const fields = useMemo(() => fieldsQuery.data ?? [], [fieldsQuery.data]);
  const defs = useMemo(() => facetDefs(config, fields), [config, fields]);
  const route = useRouteState(defs);
  const currentPath = searchRoutePath(route);

  const sorting = useMemo(() => sortingFor(config.sorting, fields), [config.sorting, fields]);
  const sort: SortState = routeSort(route, sorting);
  const [view, setView] = useSearchView(config.search.views.options, config.search.views.default);
  const downloadOptions = useDownloadOptions();
  const shareDialog = useShareDialog();
  const bookmarks = useBookmarks();
  const sidebarWidth = useSidebarWidth(config.search.sidebar.width);
  const sizes = useMemo(() => viewSizesOf(config.search), [config.search]);
  const box = useResultsBox(!small, sidebarWidth.width);
  // The first page's size is fixed per search, so resizing does not start a new one.
  const firstRows = useMemo(
    () => firstPageSize(view, box.widthRef.current, box.height, sizes),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- sized once per search and view
    [view, currentPath, sort.key, sort.orientation],
  );
  const { facetFields, facetSort } = useMemo(() => facetRequestOf(defs), [defs]);
  const request = { lang, route, sort, facetFields, facetSort, firstRows };
  const results = useSearchResults(
    request,
    () => nextPageSize(view, box.widthRef.current, sizes),
    !fieldsQuery.isPending,
  );
  // An answer's arrival is a store update, which React draws in one blocking task; the results and
  // facets it brings are drawn in a transition instead, which yields to the browser as it goes.
  const data = useDeferredValue(results.data);
  const docs = useMemo(() => data?.pages.flatMap((p) => p.docs) ?? [], [data]);
  const firstPage = data?.pages[0];
  const total = firstPage?.numFound ?? 0;
  useSharedIdsNotice(route, firstPage === undefined ? undefined : total, currentPath);

  const answerFacets = firstPage?.facetFields;
  const valueText = useValueText();
  const valueLabel = useCallback(
    (field: string, value: string) => {
      const format = defs.find((d) => d.field === field)?.format ?? 'none';
      const label = answerFacets?.[field]?.find((v) => v.value === value)?.label;
      return facetValueLabel(t, field, value, label, { format, text: valueText });
    },
    [t, answerFacets, defs, valueText],
  );
  const input = useRouteInput(route, currentPath, {
    t,
    lang,
    fallbackLang: config.fallback_locale,
    configuredFields: config.suggestions,
    valueLabel,
  });
  const { setText, setChosen } = input;

  // A new search, sort or filter clears the active asset; the selection is about this result.
  const selection = useResultSelection(`${currentPath}|${sort.key}|${sort.orientation}`, docs);
  const { selected, activeId } = selection;
  const labelOfField = (field: string, translation?: string) =>
    fieldLabel({ t, textIn: i18n.textIn }, fields, field, lang, config.fallback_locale, translation);

  const go = (next: SearchRoute) => void navigate(searchRoutePath(next));
  // The sidebar and the input are memoised: their handlers stay the same while results load.
  const setFilters = useStableCallback((filters: FacetSelection[]) => go({ ...route, filters }));
  // Submitting rewrites the route from text, suggestions, colour and look-alike terms alone and resets
  // sort (portal-spec §4).
  const submit = useStableCallback(() => input.submit());
  const reset = useStableCallback(() => {
    setText('');
    setChosen([]);
    void navigate(routePath({ page: 'search' }));
  });

  const changeView = useStableCallback((next: ViewKey) => {
    setView(next);
    selection.closeInfo();
  });

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

  const { titleOf, captionOf, bodyOf, format, left, right, listColumns } = useResultFields(
    useMemo(() => ({ ...config, sorting }), [config, sorting]),
    fields,
  );

  // The colour is a term of the search's text (issue #52), so the link and going back keep it.
  const chooseColour = useStableCallback((colour: string) => go({ ...route, text: withColour(route.text, colour) }));
  const chosenColour = colourOf(route.text);
  // A search of look-alikes (the info panel's "Similar assets") names its asset in a tag.
  const similarTo = similarOf(route.text);
  const similarDoc = useSimilarOrigin(lang, similarTo).data;
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
    ...(chosenColour
      ? [
          {
            key: 'colour',
            label: t('alike.colour.title'),
            value: chosenColour,
            onDelete: () => go({ ...route, text: withColour(route.text, undefined) }),
          },
        ]
      : []),
    ...(similarTo !== undefined
      ? [
          {
            key: 'similar',
            label: t('alike.similar.title'),
            value: similarDoc ? titleOf(similarDoc) : `#${similarTo}`,
            onDelete: () => go({ ...route, text: withSimilar(route.text, undefined) }),
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

  const logoImg = files.searchLogo && logoVisible(config, 'search') && (
    <img
      className="vt-search-logo"
      src={configImageUrl('searchLogo')}
      alt={t('global.logo', { title: config.global.website_title })}
    />
  );

  // admin-spec §1 "search": the search logo's alignment. Left and centred (a row of its own) come
  // before the search input, right after it: the order of the page is the order seen.
  const logoAlign = config.search.logo.alignment;
  const logoBox = logoImg && (
    <div className="vt-search-logo-box">
      {config.global.hide_dashboard ? (
        logoImg
      ) : (
        <Link component={RouterLink} to="/">
          {logoImg}
        </Link>
      )}
    </div>
  );

  const suggestionLabels = route.suggestions.flatMap((s) =>
    s.values.map((v) => `${labelOfField(s.field_name)}: ${valueLabel(s.field_name, v)}`),
  );
  // The heading quotes the words only: the colour and look-alike terms are tags, and a search of
  // those alone reads as one without words.
  const words = wordsOf(route.text);
  const heading = words
    ? `${t('views.search.results.query', { count: total })} ${t('views.search.results.quoted', { text: words })}`
    : t('views.search.results.all', { count: total });

  // The tour's info panel step opens the first result's panel when none is open.
  const tourBringUp = useMemo(() => ({ info_panel: selection.openFirstInfo }), [selection.openFirstInfo]);
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
      colour={colourOf(route.text)}
      onColour={chooseColour}
    />
  );

  const status = results.isError ? 'failure' : data === undefined ? 'loading' : 'success';
  // The page's first paint of a phone's results gives way when there are none to draw (ResultList
  // ends it once its rows are drawn).
  const noRows = status === 'failure' || (status === 'success' && total === 0);
  useLayoutEffect(() => {
    if (noRows) endFirstPaint();
  }, [noRows]);
  // While the next search loads, the last results stay; the heading says it is loading.
  const headingText = status === 'loading' || results.isPlaceholderData ? t('global.loading') : heading;

  return (
    // Plain elements with static CSS (searchPage.css) for the page's frame.
    <div className="vt-search">
      <h1 className={VISUALLY_HIDDEN}>{t('views.search.title')}</h1>
      <ShareVisitBanner />
      <div className="vt-search-head" data-logo-align={logoAlign}>
        {logoAlign !== 'right' && logoBox}
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
        {logoAlign === 'right' && logoBox}
      </div>
      <ResultsBar
        heading={`${headingText}${suggestionLabels.length > 0 ? ` ${t('views.search.results.suggestions')} ${suggestionLabels.join(', ')}` : ''}`}
        selected={selected}
        total={total}
        fetchIds={fetchIds}
        onShare={shareFound}
        onDownload={downloadSelection}
        onBinned={selection.clearSelection}
        sorting={sorting}
        sort={sort}
        onChooseSort={chooseSortKey}
        views={config.search.views.options}
        view={view}
        onView={changeView}
        onReset={hasQuery(route) ? reset : undefined}
      />
      <FilterTags tags={tags} />
      <div className="vt-search-row">
        {!small && (
          <>
            <aside
              className="vt-facets"
              aria-label={t('views.search.facets')}
              style={{ width: sidebarWidth.width, height: box.height }}
            >
              {sidebar}
            </aside>
            <div
              className="vt-separator"
              role="separator"
              aria-orientation="vertical"
              aria-label={t('views.search.resize_facets')}
              aria-valuenow={sidebarWidth.width}
              aria-valuemin={SIDEBAR_MIN_X}
              tabIndex={0}
              onPointerDown={sidebarWidth.startDrag}
              onKeyDown={sidebarWidth.onKey}
            />
          </>
        )}
        <div className="vt-results-column">
          {small && <FilterDrawer>{sidebar}</FilterDrawer>}
          {status === 'loading' && (
            <div className="vt-search-loading">
              <CircularProgress aria-label={t('global.loading')} />
            </div>
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
              onItemClick={selection.onItemClick}
              titleOf={titleOf}
              captionOf={captionOf}
              bodyOf={bodyOf}
              altOf={(doc) => altText(doc, config.accessibility.assets, lang, config.fallback_locale)}
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
                    selection.closeInfo();
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
              onWidth={box.onWidth}
              height={box.height}
            />
          )}
        </div>
      </div>
      <DownloadFlowHost />
      {shareDialog.dialog}
      {/* On search the tour starts when the total changes (portal-spec §2 "Guided tour"). */}
      <GuidedTour page="search" ready={status === 'success' && total > 0} startKey={total} bringUp={tourBringUp} />
    </div>
  );
}
