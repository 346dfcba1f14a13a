import { AppBar, Box, Link, Toolbar, Typography } from '@mui/material';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatches } from 'react-router';
import { PageLoading } from '../components/PageLoading.tsx';
import { ToastHost } from '../components/ToastHost.tsx';
import { usePageTitle } from './usePageTitle.ts';

interface RouteHandle {
  titleKey?: string;
}

/** The frame every screen lives in: skip link, header, the routed page and the route announcer. */
export function AppShell() {
  const { t } = useTranslation();
  const matches = useMatches();
  const handle = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.titleKey)?.handle as
    RouteHandle | undefined;
  const announcement = usePageTitle(handle?.titleKey ?? 'views.dashboard.title');
  return (
    <>
      <Link
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
        sx={{
          position: 'absolute',
          left: -9999,
          '&:focus': { left: 8, top: 8, zIndex: 3000, bgcolor: 'background.paper', p: 1 },
        }}
      >
        {t('global.skip_to_content')}
      </Link>
      <AppBar position="static" color="default" elevation={1}>
        <Toolbar>
          <Typography component="p" variant="h6" sx={{ fontWeight: 700 }}>
            Vitrine
          </Typography>
        </Toolbar>
      </AppBar>
      <Box component="main" id="main" tabIndex={-1} sx={{ p: 2, outline: 'none' }}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </Box>
      <Box
        role="status"
        aria-live="polite"
        sx={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
      >
        {announcement}
      </Box>
      <ToastHost />
    </>
  );
}
