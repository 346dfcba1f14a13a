import { Alert, Box, Snackbar } from '@mui/material';
import { useTranslation } from '../lib/translate.tsx';
import { toast, useToasts } from '../lib/toast.ts';

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
      autoHideDuration={current.severity === 'error' ? 8000 : 5000}
      onClose={(_e, reason) => reason !== 'clickaway' && close()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        severity={current.severity}
        role={current.polite ? 'status' : 'alert'}
        onClose={close}
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
