import { List, ListItemButton, ListItemIcon, ListItemText, type SvgIconProps } from '@mui/material';
import { lazy, Suspense, type ComponentType } from 'react';
import { useTranslation } from '../lib/translate.tsx';
import { pageOf, routePath } from '@vitrine/contract/paths';
import { Link as RouterLink, useLocation } from '../lib/router.tsx';
import { BookmarkIcon, HomeIcon, InfoIcon, SearchIcon } from '../components/icons.tsx';
import { IconTooltip } from '../components/IconTooltip.tsx';

// The temporary drawer (with its modal and swipe code) only loads on small screens.
const MobileNavDrawer = lazy(() => import('./MobileNavDrawer.tsx').then((m) => ({ default: m.MobileNavDrawer })));

/** Drawer and rail widths and the swipe edge of portal-spec §9. */
export const DRAWER_WIDTH = 256;
export const RAIL_WIDTH = 56;
export const SWIPE_EDGE = 25;

interface NavEntry {
  page: 'dashboard' | 'search' | 'bookmark' | 'custom';
  labelKey: string;
  icon: ComponentType<SvgIconProps>;
}

function navEntries(hideDashboard: boolean): NavEntry[] {
  const entries: NavEntry[] = [
    { page: 'dashboard', labelKey: 'views.dashboard.title', icon: HomeIcon },
    { page: 'search', labelKey: 'views.search.title', icon: SearchIcon },
    { page: 'bookmark', labelKey: 'views.bookmark.title', icon: BookmarkIcon },
    { page: 'custom', labelKey: 'views.custom.title', icon: InfoIcon },
  ];
  return hideDashboard ? entries.slice(1) : entries;
}

export function NavList({ rail, hideDashboard }: { rail: boolean; hideDashboard: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <List component="div" sx={{ pt: 1 }}>
      {navEntries(hideDashboard).map(({ page, labelKey, icon: Icon }) => {
        const label = t(labelKey);
        const to = routePath({ page });
        const current = pageOf(pathname) === page;
        const entry = (
          <ListItemButton
            key={to}
            component={RouterLink}
            to={to}
            selected={current}
            aria-current={current ? 'page' : undefined}
            aria-label={rail ? label : undefined}
            data-tour={page === 'bookmark' ? 'bookmark' : undefined}
            sx={{ minHeight: 48, px: 2, justifyContent: rail ? 'center' : 'flex-start' }}
          >
            <ListItemIcon sx={{ minWidth: 0, mr: rail ? 0 : 2, color: 'inherit' }}>
              <Icon />
            </ListItemIcon>
            {!rail && <ListItemText primary={label} />}
          </ListItemButton>
        );
        return rail ? (
          <IconTooltip key={to} title={label}>
            {entry}
          </IconTooltip>
        ) : (
          entry
        );
      })}
    </List>
  );
}

/**
 * The navigation (portal-spec §4 "Sidebar / drawer"): on wide screens a column that is a drawer of
 * 256 px when open and a rail of 56 px when closed; on mobile a temporary drawer that also opens and
 * closes by a swipe from the 25 px screen edge.
 */
export function NavDrawer({
  mobile,
  open,
  onOpenChange,
  hideDashboard,
}: {
  mobile: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  hideDashboard: boolean;
}) {
  const { t } = useTranslation();
  if (mobile) {
    return (
      <Suspense fallback={null}>
        <MobileNavDrawer open={open} onOpenChange={onOpenChange} hideDashboard={hideDashboard} />
      </Suspense>
    );
  }
  // Static CSS (shell.css); only the width changes.
  return (
    <nav
      className="vt-nav"
      id="main-navigation"
      aria-label={t('global.navigation')}
      style={{ width: open ? DRAWER_WIDTH : RAIL_WIDTH }}
    >
      <NavList rail={!open} hideDashboard={hideDashboard} />
    </nav>
  );
}
