import type { ComponentType } from 'react';
import { routePath, routePatterns } from '@vitrine/contract/paths';
import { Navigate, type NonIndexRouteObject, type RouteObject } from '../lib/router.tsx';
import { PageLoading } from '../components/PageLoading.tsx';
import { ScreenLoadError } from '../components/ScreenLoadError.tsx';
import { AppShell } from './AppShell.tsx';
import { screens } from './screens.ts';
import { NavigationGuard } from './NavigationGuard.tsx';
import { UploadRoute } from './UploadRoute.tsx';
import { BIN_PATH } from '../widgets/edit/binPath.ts';
import { DUPLICATES_PATH } from '../widgets/edit/duplicatesPath.ts';

/*
 * Screens load on demand through the router's `lazy`, not React.lazy: the router then waits for
 * a screen's code before it switches, so its navigation state is 'loading' meanwhile and the shell
 * shows the page-loading flag (portal-spec §2 "Navigation rules") over the page that is still shown.
 */
const adminChildren: RouteObject[] = (
  [
    'general',
    'appearance',
    'dashboard',
    'search',
    'language',
    'login',
    'editor',
    'statistics',
    'people',
    'groups',
  ] as const
).map((section) => ({
  path: section,
  lazy: async () => {
    const { AdminSectionPage } = await import('../features/admin/AdminPage.tsx');
    return { element: <AdminSectionPage section={section} /> };
  },
  handle: { titleKey: `views.admin.${section}` },
  errorElement: <ScreenLoadError />,
}));

/** A screen at `path`, titled by `titleKey`, whose code loads when it is first visited. */
const screen = (path: string, titleKey: string, load: () => Promise<ComponentType>): NonIndexRouteObject => ({
  path,
  handle: { titleKey },
  lazy: async () => ({ Component: await load() }),
  // The shell stays; the page says its code could not be loaded.
  errorElement: <ScreenLoadError />,
});

const home = routePath({ page: 'dashboard' });

/** The route table of portal-spec §2 and admin-spec §2 (hash routes, their patterns the contract's). */
export const routes: RouteObject[] = [
  {
    element: (
      <NavigationGuard>
        <AppShell />
      </NavigationGuard>
    ),
    // Shown on the very first load while the first screen's code arrives.
    hydrateFallbackElement: <PageLoading />,
    children: [
      screen(routePatterns.dashboard, 'views.dashboard.title', screens.dashboard),
      screen(routePatterns.login, 'views.login.title', screens.login),
      screen(routePatterns.logout, 'views.logout.title', screens.logout),
      screen(routePatterns.resetPassword, 'views.login.new_password.title', screens.resetPassword),
      // A search or asset address without its part leads home.
      { path: '/search', element: <Navigate to={home} replace /> },
      screen(routePatterns.search, 'views.search.title', screens.search),
      { path: '/asset', element: <Navigate to={home} replace /> },
      screen(routePatterns.asset, 'views.asset.title', screens.asset),
      screen(routePatterns.bookmark, 'views.bookmark.title', screens.bookmark),
      screen(routePatterns.shares, 'views.shares.title', screens.shares),
      screen(routePatterns.share, 'views.share_landing.title', screens.share),
      screen(routePatterns.custom, 'views.custom.title', screens.custom),
      { path: routePatterns.upload, handle: { titleKey: 'upload.title' }, element: <UploadRoute /> },
      // Editors' bin (issue #49); BinPage sends anyone else home.
      screen(BIN_PATH, 'edit.bin.title', () => import('../features/bin/BinPage.tsx').then((m) => m.BinPage)),
      // Editors' duplicates report (issue #52), a chunk of its own; DuplicatesPage sends anyone else home.
      screen(DUPLICATES_PATH, 'alike.duplicates.title', () =>
        import('../features/duplicates/DuplicatesPage.tsx').then((m) => m.DuplicatesPage),
      ),
      {
        ...screen(routePatterns.admin, 'views.admin.title', screens.admin),
        children: [{ index: true, element: <Navigate to="general" replace /> }, ...adminChildren],
      },
      { path: '*', element: <Navigate to={home} replace /> },
    ],
  },
];
