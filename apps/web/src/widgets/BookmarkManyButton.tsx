import { useState, type ReactNode } from 'react';
import { useTranslation } from '../lib/translate.tsx';
import { useBookmarks, useMaxAssets } from '../stores/bookmarks.ts';
import { needsConfirmation } from '../lib/maxAssets.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { TextButton } from '../components/TextButton.tsx';

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
      <TextButton
        disabled={count === 0 || maxAssets === undefined}
        onClick={() => (maxAssets !== undefined && needsConfirmation(count, maxAssets) ? setAsking(true) : void run())}
      >
        {children}
      </TextButton>
      <ConfirmDialog
        open={asking}
        text={t('views.search.modal.add_bookmarks', { 0: count })}
        onConfirm={() => void run()}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
