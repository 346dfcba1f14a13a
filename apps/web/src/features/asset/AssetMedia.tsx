import { Box, CircularProgress, IconButton, Stack, Typography } from '@mui/material';
import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import type { AssetDoc } from '@vitrine/contract/search';
import { ChevronLeftIcon as NavigateBeforeIcon, NavigateNextIcon } from '../../components/icons.tsx';
import { endFirstPaint } from '../../lib/firstPaint.ts';
import { IconTooltip } from '../../components/IconTooltip.tsx';
import { toast } from '../../lib/toast.ts';
import { ASSET_FRAME, frameAspect } from './frame.ts';
import { usePreview, useVideoSource } from './queries.ts';
import { hasWebGL } from './webgl.ts';
import { ModelViewer } from './ModelViewer.tsx';

const VideoPlayer = lazy(() => import('./VideoPlayer.tsx').then((m) => ({ default: m.VideoPlayer })));

/** The box the preview is shown in (app/asset.css), in the asset's proportion. */
const frameStyle = (aspect: number) => ({ aspectRatio: String(aspect) });

function Picture({ src, alt, aspect }: { src: string | undefined; alt: string; aspect: number }) {
  const { t } = useTranslation();
  if (!src) {
    return (
      <div
        role="img"
        aria-label={t('views.asset.no_preview')}
        className={`${ASSET_FRAME} vt-asset-frame-empty`}
        style={frameStyle(aspect)}
      >
        <Typography>{t('views.asset.no_preview')}</Typography>
      </div>
    );
  }
  return <img src={src} alt={alt} className={ASSET_FRAME} style={frameStyle(aspect)} />;
}

/** Every page of a document, one at a time, with page buttons (pages rendered by the server). */
function DocumentPages({ id, alt, pages, aspect }: { id: string; alt: string; pages: number; aspect: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const preview = usePreview(id, page);
  const label = t('views.asset.page', { page, count: pages });
  return (
    <Box component="section" aria-label={t('views.asset.pages')}>
      {preview.isPending ? (
        <div className={ASSET_FRAME} style={frameStyle(aspect)} />
      ) : (
        <Picture src={preview.data?.url} alt={`${alt} – ${label}`} aspect={aspect} />
      )}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'center', mt: 1 }}>
        {/* A disabled button shows no tooltip: it takes neither the pointer nor the focus. */}
        <IconTooltip title={t('views.asset.previous_page')}>
          <IconButton
            aria-label={t('views.asset.previous_page')}
            disabled={page <= 1}
            onClick={() => setPage((p) => p - 1)}
          >
            <NavigateBeforeIcon />
          </IconButton>
        </IconTooltip>
        <Typography aria-live="polite">{label}</Typography>
        <IconTooltip title={t('views.asset.next_page')}>
          <IconButton
            aria-label={t('views.asset.next_page')}
            disabled={page >= pages}
            onClick={() => setPage((p) => p + 1)}
          >
            <NavigateNextIcon />
          </IconButton>
        </IconTooltip>
      </Stack>
    </Box>
  );
}

/**
 * The media of the asset detail page (portal-spec §2 "Asset detail"): a video player for assets
 * whose asset_groups include video, every page of a document, a playable sound under its waveform,
 * a 3D model to turn over the server's picture of it (where the browser has WebGL and the caller
 * may download the model's file), and otherwise the preview picture.
 */
export function AssetMedia({ doc, alt }: { doc: AssetDoc; alt: string }) {
  const { t, i18n } = useTranslation();
  const groups = doc.asset_groups ?? [];
  const isVideo = groups.includes('video');
  const isAudio = groups.includes('audio');
  const preview = usePreview(doc.id, 0);
  const source = useVideoSource(i18n.language, doc.id, (isVideo || isAudio) && Boolean(preview.data?.url));
  const aspect = frameAspect(doc);
  const url = preview.data?.url;
  const pages = preview.data?.page_count;
  const model = preview.data?.model;
  const hasModel = model !== undefined;
  const canShowModel = useMemo(() => hasModel && hasWebGL(), [hasModel]);
  // The page's first paint shows the preview in the same frame until the media is drawn here.
  useLayoutEffect(() => {
    if (!preview.isPending) endFirstPaint();
  }, [preview.isPending]);
  // A preview without url is one the visitor may not download (portal-spec §8 "Download":
  // unauthorized "also when preview returns no url"): said once per asset, not only "no preview".
  const refused = preview.isSuccess && !url;
  const warnedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!refused || warnedFor.current === doc.id) return;
    warnedFor.current = doc.id;
    toast.show('toast.download.unauthorized', 'warning');
  }, [refused, doc.id]);
  if (isVideo && source.data) {
    return (
      <Suspense fallback={<Picture src={url} alt={alt} aspect={aspect} />}>
        {/* The player fills the picture's frame, so nothing below moves when it replaces the picture. */}
        <Box
          className={ASSET_FRAME}
          style={frameStyle(aspect)}
          sx={{ '& .plyr': { width: '100%', height: '100%' }, '& video': { objectFit: 'contain' } }}
        >
          <VideoPlayer video={source.data} poster={url} title={alt} />
        </Box>
      </Suspense>
    );
  }
  if (model && canShowModel) {
    return (
      <ModelViewer model={model} label={t('views.asset.model.label', { title: alt })}>
        <Picture src={url} alt={alt} aspect={aspect} />
      </ModelViewer>
    );
  }
  if (groups.includes('document') && pages && url)
    return <DocumentPages id={doc.id} alt={alt} pages={pages} aspect={aspect} />;
  const picture = preview.isPending ? (
    <div className={`${ASSET_FRAME} vt-asset-frame-empty`} style={frameStyle(aspect)}>
      <CircularProgress aria-label={t('global.loading')} />
    </div>
  ) : (
    <Picture src={url} alt={alt} aspect={aspect} />
  );
  // A sound's player is there from the start (disabled until its source has come), so nothing below
  // it moves; it goes only when there is no sound to play.
  if (isAudio && (preview.isPending || (url && !source.isError))) {
    return (
      <Box>
        {picture}
        <Box
          component="audio"
          controls
          src={source.data?.url}
          aria-label={t('views.asset.audio')}
          sx={{ width: '100%', mt: 1 }}
        />
      </Box>
    );
  }
  return picture;
}
