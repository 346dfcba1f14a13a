import { lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { AppShell } from './AppShell.tsx';
import { NavigationGuard } from './NavigationGuard.tsx';

const DashboardPage = lazy(() =>
  import('../features/dashboard/DashboardPage.tsx').then((m) => ({ default: m.DashboardPage })),
);
const LoginPage = lazy(() => import('../features/login/LoginPage.tsx').then((m) => ({ default: m.LoginPage })));
const LogoutPage = lazy(() => import('../features/login/LogoutPage.tsx').then((m) => ({ default: m.LogoutPage })));
const ResetPasswordPage = lazy(() =>
  import('../features/login/ResetPasswordPage.tsx').then((m) => ({ default: m.ResetPasswordPage })),
);
const SearchPage = lazy(() => import('../features/search/SearchPage.tsx').then((m) => ({ default: m.SearchPage })));
const AssetPage = lazy(() => import('../features/asset/AssetPage.tsx').then((m) => ({ default: m.AssetPage })));
const BookmarkPage = lazy(() =>
  import('../features/bookmark/BookmarkPage.tsx').then((m) => ({ default: m.BookmarkPage })),
);
const CustomPage = lazy(() => import('../features/custom/CustomPage.tsx').then((m) => ({ default: m.CustomPage })));
const AdminPage = lazy(() => import('../features/admin/AdminPage.tsx').then((m) => ({ default: m.AdminPage })));
const AdminSectionPage = lazy(() =>
  import('../features/admin/AdminPage.tsx').then((m) => ({ default: m.AdminSectionPage })),
);

const adminChildren = (['general', 'appearance', 'dashboard', 'search', 'language', 'login', 'editor'] as const).map(
  (section) => ({
    path: section,
    element: <AdminSectionPage section={section} />,
    handle: { titleKey: `views.admin.${section}` },
  }),
);

/** The route table of portal-spec §2 and admin-spec §2 (hash routes). */
export const routes: RouteObject[] = [
  {
    element: (
      <NavigationGuard>
        <AppShell />
      </NavigationGuard>
    ),
    children: [
      { path: '/', element: <DashboardPage />, handle: { titleKey: 'views.dashboard.title' } },
      { path: '/login', element: <LoginPage />, handle: { titleKey: 'views.login.title' } },
      { path: '/logout', element: <LogoutPage />, handle: { titleKey: 'views.logout.title' } },
      {
        path: '/reset-password',
        element: <ResetPasswordPage />,
        handle: { titleKey: 'views.login.new_password.title' },
      },
      { path: '/search', element: <Navigate to="/" replace /> },
      { path: '/search/:query', element: <SearchPage />, handle: { titleKey: 'views.search.title' } },
      { path: '/asset', element: <Navigate to="/" replace /> },
      { path: '/asset/:id', element: <AssetPage />, handle: { titleKey: 'views.asset.title' } },
      { path: '/bookmark', element: <BookmarkPage />, handle: { titleKey: 'views.bookmark.title' } },
      { path: '/custom', element: <CustomPage />, handle: { titleKey: 'views.custom.title' } },
      {
        path: '/admin',
        element: <AdminPage />,
        handle: { titleKey: 'views.admin.title' },
        children: [{ index: true, element: <Navigate to="general" replace /> }, ...adminChildren],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
