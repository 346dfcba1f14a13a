import { Alert, IconButton, LinearProgress, useMediaQuery, useTheme } from '@mui/material';
import { Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { useTranslation } from '../lib/translate.tsx';
import { Link as RouterLink, Outlet, useLocation, useMatches, useNavigation } from '../lib/router.tsx';
import { pageOf, type PortalPage } from '@vitrine/contract/paths';
import { ChevronLeftIcon, MenuIcon } from '../components/icons.tsx';
import { IconTooltip } from '../components/IconTooltip.tsx';
import { PageLoading } from '../components/PageLoading.tsx';
import { ToastHost } from '../components/ToastHost.tsx';
import { VISUALLY_HIDDEN } from '../components/visuallyHidden.ts';
import { AccountMenu } from './AccountMenu.tsx';
import { AppFooter } from './AppFooter.tsx';
import { logoVisible, useAvailableFiles, useConfigErrorNotice, useGlobalConfig } from '../stores/config.ts';
import { useCustomStyleAndFavicon } from '../stores/customAssets.ts';
import { configImageUrl } from '../lib/pictures.ts';
import { startPath } from '../stores/session.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { NavDrawer } from './NavDrawer.tsx';
import { ThemeSwitch } from './ThemeSwitch.tsx';
import { usePageTitle } from './usePageTitle.ts';
import { endFirstPaint, firstPaintPage } from '../lib/firstPaint.ts';
import './shell.css';
import './hero.css';
import './asset.css';
import './controls.css';
// The search page's frame and results, in the app's first style sheet too: the page's first paint
// draws a phone's first results with them before the search page's code has arrived (src/first-paint).
import '../features/search/searchPage.css';
import '../features/search/results.css';
import './firstPaint.css';

interface RouteHandle {
  titleKey?: string;
}

/** Hash anchors scroll with an offset (the fixed header and, on search, its toolbar; portal-spec §2). */
export const ANCHOR_OFFSET_SEARCH = 212;
export const ANCHOR_OFFSET = 76;

/** On a route change: scroll to the hash anchor below the header, otherwise to the top. */
function useScrollOnNavigation(): void {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (!target) {
      window.scrollTo(0, 0);
      return;
    }
    const offset = pageOf(pathname) === 'search' ? ANCHOR_OFFSET_SEARCH : ANCHOR_OFFSET;
    window.scrollTo(0, target.getBoundingClientRect().top + window.scrollY - offset);
  }, [pathname, hash]);
}

/** The screens whose logo visibleLogos switches (admin-spec §3), by their page. */
const logoScreens: Partial<Record<PortalPage, string>> = {
  dashboard: 'dashboard',
  search: 'search',
  login: 'login',
  bookmark: 'bookmark',
  asset: 'asset',
  logout: 'logout',
};

/**
 * The frame every screen lives in: skip link, header with logo, language and theme switch, the
 * navigation drawer, the routed page, the footer and the route announcer.
 */
/**
 * The longest the page's first paint stands once the shell is drawn (ms): its screen ends it as soon
 * as it has its content, which comes from answers the page asked for before the app's code arrived.
 */
const FIRST_PAINT_LONGEST_MS = 5000;

export function AppShell() {
  const { t } = useTranslation();
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const { config, status } = useGlobalConfig();
  const files = useAvailableFiles();
  const matches = useMatches();
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const [wideOpen, setWideOpen] = useState(true);
  // The temporary drawer belongs to the route it was opened on, so it closes when the route changes.
  const [mobileOpenOn, setMobileOpenOn] = useState<string | null>(null);
  const drawerOpen = mobile ? mobileOpenOn === pathname : wideOpen;
  const setDrawerOpen = (open: boolean) => (mobile ? setMobileOpenOn(open ? pathname : null) : setWideOpen(open));
  const handle = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.titleKey)?.handle as
    RouteHandle | undefined;
  const websiteTitle = config.global.website_title;
  const announcement = usePageTitle(handle?.titleKey ?? 'views.dashboard.title', websiteTitle);
  const hideDashboard = config.global.hide_dashboard;
  const page = pageOf(pathname);
  const logoScreen = page && logoScreens[page];
  const showLogo = files.logo && (logoScreen === undefined || logoVisible(config, logoScreen));
  useConfigErrorNotice(status);
  useCustomStyleAndFavicon(pathname);
  useScrollOnNavigation();
  // The page's first paint stands for one screen, which ends it once it has drawn its content
  // (Hero.tsx, AssetMedia.tsx, SearchPage.tsx); on any other screen it ends here, and on that one
  // after a while in any case, so that no answer that comes late leaves the app's screen hidden.
  useLayoutEffect(() => {
    if (page !== firstPaintPage()) {
      endFirstPaint();
      return undefined;
    }
    const timer = setTimeout(endFirstPaint, FIRST_PAINT_LONGEST_MS);
    return () => clearTimeout(timer);
  }, [page]);

  const loading = navigation.state !== 'idle';
  // Plain elements with static CSS (shell.css): the page fills the screen below the header (56 px
  // high on phones, 64 px from 600 px up), so the footer starts below the fold and a page whose
  // content arrives late pushes nothing visible down.
  return (
    <div className="vt-shell">
      <a
        className="vt-skip"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t('global.skip_to_content')}
      </a>
      <header className="vt-header">
        <div className="vt-toolbar">
          <IconTooltip title={drawerOpen ? t('global.close_menu') : t('global.open_menu')}>
            <IconButton
              edge="start"
              color="inherit"
              aria-label={drawerOpen ? t('global.close_menu') : t('global.open_menu')}
              aria-expanded={drawerOpen}
              aria-controls="main-navigation"
              onClick={() => setDrawerOpen(!drawerOpen)}
            >
              {drawerOpen && !mobile ? <ChevronLeftIcon /> : <MenuIcon />}
            </IconButton>
          </IconTooltip>
          <RouterLink className="vt-brand" to={startPath(hideDashboard)}>
            {showLogo ? (
              <img src={configImageUrl('logo')} alt={t('global.logo', { title: websiteTitle })} />
            ) : (
              websiteTitle
            )}
          </RouterLink>
          <div className="vt-grow" />
          <ThemeSwitch />
          <LanguageSwitch locales={config.visibleLocales} />
          <AccountMenu compact={mobile} hideDashboard={hideDashboard} />
        </div>
        {loading && (
          <LinearProgress
            aria-label={t('global.loading')}
            sx={{ position: 'absolute', bottom: 0, left: 0, right: 0 }}
          />
        )}
      </header>
      <div className="vt-body">
        <NavDrawer mobile={mobile} open={drawerOpen} onOpenChange={setDrawerOpen} hideDashboard={hideDashboard} />
        <div className="vt-column">
          {status === 'unavailable' && (
            <Alert severity="error" sx={{ m: 2, mb: 0 }}>
              {t('global.config_unavailable')}
            </Alert>
          )}
          <main className="vt-main" id="main" tabIndex={-1} aria-busy={loading}>
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </main>
          <AppFooter config={config} />
        </div>
      </div>
      <div role="status" aria-live="polite" className={VISUALLY_HIDDEN}>
        {announcement}
      </div>
      <ToastHost />
    </div>
  );
}
