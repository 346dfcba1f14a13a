import { Button } from '@mui/material';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { needsConfirmation, useBookmarks, useMaxAssets } from '../lib/bookmarks.ts';

// The dialog's code loads only when a confirmation is needed.
const ConfirmDialog = lazy(() => import('./ConfirmDialog.tsx').then((m) => ({ default: m.ConfirmDialog })));

/**
 * Bookmarks many assets at once (the found assets or a selection, portal-spec §4 "Bookmark
 * toggle"): above maxAssets (unless -1) it asks first (views.search.modal.add_bookmarks), and the
 * ids are fetched only once the person confirmed.
 */
export function BookmarkManyButton({
  count,
  fetchIds,
  children,
}: {
  count: number;
  fetchIds: () => Promise<string[]>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const bookmarks = useBookmarks();
  const maxAssets = useMaxAssets();
  const [asking, setAsking] = useState(false);
  const run = async () => {
    setAsking(false);
    bookmarks.add(await fetchIds());
  };
  return (
    <>
      <Button
        disabled={count === 0 || maxAssets === undefined}
        onClick={() => (maxAssets !== undefined && needsConfirmation(count, maxAssets) ? setAsking(true) : void run())}
      >
        {children}
      </Button>
      {asking && (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            text={t('views.search.modal.add_bookmarks', { 0: count })}
            onConfirm={() => void run()}
            onCancel={() => setAsking(false)}
          />
        </Suspense>
      )}
    </>
  );
}
