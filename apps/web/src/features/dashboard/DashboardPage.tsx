import { CircularProgress } from '@mui/material';
import { useTranslation } from '../../lib/translate.tsx';
import { Navigate } from '../../lib/router.tsx';
import { configThumbnailCall } from '@vitrine/contract/endpoints';
import { landingPage, routePath } from '@vitrine/contract/paths';
import type { Collection } from '@vitrine/contract/collection';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import type { AssetDoc } from '@vitrine/contract/search';
import { logoVisible, useAvailableFiles, useGlobalConfig } from '../../stores/config.ts';
import { GuidedTour } from '../../widgets/GuidedTour.tsx';
import { VISUALLY_HIDDEN } from '../../components/visuallyHidden.ts';
import { callUrl } from '../../lib/apiClient.ts';
import { CollectionRow } from './CollectionRow.tsx';
import { useNearViewport } from '../../lib/useNearViewport.ts';
import { altText } from '../../lib/assetText.ts';
import { CollectionTile, CollectionTileGrid } from './CollectionTiles.tsx';
import { collectionSearchPath } from './collectionRoute.ts';
import { DashboardSearch } from './DashboardSearch.tsx';
import { Hero } from './Hero.tsx';
import { useCollectionContent, useCollections } from './queries.ts';
import { configImageUrl, FIRST_IN_GRID } from '../../lib/pictures.ts';
import { contentLanguageOf } from '../../lib/contentLanguage.ts';

function useLabel() {
  const { t } = useTranslation();
  return (c: Collection) => (c.translation ? t(c.translation, { defaultValue: c.label }) : c.label);
}

/**
 * A poster row loads (and draws its posters) when it comes within a screen's height of the
 * viewport: twenty rows of twenty posters at once would hold up the first visit.
 */
export const ROW_MARGIN = '100% 0px';

/** What a collection on the dashboard is shown from; `first`: the first one on the page. */
interface CollectionProps {
  collection: Collection;
  lang: string;
  config: GlobalConfig;
  first: boolean;
}

function PosterCollection({ collection, lang, config, first }: CollectionProps) {
  const label = useLabel()(collection);
  const row = useNearViewport<HTMLElement>(ROW_MARGIN);
  const { data, isPending } = useCollectionContent(lang, collection.indicator, row.near);
  const { collections } = config.dashboard;
  if (collections.hide_empty_result && !isPending && (data?.numFound ?? 0) === 0) return null;
  return (
    <CollectionRow
      id={collection.indicator}
      label={label}
      content={data}
      loading={isPending}
      height={collections.height}
      borderWidth={collections.poster_border_width}
      searchPath={collectionSearchPath(collection, lang, config.fallback_locale)}
      alt={(doc: AssetDoc) => altText(doc, config.accessibility.assets, lang, config.fallback_locale)}
      first={first}
      sectionRef={row.ref}
      onFocus={row.show}
    />
  );
}

function DashboardTile({ collection, lang, config, first }: CollectionProps) {
  const label = useLabel()(collection);
  const hideEmpty = config.dashboard.collections.hide_empty_result;
  const { data, isPending } = useCollectionContent(lang, collection.indicator, hideEmpty);
  if (hideEmpty && !isPending && (data?.numFound ?? 0) === 0) return null;
  const tile = {
    id: collection.indicator,
    label,
    imageUrl: collection.src ? callUrl(configThumbnailCall, { query: { id: collection.src } }) : undefined,
    searchPath: collectionSearchPath(collection, lang, config.fallback_locale),
  };
  return <CollectionTile tile={tile} first={first} />;
}

/**
 * The dashboard (portal-spec §2 "Dashboard"): the hero with the search input, then the collections
 * as poster rows or tiles. With hide_dashboard set, / leads to the search.
 */
export function DashboardPage() {
  const { t, i18n } = useTranslation();
  const { config, status } = useGlobalConfig();
  const files = useAvailableFiles();
  const lang = contentLanguageOf(i18n, config.content_languages);
  const collections = useCollections(lang);
  if (status === 'loading') return <CircularProgress aria-label={t('global.loading')} />;
  if (landingPage('dashboard', config.global) === 'search')
    return <Navigate to={routePath({ page: 'search' })} replace />;
  const { show_as_tiles } = config.dashboard.collections;
  const list = collections.data ?? [];
  return (
    <>
      <h1 className={VISUALLY_HIDDEN}>{t('views.dashboard.title')}</h1>
      <Hero
        hero={config.dashboard.heroImage}
        heroImageUrl={files.dashboardHero ? configImageUrl('dashboardHero') : undefined}
        logoUrl={files.dashboardLogo && logoVisible(config, 'dashboard') ? configImageUrl('dashboardLogo') : undefined}
        logoAlt={t('global.logo', { title: config.global.website_title })}
      >
        <DashboardSearch lang={lang} fallbackLang={config.fallback_locale} configuredFields={config.suggestions} />
      </Hero>
      <div className="vt-collections">
        {collections.isPending && (
          <div className="vt-collections-loading">
            <CircularProgress aria-label={t('views.dashboard.loading')} />
          </div>
        )}
        {show_as_tiles ? (
          <CollectionTileGrid>
            {list.map((c, i) => (
              <DashboardTile key={c.indicator} collection={c} lang={lang} config={config} first={i < FIRST_IN_GRID} />
            ))}
          </CollectionTileGrid>
        ) : (
          list.map((c, i) => (
            <PosterCollection key={c.indicator} collection={c} lang={lang} config={config} first={i === 0} />
          ))
        )}
      </div>
      <GuidedTour page="dashboard" ready={!collections.isPending} />
    </>
  );
}
