import { Button, Drawer } from '@mui/material';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { filterPath } from '../../components/iconPaths.ts';
import { TextButton } from '../../components/TextButton.tsx';
import { useEscapeKey } from '../../lib/useEscapeKey.ts';

/** The filter drawer takes focus and traps it 250 ms after it opens (portal-spec §9, sidebar focus trap). */
export const SIDEBAR_FOCUS_DELAY_MS = 250;

/**
 * The facet sidebar on small screens (portal-spec §2 "Search": full width, toggled by a button).
 * Opened, the drawer takes focus 250 ms later and keeps it (Tab cycles inside) until it is closed by
 * Escape (also before it has taken focus), the backdrop or its hide button; then the button that opened it has focus again, also when
 * a tap opened it without focusing it.
 */
export function FilterDrawer({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [trapped, setTrapped] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const paper = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(false);
  const close = () => {
    setOpen(false);
    setTrapped(false);
  };
  useEffect(() => {
    if (open) {
      wasOpen.current = true;
      const timer = setTimeout(() => {
        setTrapped(true);
        paper.current?.focus();
      }, SIDEBAR_FOCUS_DELAY_MS);
      return () => clearTimeout(timer);
    }
    // After the drawer's trap has let go (it would pull the focus back).
    if (wasOpen.current) opener.current?.focus();
    wasOpen.current = false;
    return undefined;
  }, [open]);
  // Until it has taken the focus, Escape from anywhere closes it (the focus is still on its button).
  useEscapeKey(open && !trapped, close);
  return (
    <>
      <TextButton
        ref={opener}
        icon={filterPath}
        className="vt-results-filters"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        {t('views.search.show_facets')}
      </TextButton>
      <Drawer
        open={open}
        onClose={close}
        disableAutoFocus
        disableEnforceFocus={!trapped}
        disableRestoreFocus
        // Above the sticky header, which would otherwise cover the drawer's close button.
        sx={{ zIndex: (th) => th.zIndex.modal }}
        slotProps={{
          paper: { ref: paper, tabIndex: -1, 'aria-label': t('views.search.facets'), sx: { width: '100%', p: 2 } },
        }}
      >
        <Button onClick={close} sx={{ alignSelf: 'end' }}>
          {t('views.search.hide_facets')}
        </Button>
        {children}
      </Drawer>
    </>
  );
}
