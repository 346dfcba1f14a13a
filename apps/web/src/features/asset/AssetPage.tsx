import { Box, IconButton, Stack, Typography } from '@mui/material';
import { useEffect, useId, useLayoutEffect, useRef } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { useNavigate, usePortalRoute } from '../../lib/router.tsx';
import { routePath } from '@vitrine/contract/paths';
import type { AssetDoc } from '@vitrine/contract/search';
import { useGlobalConfig } from '../../stores/config.ts';
import { returnAfterLogin, useSession } from '../../stores/session.ts';
import { toast } from '../../lib/toast.ts';
import { endFirstPaint } from '../../lib/firstPaint.ts';
import { AssetMedia } from './AssetMedia.tsx';
import { AssetMetadata, fallbackLeft, fallbackRight } from './AssetMetadata.tsx';
import { SimilarRow } from './SimilarRow.tsx';
import { DownloadFlowHost, useDownloadOptions } from '../../widgets/DownloadFlowHost.tsx';
import { closeDownloadDialog, startDownload, useConvertSets } from '../../stores/downloadFlow.ts';
import { DownloadIcon, ShareIcon } from '../../components/icons.tsx';
import { arrowBackPath } from '../../components/iconPaths.ts';
import { TextButton } from '../../components/TextButton.tsx';
import { IconTooltip } from '../../components/IconTooltip.tsx';
import { copyLink, useShareDialog } from '../../widgets/ShareDialog.tsx';
import { BookmarkToggle } from '../../widgets/BookmarkToggle.tsx';
import { LoadingBlock } from '../../components/LoadingBlock.tsx';
import { useAssetDoc, useCountedView } from './queries.ts';
import { useIndexFields } from '../../stores/searchInput.ts';
import { useFieldFormatter } from '../../stores/fieldText.ts';
import { assetsLink } from '../../lib/portalLinks.ts';
import { altText } from '../../lib/assetText.ts';
import { AssetEditorActions, AssetHistory } from '../../widgets/edit/EditorControls.tsx';
import { contentLanguageOf } from '../../lib/contentLanguage.ts';

/** The share link of one asset (portal-spec §2): origin + path + '#/asset/{id}'. */
export function assetShareLink(id: string, location: Pick<Location, 'origin' | 'pathname'> = window.location): string {
  return assetsLink([id], location);
}

const copyShareLink = (id: string) => copyLink(assetShareLink(id), false);

/** The asset detail page (portal-spec §2 "Asset detail"). */
export function AssetPage() {
  const id = usePortalRoute('asset')?.id ?? '';
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { config } = useGlobalConfig();
  const session = useSession();
  const lang = contentLanguageOf(i18n, config.content_languages);
  const asset = useAssetDoc(lang, id);
  const fields = useIndexFields();
  const format = useFieldFormatter(fields.data);
  const options = useDownloadOptions();
  const shareDialog = useShareDialog();
  const shareLabel = shareDialog.canCreate ? t('views.share.open') : t('views.asset.share');
  const noticeShown = useRef(false);
  const sets = useConvertSets(id, session.session?.user, Boolean(asset.data));
  // No set to download in and no order to place: said before any click (portal-spec §8 "Download").
  const noDownloads = sets.data?.length === 0 && !options.orderProcess;
  const noDownloadsId = useId();

  useCountedView(id, Boolean(asset.data));
  const missing = asset.isSuccess && asset.data === null;
  const guest = session.session?.user === null;
  // A shared link to an asset the caller may not see: a guest is asked to log in first.
  useEffect(() => {
    if (!missing || noticeShown.current) return;
    noticeShown.current = true;
    toast.show('toast.open_share.none_visible', 'info');
    if (guest) {
      returnAfterLogin(routePath({ page: 'asset', id }));
      void navigate(routePath({ page: 'login' }));
    }
  }, [missing, guest, navigate, id]);

  // Without an asset to show, the page's first paint gives way to what the page says instead.
  const shown = asset.isPending || Boolean(asset.data);
  useLayoutEffect(() => {
    if (!shown) endFirstPaint();
  }, [shown]);

  // Leaving the page closes its dialogs (a running download goes on).
  useEffect(() => closeDownloadDialog, []);

  const back = () => {
    if (window.history.length > 1) void navigate(-1);
    else void navigate(routePath({ page: 'dashboard' }));
  };

  // Plain, with static rules (app/controls.css, asset.css): the page's first paint draws the same.
  const backButton = (
    <TextButton icon={arrowBackPath} className="vt-asset-back" onClick={back}>
      {t('views.asset.back')}
    </TextButton>
  );

  if (asset.isPending) {
    return (
      <Box>
        {backButton}
        <LoadingBlock height={400} />
      </Box>
    );
  }
  const doc: AssetDoc | null | undefined = asset.data;
  if (!doc) {
    return (
      <Box>
        {backButton}
        <Typography component="h1" variant="h4" sx={{ mb: 2 }}>
          {t('views.asset.title')}
        </Typography>
        <Typography>{asset.isError ? t('global.error') : t('views.asset.not_found')}</Typography>
      </Box>
    );
  }

  const info = config.assetInfo;
  const title = format.title(doc, info.title);
  const alt = altText(doc, config.accessibility.assets, lang, config.fallback_locale);
  const left = info.paramsLeft.length > 0 ? info.paramsLeft : fallbackLeft;
  const right = info.paramsRight.length > 0 ? info.paramsRight : fallbackRight;

  return (
    <Box component="article">
      {backButton}
      <h1 className="vt-heading-4">{title}</h1>
      <AssetMedia doc={doc} alt={alt} />
      <Stack
        direction="row"
        spacing={1}
        role="toolbar"
        aria-label={t('views.asset.actions')}
        sx={{ my: 2, justifyContent: 'flex-end' }}
      >
        <BookmarkToggle id={doc.id} />
        {noDownloads ? (
          <>
            <Typography id={noDownloadsId} variant="body2" color="text.secondary" sx={{ alignSelf: 'center' }}>
              {t('toast.download.unauthorized')}
            </Typography>
            <IconButton aria-label={t('views.asset.download')} aria-describedby={noDownloadsId} disabled>
              <DownloadIcon />
            </IconButton>
          </>
        ) : (
          <IconTooltip title={t('views.asset.download')}>
            <IconButton aria-label={t('views.asset.download')} onClick={() => void startDownload([doc.id], options)}>
              <DownloadIcon />
            </IconButton>
          </IconTooltip>
        )}
        <IconTooltip title={shareLabel}>
          <IconButton
            aria-label={shareLabel}
            onClick={() => shareDialog.share([doc.id], () => void copyShareLink(doc.id))}
          >
            <ShareIcon />
          </IconButton>
        </IconTooltip>
        <AssetEditorActions id={doc.id} onBinned={back} />
      </Stack>
      <AssetMetadata
        doc={doc}
        left={left}
        right={right}
        fields={fields.data ?? []}
        hideEmpty={config.global.hide_empty_metadata_fields}
      />
      <AssetHistory id={doc.id} />
      <SimilarRow id={doc.id} lang={lang} titleOf={(d) => format.title(d, info.title)} />
      <DownloadFlowHost />
      {shareDialog.dialog}
    </Box>
  );
}
