import { Box, Typography } from '@mui/material';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from '../../lib/translate.tsx';

/** A few colours to pick at once; the native picker gives any other. */
export const SWATCHES = [
  ['red', '#d32f2f'],
  ['orange', '#f57c00'],
  ['yellow', '#fbc02d'],
  ['green', '#388e3c'],
  ['blue', '#1976d2'],
  ['purple', '#7b1fa2'],
  ['pink', '#e91e63'],
  ['brown', '#6d4c41'],
  ['white', '#ffffff'],
  ['black', '#000000'],
] as const;

/**
 * Search by colour (issue #52): the browser's own colour picker and a row of swatches, each a button
 * that says its colour. A pick puts `colour:#rrggbb` into the search (the route), so it is a filter
 * like the others: shown as a tag, shared with the link, kept when going to an asset and back.
 */
export function ColourFacet({ colour, onChange }: { colour: string | undefined; onChange: (colour: string) => void }) {
  const { t } = useTranslation();
  const label = useId();
  const picker = useRef<HTMLInputElement>(null);
  // The picker's `change` comes once a colour is chosen; React's onChange would search at every
  // step of a drag through the palette.
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  useEffect(() => {
    const el = picker.current;
    if (!el) return;
    const chosen = () => latest.current(el.value);
    el.addEventListener('change', chosen);
    return () => el.removeEventListener('change', chosen);
  }, []);
  // The picker shows the colour the search asks for, also one picked by a swatch or a link.
  useEffect(() => {
    if (picker.current && colour) picker.current.value = colour;
  }, [colour]);
  return (
    <Box role="group" aria-labelledby={label} sx={{ mb: 2 }}>
      <Typography id={label} component="h3" variant="subtitle2" sx={{ mb: 0.5 }}>
        {t('alike.colour.title')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, alignItems: 'center' }}>
        <input
          ref={picker}
          type="color"
          aria-label={t('alike.colour.pick')}
          defaultValue={colour ?? '#000000'}
          style={{ width: 32, height: 28, padding: 0, border: 'none', background: 'none', cursor: 'pointer' }}
        />
        {SWATCHES.map(([name, value]) => (
          <Box
            component="button"
            type="button"
            key={name}
            aria-label={t('alike.colour.swatch', { name: t(`alike.colour.${name}`) })}
            aria-pressed={colour === value}
            onClick={() => onChange(value)}
            sx={{
              width: 24,
              height: 24,
              p: 0,
              borderRadius: '50%',
              bgcolor: value,
              border: '1px solid',
              borderColor: 'divider',
              cursor: 'pointer',
              outlineOffset: 2,
              '&[aria-pressed="true"]': { outline: '2px solid', outlineColor: 'primary.main' },
              '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
            }}
          />
        ))}
      </Box>
    </Box>
  );
}
