import { IconButton } from '@mui/material';
import { useTranslation } from '../lib/translate.tsx';
import { useBookmarks } from '../stores/bookmarks.ts';
import { BookmarkBorderIcon, BookmarkIcon } from '../components/icons.tsx';
import { IconTooltip } from '../components/IconTooltip.tsx';

/**
 * The bookmark toggle of portal-spec §4 for one asset (posters, thumbnails, list rows, info panel,
 * detail page): its label switches to remove when the asset is bookmarked.
 */
export function BookmarkToggle({ id, size }: { id: string; size?: 'small' | 'medium' }) {
  const { t } = useTranslation();
  const bookmarks = useBookmarks();
  const on = bookmarks.isBookmarked(id);
  const label = t(on ? 'views.bookmark.remove' : 'views.bookmark.add');
  return (
    <IconTooltip title={label}>
      <IconButton
        aria-label={label}
        aria-pressed={on}
        size={size}
        disabled={bookmarks.isLoading}
        onClick={(event) => {
          event.stopPropagation();
          bookmarks.toggle(id);
        }}
      >
        {on ? <BookmarkIcon color="primary" /> : <BookmarkBorderIcon />}
      </IconButton>
    </IconTooltip>
  );
}
