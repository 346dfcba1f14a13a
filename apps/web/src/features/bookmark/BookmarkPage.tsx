import { Box, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { useNavigate } from '../../lib/router.tsx';
import { routePath } from '@vitrine/contract/paths';
import { useGlobalConfig } from '../../stores/config.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DownloadFlowHost, useDownloadOptions } from '../../widgets/DownloadFlowHost.tsx';
import { LoadingBlock } from '../../components/LoadingBlock.tsx';
import { ArrowBackIcon, DeleteIcon, DownloadIcon, ShareIcon } from '../../components/icons.tsx';
import { copyLink, useShareDialog } from '../../widgets/ShareDialog.tsx';
import { useBookmarkDocs, useBookmarks } from '../../stores/bookmarks.ts';
import { useFieldFormatter } from '../../stores/fieldText.ts';
import { useIndexFields } from '../../stores/searchInput.ts';
import { startDownload } from '../../stores/downloadFlow.ts';
import { nextSelection } from '../../lib/selection.ts';
import { BookmarkCard, CARD_MIN_WIDTH } from './BookmarkCard.tsx';
import { assetsLink } from '../../lib/portalLinks.ts';
import { FIRST_IN_GRID } from '../../lib/pictures.ts';
import { contentLanguageOf } from '../../lib/contentLanguage.ts';

/** One link for the bookmarks shared: the asset's page, or the search page limited to them. */
const copyLinks = (ids: string[]) => copyLink(assetsLink(ids), ids.length > 1);

const GRID_GAP = 16;

/** Grid columns of at least the card's width each, and no more than `columns` of them in a row. */
export function cardColumns(columns: number): string {
  const most = Math.max(1, Math.round(columns));
  return `repeat(auto-fill, minmax(max(${CARD_MIN_WIDTH}px, calc((100% - ${(most - 1) * GRID_GAP}px) / ${most})), 1fr))`;
}

/**
 * The bookmark list (portal-spec §2 "Bookmark list"): a count, a card per bookmarked asset, and
 * back/delete/share/download acting on the selection, or on all when nothing is selected.
 */
export function BookmarkPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { config } = useGlobalConfig();
  const format = useFieldFormatter(useIndexFields().data);
  const bookmarks = useBookmarks();
  const docs = useBookmarkDocs(bookmarks, contentLanguageOf(i18n, config.content_languages));
  const options = useDownloadOptions();
  const shareDialog = useShareDialog();
  const [selection, setSelection] = useState<string[]>([]);
  const [askDeleteAll, setAskDeleteAll] = useState(false);

  const shown = (docs.data ?? []).filter((d) => bookmarks.ids.includes(d.id));
  const order = shown.map((d) => d.id);
  const selected = selection.filter((id) => order.includes(id));
  const some = selected.length > 0;
  const target = some ? selected : order;

  const remove = () => {
    if (some) {
      bookmarks.remove(selected);
      setSelection([]);
    } else setAskDeleteAll(true);
  };

  return (
    <Box>
      <Button startIcon={<ArrowBackIcon />} onClick={() => void navigate(-1)} sx={{ mb: 1 }}>
        {t('views.bookmark.back')}
      </Button>
      <Typography component="h1" variant="h4">
        {t('views.bookmark.title')}
      </Typography>
      <Typography role="status" sx={{ mb: 2 }}>
        {bookmarks.isLoading ? t('global.loading') : t('views.bookmark.count', { count: bookmarks.ids.length })}
        {some && ` · ${t('views.bookmark.selected', { count: selected.length })}`}
      </Typography>
      {!bookmarks.isLoading && bookmarks.ids.length === 0 ? (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography>{t('views.bookmark.empty')}</Typography>
          <Button variant="contained" onClick={() => void navigate(routePath({ page: 'search' }))}>
            {t('views.bookmark.search')}
          </Button>
        </Stack>
      ) : (
        <>
          <Stack
            direction="row"
            role="toolbar"
            aria-label={t('views.bookmark.actions')}
            sx={{ flexWrap: 'wrap', gap: 1, mb: 2 }}
          >
            <Button startIcon={<DeleteIcon />} disabled={order.length === 0} onClick={remove}>
              {t(some ? 'views.bookmark.delete' : 'views.bookmark.deleteAll')}
            </Button>
            <Button
              startIcon={<ShareIcon />}
              disabled={order.length === 0}
              onClick={() => shareDialog.share(target, () => void copyLinks(target))}
            >
              {t(some ? 'views.bookmark.share' : 'views.bookmark.shareAll')}
            </Button>
            <Button
              startIcon={<DownloadIcon />}
              disabled={order.length === 0}
              onClick={() => void startDownload(target, options)}
            >
              {t(some ? 'views.bookmark.download' : 'views.bookmark.downloadAll')}
            </Button>
          </Stack>
          <Box
            role="list"
            aria-label={t('views.bookmark.list')}
            sx={{
              display: 'grid',
              gap: `${GRID_GAP}px`,
              // As many cards as fit, at most the configured columns (admin-spec §3 "bookmark").
              gridTemplateColumns: cardColumns(config.bookmark.columns),
            }}
          >
            {docs.isPending
              ? bookmarks.ids.map((id) => (
                  <Box role="listitem" key={id}>
                    <LoadingBlock height={240} />
                  </Box>
                ))
              : shown.map((doc, i) => (
                  <Box role="listitem" key={doc.id}>
                    <BookmarkCard
                      doc={doc}
                      title={format.title(doc, config.bookmark.title)}
                      first={i < FIRST_IN_GRID}
                      borderWidth={config.bookmark.options.border_width}
                      cardHeight={config.bookmark.options.card_height}
                      selected={selected.includes(doc.id)}
                      onSelect={(click) => setSelection(nextSelection(selected, order, doc.id, click))}
                    />
                  </Box>
                ))}
          </Box>
        </>
      )}
      <ConfirmDialog
        open={askDeleteAll}
        text={t('views.bookmark.modal.delete')}
        onCancel={() => setAskDeleteAll(false)}
        onConfirm={() => {
          setAskDeleteAll(false);
          // All bookmarks, also those whose cards have not loaded yet.
          bookmarks.remove(bookmarks.ids);
        }}
      />
      <DownloadFlowHost />
      {shareDialog.dialog}
    </Box>
  );
}
