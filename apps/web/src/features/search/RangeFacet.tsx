import { Button, FormControl, FormLabel, Slider, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import type { FacetSelection } from '@vitrine/contract/search';
import { useValueText } from '../../stores/fieldText.ts';
import type { FacetDef } from './facets.ts';
import { resetFacet, selectedRange, setSliderRange, sliderShown, sliderStep } from './searchState.ts';

/**
 * A range facet as a slider (portal-spec §5 slider rules): shown only when the bounds differ, written
 * 'min TO max', and removed again when dragged back to the full range.
 */
export function RangeFacet({
  def,
  label,
  bounds,
  filters,
  onChange,
}: {
  def: FacetDef;
  label: string;
  bounds: [number, number];
  filters: FacetSelection[];
  onChange: (filters: FacetSelection[]) => void;
}) {
  const { t } = useTranslation();
  const valueText = useValueText();
  const chosen = selectedRange(filters, def.field) ?? bounds;
  const [dragging, setDragging] = useState<[number, number] | null>(null);
  if (!sliderShown(bounds, def.range, (ms) => valueText(ms, 'date'))) return null;
  const value = dragging ?? chosen;
  const format = (v: number) => valueText(v, def.format);
  const labelId = `facet-${def.field}`;
  return (
    <FormControl component="fieldset" sx={{ mb: 2, width: '100%', px: 1 }} data-facet={def.field}>
      <FormLabel component="legend" id={labelId} sx={{ fontWeight: 600 }}>
        {label}
      </FormLabel>
      <Typography variant="body2" aria-live="polite">
        {t('views.search.range', { from: format(value[0]), to: format(value[1]) })}
      </Typography>
      <Slider
        size="small"
        min={bounds[0]}
        max={bounds[1]}
        step={sliderStep(def.range)}
        value={[Math.max(bounds[0], value[0]), Math.min(bounds[1], value[1])]}
        getAriaLabel={(i) => `${label}: ${t(i === 0 ? 'views.search.range_from' : 'views.search.range_to')}`}
        getAriaValueText={format}
        onChange={(_e, v) => setDragging(v as [number, number])}
        onChangeCommitted={(_e, v) => {
          setDragging(null);
          onChange(setSliderRange(filters, def.field, v as [number, number], bounds, def.range));
        }}
        aria-labelledby={labelId}
      />
      {selectedRange(filters, def.field) && (
        <Button size="small" onClick={() => onChange(resetFacet(filters, def.field))} sx={{ alignSelf: 'start' }}>
          {t('views.search.reset_facet', { facet: label })}
        </Button>
      )}
    </FormControl>
  );
}
