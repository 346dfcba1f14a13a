import {
  Box,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  Radio,
  RadioGroup,
  Typography,
} from '@mui/material';
import { memo, useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/translate.tsx';
import type { FacetSelection, IndexField, SearchAnswer } from '@vitrine/contract/search';
import { fieldLabel } from '../../stores/searchInput.ts';
import { useValueText } from '../../stores/fieldText.ts';
import { facetOwnLabel, facetValueLabel, type FacetDef, type ValueText } from './facets.ts';
import { FACET_PAGE, type FacetValue } from './queries.ts';
import { ColourFacet } from './ColourFacet.tsx';
import { RangeFacet } from './RangeFacet.tsx';
import { resetFacet, setRadioValue, toggleFacetValue } from './searchState.ts';

/** Filled and empty rating stars: graphics that carry meaning, so 3:1 against the page (WCAG 1.4.11). */
export const STAR_COLOURS = { filled: 'warning.dark', empty: 'text.secondary' } as const;

/** Asks for a further page of a facet's values, from `offset` on. */
export type MoreFacetValues = (field: string, offset: number) => Promise<FacetValue[]>;

/** Swatch colours of the colour codes (portal-spec §3 "Color codes"); 0 is none. */
const swatches = ['transparent', '#d32f2f', '#f57c00', '#fbc02d', '#388e3c', '#1976d2', '#7b1fa2', '#757575'];

function ValueLabel({ def, value, valueText }: { def: FacetDef; value: FacetValue; valueText: ValueText }) {
  const { t } = useTranslation();
  if (def.field === 'color_code') {
    return (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
        <Box
          component="span"
          aria-hidden
          sx={{
            width: 16,
            height: 16,
            borderRadius: '50%',
            border: 1,
            borderColor: 'text.secondary',
            bgcolor: swatches[Number(value.value)] ?? 'transparent',
          }}
        />
        {facetValueLabel(t, def.field, value.value, value.label)}
      </Box>
    );
  }
  if (def.field === 'rating') {
    const n = Number(value.value);
    return (
      <Box component="span" aria-label={t('views.search.stars', { count: n })} role="img">
        <Box component="span" aria-hidden sx={{ color: STAR_COLOURS.filled, letterSpacing: 1 }}>
          {'★'.repeat(n)}
          <Box component="span" sx={{ color: STAR_COLOURS.empty }}>
            {'★'.repeat(Math.max(0, 5 - n))}
          </Box>
        </Box>
      </Box>
    );
  }
  return <>{facetValueLabel(t, def.field, value.value, value.label, { format: def.format, text: valueText })}</>;
}

function withCount(label: ReactNode, count: number | undefined) {
  return (
    <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
      <span>{label}</span>
      {count !== undefined && (
        <Typography component="span" variant="caption" color="text.secondary">
          ({count})
        </Typography>
      )}
    </Box>
  );
}

function ValuesFacet({
  def,
  label,
  values,
  filters,
  onChange,
  loadMore,
}: {
  def: FacetDef;
  label: string;
  values: FacetValue[];
  filters: FacetSelection[];
  onChange: (filters: FacetSelection[]) => void;
  loadMore?: MoreFacetValues;
}) {
  const { t } = useTranslation();
  // Once per facet, not per value: a facet may list hundreds.
  const valueText = useValueText();
  const [shown, setShown] = useState(def.preview);
  // Values loaded past the first answer's, for the answer they continue (a new search drops them).
  const [further, setFurther] = useState<{ of: FacetValue[]; values: FacetValue[]; more: boolean } | null>(null);
  const [loading, setLoading] = useState(false);
  const extra = further?.of === values ? further : null;
  const loaded = extra ? [...values, ...extra.values] : values;
  // A full page may have a next one; a shorter page was the last.
  const mayHaveMore = loadMore !== undefined && (extra ? extra.more : values.length >= FACET_PAGE);
  const selected = filters.find((f) => f.key === def.field)?.values ?? [];
  // Chosen values stay listed (and can be unchosen) even when the result no longer counts them.
  const all = [
    ...loaded,
    ...selected.filter((v) => !loaded.some((x) => x.value === v)).map((v) => ({ value: v, count: 0 })),
  ];
  const showMore = async () => {
    const next = shown + def.preview;
    if (next > loaded.length && mayHaveMore && loadMore) {
      setLoading(true);
      try {
        const page = await loadMore(def.field, loaded.length);
        setFurther({ of: values, values: [...(extra?.values ?? []), ...page], more: page.length >= FACET_PAGE });
      } finally {
        setLoading(false);
      }
    }
    setShown(next);
  };
  if (all.length === 0) return null;
  const visible = all.slice(0, shown);
  const labelId = `facet-${def.field}`;
  const controls =
    def.kind === 'radio' ? (
      <RadioGroup
        aria-labelledby={labelId}
        value={selected[0] ?? ''}
        onChange={(e) => onChange(setRadioValue(filters, def.field, e.target.value))}
      >
        {visible.map((v) => (
          <FormControlLabel
            key={v.value}
            value={v.value}
            control={<Radio size="small" />}
            label={withCount(<ValueLabel def={def} value={v} valueText={valueText} />, v.count)}
          />
        ))}
      </RadioGroup>
    ) : (
      <FormGroup>
        {visible.map((v) => (
          <FormControlLabel
            key={v.value}
            control={
              <Checkbox
                size="small"
                checked={selected.includes(v.value)}
                onChange={() => onChange(toggleFacetValue(filters, def.field, v.value))}
              />
            }
            label={withCount(<ValueLabel def={def} value={v} valueText={valueText} />, v.count)}
          />
        ))}
      </FormGroup>
    );
  return (
    <FormControl component="fieldset" sx={{ mb: 2, width: '100%' }} data-facet={def.field}>
      <FormLabel component="legend" id={labelId} sx={{ fontWeight: 600 }}>
        {label}
      </FormLabel>
      {controls}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {(shown < all.length || mayHaveMore) && (
          <Button size="small" disabled={loading} onClick={() => void showMore()}>
            {t('views.search.show_more')}
          </Button>
        )}
        {shown > def.preview && (
          <Button size="small" onClick={() => setShown(Math.max(def.preview, shown - def.preview))}>
            {t('views.search.show_less')}
          </Button>
        )}
        {selected.length > 0 && (
          <Button size="small" onClick={() => onChange(resetFacet(filters, def.field))}>
            {t('views.search.reset_facet', { facet: label })}
          </Button>
        )}
      </Box>
    </FormControl>
  );
}

/**
 * The facet sidebar (portal-spec §2 "Search", §3 "Facet config", §5 slider rules). Memoised: loading
 * further pages of results does not draw it again.
 */
export const FacetSidebar = memo(function FacetSidebar({
  defs,
  answer,
  filters,
  onChange,
  fields,
  lang,
  fallbackLang,
  loadMore,
  colour,
  onColour,
}: {
  defs: FacetDef[];
  answer: Pick<SearchAnswer['facetCounts'], 'facetFields' | 'facetRanges'> | undefined;
  filters: FacetSelection[];
  onChange: (filters: FacetSelection[]) => void;
  /** The index fields, whose labels name the facets. */
  fields: readonly IndexField[];
  lang: string;
  fallbackLang: string;
  /** Further values of a facet past the answer's; without it "show more" stops at the answer's. */
  loadMore?: MoreFacetValues;
  /** The colour the search asks for (`colour:#rrggbb`, issue #52), and how to ask for another. */
  colour?: string | undefined;
  onColour?: (colour: string) => void;
}) {
  const { t, i18n } = useTranslation();
  if (!answer) return null;
  // The search settings' label, else the text key's, else the index field's.
  const labelOf = (def: FacetDef) =>
    facetOwnLabel(def, i18n.language, fallbackLang) ??
    fieldLabel({ t, textIn: i18n.textIn }, fields, def.field, lang, fallbackLang, def.translation);
  return (
    <Box data-tour="facets">
      {onColour && <ColourFacet colour={colour} onChange={onColour} />}
      {defs.map((def) => {
        if (def.kind === 'slider') {
          const r = answer.facetRanges[def.field];
          if (!r || r.min === null || r.max === null) return null;
          return (
            <RangeFacet
              key={def.field}
              def={def}
              label={labelOf(def)}
              bounds={[r.min, r.max]}
              filters={filters}
              onChange={onChange}
            />
          );
        }
        return (
          <ValuesFacet
            key={def.field}
            def={def}
            label={labelOf(def)}
            values={answer.facetFields[def.field] ?? []}
            filters={filters}
            onChange={onChange}
            loadMore={loadMore}
          />
        );
      })}
    </Box>
  );
});
