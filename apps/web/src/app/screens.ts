import type { ComponentType } from 'react';
import type { BootData } from '@vitrine/contract/boot';
import { landingPage, pageOf, type PortalPage } from '@vitrine/contract/paths';
import { configImageUrl, preloadPicture, screenWidePicture } from '../lib/pictures.ts';

/*
 * The code of each screen, loaded the first time it is shown. Nothing here is imported statically,
 * so `startFirstScreen` can run before the rest of the app's code: main.tsx imports this module
 * first, and the first screen's chunk then downloads while the shell's code is still being run.
 */
export const screens = {
  dashboard: () => import('../features/dashboard/DashboardPage.tsx').then((m) => m.DashboardPage),
  login: () => import('../features/login/LoginPage.tsx').then((m) => m.LoginPage),
  logout: () => import('../features/login/LogoutPage.tsx').then((m) => m.LogoutPage),
  resetPassword: () => import('../features/login/ResetPasswordPage.tsx').then((m) => m.ResetPasswordPage),
  search: () => import('../features/search/SearchPage.tsx').then((m) => m.SearchPage),
  asset: () => import('../features/asset/AssetPage.tsx').then((m) => m.AssetPage),
  bookmark: () => import('../features/bookmark/BookmarkPage.tsx').then((m) => m.BookmarkPage),
  shares: () => import('../features/share/MySharesPage.tsx').then((m) => m.MySharesPage),
  share: () => import('../features/share/ShareLandingPage.tsx').then((m) => m.ShareLandingPage),
  custom: () => import('../features/custom/CustomPage.tsx').then((m) => m.CustomPage),
  admin: () => import('../features/admin/AdminPage.tsx').then((m) => m.AdminPage),
  upload: () => import('../features/upload/UploadPage.tsx').then((m) => m.UploadPage),
} satisfies Record<PortalPage, () => Promise<ComponentType>>;

/**
 * Starts loading the code of the screen the address shows (the hash router's path), so that it
 * arrives while the shell starts (not the upload page's); the router's own load of it later gets the same module. A failed
 * load is the router's to report, when it asks again. On the dashboard the hero picture, its largest
 * element, is asked for too, before the screen that draws it exists.
 */
export function startFirstScreen(hash: string, boot: BootData | null): void {
  const shown = pageOf(hash.slice(1) || '/');
  if (!shown) return;
  const page = boot ? landingPage(shown, boot.config.global) : shown;
  // The upload page's code is for editors: it loads once the session says so (routes.tsx).
  if (page === 'upload') return;
  screens[page]().catch(() => undefined);
  if (page === 'dashboard' && boot?.files.dashboardHero)
    preloadPicture(screenWidePicture(configImageUrl('dashboardHero')));
}
