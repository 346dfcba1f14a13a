import { Alert, Button } from '@mui/material';
import { useTranslation } from '../lib/translate.tsx';

/** In place of a screen whose code could not be loaded (a lost connection, say), with a way out. */
export function ScreenLoadError() {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={() => window.location.reload()}>
          {t('global.reload')}
        </Button>
      }
    >
      {t('global.screen_failed')}
    </Alert>
  );
}
