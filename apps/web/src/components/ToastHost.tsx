import { Alert, Box, Button, Snackbar } from '@mui/material';
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
      // A notice with an action stays longer: reaching its button by keyboard takes a while.
      autoHideDuration={current.severity === 'error' || current.action ? 10_000 : 5000}
      onClose={(_e, reason) => reason !== 'clickaway' && close()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        severity={current.severity}
        role={current.polite ? 'status' : 'alert'}
        onClose={close}
        action={
          current.action && (
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
