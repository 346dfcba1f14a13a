import { Alert, Box, Button, IconButton, Snackbar } from '@mui/material';
import { useEffect, type RefObject } from 'react';
import { CloseIcon } from './icons.tsx';
import { useTranslation } from '../lib/translate.tsx';
import { toast, useToasts } from '../lib/toast.ts';

/** The height of a bar stuck to the window's bottom edge, which notices stand above. */
const CLEARANCE = '--vitrine-notice-clearance';

/**
 * Keeps notices above a bar stuck to the window's bottom edge (the admin area's save bar), so a
 * notice never covers its buttons: saving does not wait for a notice to go.
 */
export function useNoticeClearance(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement.style;
    const measure = () => root.setProperty(CLEARANCE, `${bar.offsetHeight}px`);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(bar);
    return () => {
      observer?.disconnect();
      root.removeProperty(CLEARANCE);
    };
  }, [ref]);
}

/** Shows the oldest pending notice; screen readers hear it through the alert's live region. */
export function ToastHost() {
  const { t } = useTranslation();
  const [current] = useToasts();
  if (!current) return null;
  const close = () => toast.dismiss(current.id);
  return (
    <Snackbar
      key={current.id}
      open
      // A notice with an action stays longer: reaching its button by keyboard takes a while.
      autoHideDuration={current.action ? 10_000 : current.severity === 'error' ? 8000 : 5000}
      onClose={(_e, reason) => reason !== 'clickaway' && close()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      // The library's own distances from the bottom edge (8 px, 24 px from sm), above a stuck bar.
      sx={{ bottom: { xs: `calc(8px + var(${CLEARANCE}, 0px))`, sm: `calc(24px + var(${CLEARANCE}, 0px))` } }}
    >
      <Alert
        severity={current.severity}
        role={current.polite ? 'status' : 'alert'}
        onClose={close}
        // The library names its close button in English whatever the language.
        closeText={t('global.close')}
        // An action takes the place of the close button: both are drawn then.
        action={
          current.action && (
            <>
              <Button
                color="inherit"
                size="small"
                onClick={() => {
                  close();
                  current.action?.run();
                }}
              >
                {t(current.action.key)}
              </Button>
              <IconButton color="inherit" size="small" aria-label={t('global.close')} onClick={close}>
                <CloseIcon fontSize="small" />
              </IconButton>
            </>
          )
        }
        variant="filled"
        sx={{ width: '100%' }}
      >
        {t(current.key, current.params)}
        {current.detail && (
          <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
            {current.detail}
          </Box>
        )}
      </Alert>
    </Snackbar>
  );
}
