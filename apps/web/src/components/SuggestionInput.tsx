import {
  Autocomplete,
  Box,
  Chip,
  FormControl,
  IconButton,
  InputAdornment,
  InputLabel,
  ListSubheader,
  OutlinedInput,
  Typography,
} from '@mui/material';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SuggestionGroup } from '@vitrine/contract/search';
import { matchesSuggestion, suggestionOptions, truncateTag, type SuggestionOption } from '../lib/searchInput.ts';
import { SearchIcon } from './icons.tsx';
import { visuallyHidden } from './visuallyHidden.ts';

/** Suggestions menu max height and close delay (portal-spec §9). */
const MENU_MAX_HEIGHT = 310;
const CLOSE_DELAY_MS = 250;

/**
 * A search input with suggestion chips (portal-spec §2 "Search"): the menu opens on focus and closes
 * 250 ms after focus leaves; suggestions filter by substring of their label; chosen suggestions become
 * chips and are disabled in the menu; each group shows its preview count and a 'more' note.
 */
export function SuggestionInput({
  id,
  groups,
  text,
  onTextChange,
  chosen,
  onChosenChange,
  onSubmit,
  labelOf,
}: {
  id: string;
  groups: readonly SuggestionGroup[];
  text: string;
  onTextChange: (text: string) => void;
  chosen: SuggestionOption[];
  onChosenChange: (chosen: SuggestionOption[]) => void;
  onSubmit: () => void;
  labelOf: (field: string) => string;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(closeTimer.current), []);
  const options = suggestionOptions(groups);
  const visible = options.filter((o) => matchesSuggestion(o, text));
  const menuOpen = open && visible.length > 0;
  const highlighted = useRef<SuggestionOption | null>(null);
  // MUI asks about the highlighted option on Enter even when the list has just changed under it.
  const isChosen = (o: SuggestionOption | undefined) =>
    o !== undefined && chosen.some((c) => c.field === o.field && c.value === o.value);

  return (
    <Box
      component="form"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      sx={{ width: '100%', maxWidth: 640 }}
    >
      <Autocomplete<SuggestionOption, true, false, false>
        multiple
        id={id}
        options={options}
        value={chosen}
        onChange={(_e, value) => onChosenChange(value)}
        inputValue={text}
        onInputChange={(_e, value, reason) => {
          // Choosing a suggestion clears the text that found it; blur keeps what was typed.
          if (reason !== 'blur') onTextChange(value);
        }}
        open={menuOpen}
        onOpen={() => {
          clearTimeout(closeTimer.current);
          setOpen(true);
        }}
        onClose={(_e, reason) => {
          clearTimeout(closeTimer.current);
          if (reason === 'blur') closeTimer.current = setTimeout(() => setOpen(false), CLOSE_DELAY_MS);
          else setOpen(false);
        }}
        openOnFocus
        clearOnBlur={false}
        disableCloseOnSelect
        filterSelectedOptions={false}
        filterOptions={(all, { inputValue }) => all.filter((o) => matchesSuggestion(o, inputValue))}
        onHighlightChange={(_e, option, reason) => {
          // Only a suggestion reached by keyboard is chosen by Enter; a hovered one is not.
          highlighted.current = reason === 'keyboard' ? option : null;
        }}
        onKeyDown={(event: KeyboardEvent<HTMLDivElement> & { defaultMuiPrevented?: boolean }) => {
          // Enter without a visible highlighted suggestion submits the form, as a plain input would.
          const h = highlighted.current;
          const choosing = menuOpen && h !== null && visible.includes(h) && !isChosen(h);
          if (event.key === 'Enter' && !choosing) event.defaultMuiPrevented = true;
        }}
        groupBy={(o) => o.field}
        getOptionLabel={(o) => o.label}
        getOptionKey={(o) => `${o.field}\u0000${o.value}`}
        isOptionEqualToValue={(o, v) => o.field === v.field && o.value === v.value}
        getOptionDisabled={isChosen}
        slotProps={{ listbox: { style: { maxHeight: MENU_MAX_HEIGHT } } }}
        renderGroup={(params) => {
          const group = groups.find((g) => g.field_name === params.group);
          const rest = group ? group.total - Math.min(group.preview, group.docs.length) : 0;
          const headerId = `${id}-group-${params.key}`;
          return (
            <li key={params.key}>
              <ListSubheader component="div" id={headerId} sx={{ top: -8 }}>
                {labelOf(params.group)}
              </ListSubheader>
              <Box component="ul" role="group" aria-labelledby={headerId} sx={{ p: 0 }}>
                {params.children}
              </Box>
              {rest > 0 && (
                <Typography variant="caption" color="text.secondary" component="div" sx={{ px: 2, pb: 1 }}>
                  {t('views.search.suggestions.more', { count: rest })}
                </Typography>
              )}
            </li>
          );
        }}
        renderValue={(value, getItemProps) =>
          value.map((option, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            const label = `${labelOf(option.field)}: ${truncateTag(option.label)}`;
            return <Chip key={key} size="small" label={label} title={option.label} {...itemProps} />;
          })
        }
        // The outlined input TextField would draw, without TextField: it also brings Select and its
        // menu into the first screen's JavaScript.
        renderInput={(params) => (
          <FormControl
            fullWidth={params.fullWidth}
            disabled={params.disabled}
            size={params.size}
            sx={{ bgcolor: 'background.paper', borderRadius: 1 }}
          >
            <InputLabel {...params.slotProps.inputLabel}>{t('views.search.input.label')}</InputLabel>
            <OutlinedInput
              {...params.slotProps.input}
              id={params.id}
              label={t('views.search.input.label')}
              placeholder={chosen.length === 0 ? t('views.search.input.placeholder') : undefined}
              inputProps={{ ...params.slotProps.htmlInput, 'data-tour': 'search_input' }}
              endAdornment={
                <InputAdornment position="end">
                  <IconButton type="submit" edge="end" aria-label={t('views.search.input.submit')}>
                    <SearchIcon />
                  </IconButton>
                </InputAdornment>
              }
            />
          </FormControl>
        )}
      />
      <Box role="status" sx={visuallyHidden}>
        {menuOpen ? t('views.search.suggestions.available', { count: visible.length }) : ''}
      </Box>
    </Box>
  );
}
