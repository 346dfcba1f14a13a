import { Box, Grid, Typography } from '@mui/material';
import { useTranslation } from '../../lib/translate.tsx';
import type { AssetDoc, IndexField } from '@vitrine/contract/search';
import { formatFieldValue, valueFormatOf } from '@vitrine/contract/field-format';

export interface FieldRef {
  field_name: string;
  translation?: string;
}

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

/** A field may use a label variant of its name when the doc has one (portal-spec §3 "Asset"). */
function valueOf(doc: AssetDoc, name: string): unknown {
  return doc[`${name}_label`] ?? doc[name];
}

function FieldColumn({
  refs,
  doc,
  fields,
  hideEmpty,
}: {
  refs: FieldRef[];
  doc: AssetDoc;
  fields: Map<string, IndexField>;
  hideEmpty: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const rows = refs.map((ref) => {
    const field = fields.get(ref.field_name);
    const label =
      (ref.translation && i18n.exists(ref.translation) ? t(ref.translation) : undefined) ??
      field?.default_labels[lang] ??
      field?.default_labels.en ??
      ref.field_name;
    let text: string;
    // The two built-in display fields: pixels and millimetres, width × height.
    if (ref.field_name === 'pixel_x' && doc.pixel_x && doc.pixel_y) {
      text = t('views.asset.pixels', { x: doc.pixel_x, y: doc.pixel_y });
    } else if (ref.field_name === 'bbox_x' && doc.bbox_x && doc.bbox_y) {
      text = t('views.asset.millimetres', { x: doc.bbox_x.toFixed(1), y: doc.bbox_y.toFixed(1) });
    } else {
      text = formatFieldValue(valueOf(doc, ref.field_name), valueFormatOf(field ?? ref), lang);
    }
    const builtIn = ref.field_name === 'pixel_x' || ref.field_name === 'bbox_x';
    return { key: ref.field_name, label: builtIn ? label.replace(/\s*\(.*\)$/, '') : label, text };
  });
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
 * The two metadata columns of the detail page (config assetInfo), values formatted by their
 * field's formatter and always shown as text, never as HTML.
 */
export function AssetMetadata(props: {
  doc: AssetDoc;
  left: FieldRef[];
  right: FieldRef[];
  fields: IndexField[];
  hideEmpty: boolean;
}) {
  const { t } = useTranslation();
  const fields = new Map(props.fields.map((f) => [f.field_name, f]));
  const common = { doc: props.doc, fields, hideEmpty: props.hideEmpty };
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
