import { Alert, Button } from '@mui/material';
import { useLayoutEffect } from 'react';
import { useTranslation } from '../lib/translate.tsx';
import { endFirstPaint } from '../lib/firstPaint.ts';

/** In place of a screen whose code could not be loaded (a lost connection, say), with a way out. */
export function ScreenLoadError() {
  const { t } = useTranslation();
  // The dashboard's first paint would hide this.
  useLayoutEffect(() => endFirstPaint(), []);
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
