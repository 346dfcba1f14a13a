import { Box, SwipeableDrawer, Toolbar } from '@mui/material';
import { useEffect } from 'react';
import { useTranslation } from '../lib/translate.tsx';
import { DRAWER_WIDTH, NavList, SWIPE_EDGE } from './NavDrawer.tsx';
import { DrawerSwipe } from '../lib/touchVelocity.ts';

/**
 * Flings decided by the velocity of the last 100 ms of a swipe (portal-spec §9): one from the screen
 * edge opens the closed drawer, one back closes the open drawer. Slower swipes are left to the
 * drawer, which opens or closes by how far it was pulled.
 */
function useFlings(open: boolean, onOpenChange: (open: boolean) => void): void {
  useEffect(() => {
    const swipe = new DrawerSwipe(SWIPE_EDGE);
    const at = (list: TouchList) => list[0]?.clientX;
    const start = (e: TouchEvent) => {
      const x = at(e.touches);
      if (x === undefined) swipe.cancel();
      else swipe.start(e.timeStamp, x, open);
    };
    const move = (e: TouchEvent) => {
      const x = at(e.touches);
      if (x !== undefined) swipe.move(e.timeStamp, x);
    };
    const end = (e: TouchEvent) => {
      const x = at(e.changedTouches);
      const decision = x === undefined ? undefined : swipe.end(e.timeStamp, x, open);
      if (decision) onOpenChange(decision === 'open');
    };
    const cancel = () => swipe.cancel();
    const options = { passive: true, capture: true };
    document.addEventListener('touchstart', start, options);
    document.addEventListener('touchmove', move, options);
    document.addEventListener('touchend', end, options);
    document.addEventListener('touchcancel', cancel, options);
    return () => {
      document.removeEventListener('touchstart', start, options);
      document.removeEventListener('touchmove', move, options);
      document.removeEventListener('touchend', end, options);
      document.removeEventListener('touchcancel', cancel, options);
    };
  }, [open, onOpenChange]);
}

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
  useFlings(open, onOpenChange);
  return (
    <SwipeableDrawer
      variant="temporary"
      anchor="left"
      open={open}
      onOpen={() => onOpenChange(true)}
      onClose={() => onOpenChange(false)}
      swipeAreaWidth={SWIPE_EDGE}
      // Flings are judged by useFlings; the drawer itself only goes by the distance pulled.
      minFlingVelocity={Number.POSITIVE_INFINITY}
      disableDiscovery
      // Mounted when it opens or a swipe from the edge starts, not on every first screen a phone draws.
      ModalProps={{ keepMounted: false }}
      // The drawer keeps its own paper ref for swiping, so the paper is styled from outside.
      sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
      // The open drawer is a dialog; it is named after the navigation it holds.
      slotProps={{ paper: { 'aria-label': t('global.navigation') } }}
    >
      {/* The header stays above the drawer, so the entries start below it. */}
      <Toolbar />
      <Box component="nav" id="main-navigation" aria-label={t('global.navigation')}>
        <NavList rail={false} hideDashboard={hideDashboard} />
      </Box>
    </SwipeableDrawer>
  );
}
