import { Box, Button, IconButton, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import { Link as RouterLink } from '../../lib/router.tsx';
import type { AssetDoc } from '@vitrine/contract/search';
import { routePath } from '@vitrine/contract/paths';
import type { InfoField } from './infoFields.ts';
import { BookmarkToggle } from '../../widgets/BookmarkToggle.tsx';
import { CloseIcon } from '../../components/icons.tsx';
import { PanelFocusTrap } from '../../components/PanelFocusTrap.tsx';
import { useEscapeKey } from '../../lib/useEscapeKey.ts';
import { AssetEditorActions } from '../../widgets/edit/EditorControls.tsx';

/** The info panel takes focus 350 ms after it opens (portal-spec §9). */
export const INFO_FOCUS_DELAY_MS = 350;

function FieldColumn({
  doc,
  fields,
  format,
}: {
  doc: AssetDoc;
  fields: InfoField[];
  format: (doc: AssetDoc, field: string) => string;
}) {
  const rows = fields.map((f) => ({ ...f, text: format(doc, f.field) })).filter((r) => r.text !== '');
  return (
    <Box
      component="dl"
      sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5 }}
    >
      {rows.map((r) => (
        <Box key={r.field} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {r.label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {r.text}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * The info panel under the active asset's row (portal-spec §4 "Active asset"): title, two columns of
 * metadata, the way to the asset page. Focus moves into it and stays there from 350 ms after it opens
 * (until a dialog or the visitor's pointer takes it elsewhere); Escape (also before it has taken focus) or
 * the close button closes it.
 */
export function InfoPanel({
  id,
  doc,
  title,
  left,
  right,
  format,
  borderWidth = 2,
  onClose,
}: {
  id: string;
  doc: AssetDoc;
  title: string;
  left: InfoField[];
  right: InfoField[];
  format: (doc: AssetDoc, field: string) => string;
  /** Its border in px (config infoView.options.border_width). */
  borderWidth?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const [trapped, setTrapped] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setTrapped(true), INFO_FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  // Until it has taken the focus, Escape from anywhere closes it (the focus is still on the result).
  useEscapeKey(!trapped, onClose);
  return (
    <PanelFocusTrap open={trapped} rootRef={ref}>
      <Box
        ref={ref}
        id={id}
        role="region"
        tabIndex={-1}
        aria-label={t('views.search.info.label', { title })}
        data-tour="info_panel"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
        sx={{
          my: 1,
          p: 2,
          border: `${borderWidth}px solid`,
          borderColor: 'primary.main',
          borderRadius: 1,
          bgcolor: 'background.paper',
          '&:focus-visible': { outline: 2, outlineStyle: 'solid', outlineColor: 'primary.main' },
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'start', gap: 1, mb: 1 }}>
          <Typography component="h3" variant="h6" sx={{ flex: 1, overflowWrap: 'anywhere' }}>
            {title}
          </Typography>
          <BookmarkToggle id={doc.id} />
          <IconButton aria-label={t('views.search.info.close')} onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </Box>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2, mb: 2 }}>
          <FieldColumn doc={doc} fields={left} format={format} />
          <FieldColumn doc={doc} fields={right} format={format} />
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Button variant="contained" component={RouterLink} to={routePath({ page: 'asset', id: doc.id })}>
            {t('views.search.actions.open')}
          </Button>
          <Button
            variant="outlined"
            component={RouterLink}
            to={routePath({ page: 'search', text: `similar:${doc.id}` })}
          >
            {t('alike.similar.action')}
          </Button>
          <AssetEditorActions id={doc.id} compact />
        </Box>
      </Box>
    </PanelFocusTrap>
  );
}
