import { Alert, Button } from '@mui/material';
import { useEffect } from 'react';
import { ApiError } from '../../lib/apiClient.ts';
import { useTranslation } from '../../lib/translate.tsx';
import { useStableCallback } from '../../lib/useStableCallback.ts';

/**
 * Why the search failed, with a way to try again. A search refused for too many searches from the
 * visitor's address (429 `rate_limited`, docs/security.md) says how long it waits and is tried again
 * by itself after the answer's Retry-After; any other failure waits for the visitor.
 */
export function SearchFailure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const retry = useStableCallback(onRetry);
  const wait = error instanceof ApiError && error.status === 429 ? error.retryWaitSeconds() : undefined;
  useEffect(() => {
    if (wait === undefined) return;
    const timer = setTimeout(retry, wait * 1000);
    return () => clearTimeout(timer);
  }, [error, wait, retry]);
  return (
    <Alert
      severity={wait === undefined ? 'error' : 'warning'}
      action={
        <Button color="inherit" size="small" onClick={retry}>
          {t('views.search.retry')}
        </Button>
      }
    >
      {wait === undefined ? t('views.search.failure') : t('views.search.rate_limited', { count: wait })}
    </Alert>
  );
}
