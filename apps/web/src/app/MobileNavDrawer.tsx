import { Box, SwipeableDrawer, Toolbar } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DRAWER_WIDTH, NavList, SWIPE_EDGE } from './NavDrawer.tsx';

/** The drawer on mobile: temporary, and opened or closed by a swipe from the 25 px screen edge. */
export function MobileNavDrawer({
  open,
  onOpenChange,
  hideDashboard,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  hideDashboard: boolean;
}) {
  const { t } = useTranslation();
  return (
    <SwipeableDrawer
      variant="temporary"
      anchor="left"
      open={open}
      onOpen={() => onOpenChange(true)}
      onClose={() => onOpenChange(false)}
      swipeAreaWidth={SWIPE_EDGE}
      disableDiscovery
      // The drawer keeps its own paper ref for swiping, so the paper is styled from outside.
      sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
    >
      {/* The header stays above the drawer, so the entries start below it. */}
      <Toolbar />
      <Box component="nav" id="main-navigation" aria-label={t('global.navigation')}>
        <NavList rail={false} hideDashboard={hideDashboard} />
      </Box>
    </SwipeableDrawer>
  );
}
