import { Box, Grid, Typography } from '@mui/material';
import { useDeferredValue } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import type { AssetDoc, IndexField } from '@vitrine/contract/search';
import { useFieldFormatter, type FieldFormatter, type FieldRef } from '../../stores/fieldText.ts';

/** Shown when the config names no fields for the detail page (assetInfo.paramsLeft / paramsRight). */
export const fallbackLeft: FieldRef[] = [
  { field_name: 'creator' },
  { field_name: 'created' },
  { field_name: 'keywords' },
  { field_name: 'category' },
  { field_name: 'description' },
];
export const fallbackRight: FieldRef[] = [
  { field_name: 'filename' },
  { field_name: 'file_size' },
  { field_name: 'pixel_x' },
  { field_name: 'bbox_x' },
  { field_name: 'duration' },
  { field_name: 'page_count' },
  { field_name: 'imp_date' },
];

function FieldColumn({
  refs,
  doc,
  format,
  hideEmpty,
}: {
  refs: FieldRef[];
  doc: AssetDoc;
  format: FieldFormatter;
  hideEmpty: boolean;
}) {
  const rows = refs.map((ref) => ({
    key: ref.field_name,
    label: format.label(ref),
    text: format.text(doc, ref.field_name),
  }));
  const shown = hideEmpty ? rows.filter((r) => r.text !== '') : rows;
  return (
    <Box component="dl" sx={{ m: 0 }}>
      {shown.map((r) => (
        <Box key={r.key} sx={{ mb: 1.5 }}>
          <Typography component="dt" variant="caption" color="text.secondary">
            {r.label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {r.text || '—'}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * The two metadata columns of the detail page (config assetInfo), values formatted by the one
 * field formatter (stores/fieldText.ts) and always shown as text, never as HTML.
 */
export function AssetMetadata(props: {
  doc: AssetDoc;
  left: FieldRef[];
  right: FieldRef[];
  fields: IndexField[];
  hideEmpty: boolean;
}) {
  const { t } = useTranslation();
  const format = useFieldFormatter(props.fields);
  // Drawn in a render of its own after the page's (issue #28): the page's first date makes the
  // browser load its date formats (tens of milliseconds on a phone), and the preview above it is
  // painted without waiting for that.
  const drawn = useDeferredValue(true, false);
  if (!drawn) return null;
  const common = { doc: props.doc, format, hideEmpty: props.hideEmpty };
  return (
    <Box component="section" aria-label={t('views.asset.metadata')}>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FieldColumn refs={props.left} {...common} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FieldColumn refs={props.right} {...common} />
        </Grid>
      </Grid>
    </Box>
  );
}
