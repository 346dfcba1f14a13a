import {
  Box,
  Chip,
  FormControl,
  IconButton,
  InputAdornment,
  InputLabel,
  ListSubheader,
  OutlinedInput,
  Paper,
  Typography,
} from '@mui/material';
import useAutocomplete from '@mui/material/useAutocomplete';
import { memo, useRef, useState, type KeyboardEvent } from 'react';
import { useDelay } from '../lib/delay.ts';
import { useTranslation } from '../lib/translate.tsx';
import type { SuggestionGroup } from '@vitrine/contract/search';
import { matchesSuggestion, suggestionOptions, truncateTag, type SuggestionOption } from '../stores/searchInput.ts';
import { SearchIcon } from '../components/icons.tsx';
import { visuallyHidden } from '../components/visuallyHidden.ts';

/** Suggestions menu max height and close delay (portal-spec §9). */
const MENU_MAX_HEIGHT = 310;
const CLOSE_DELAY_MS = 250;

/**
 * A search input with suggestion chips (portal-spec §2 "Search"): the menu opens on focus and closes
 * 250 ms after focus leaves, or when the search is submitted; suggestions filter by substring of their label; chosen suggestions become
 * chips and are disabled in the menu; each group shows its preview count and a 'more' note.
 */
export const SuggestionInput = memo(function SuggestionInput({
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
  const closing = useDelay();
  const options = suggestionOptions(groups);
  const visible = options.filter((o) => matchesSuggestion(o, text));
  const menuOpen = open && visible.length > 0;
  // The suggestion reached by keyboard, if any (only events read and write it).
  const highlighted = useRef<SuggestionOption | null>(null);
  const same = (a: SuggestionOption) => (b: SuggestionOption) => a.field === b.field && a.value === b.value;
  // MUI asks about the highlighted option on Enter even when the list has just changed under it.
  const isChosen = (o: SuggestionOption | undefined) => o !== undefined && chosen.some(same(o));

  // The headless part of MUI's Autocomplete (keyboard, ARIA, choosing); the menu is drawn below the
  // input here, without the positioning library the full component brings along.
  const auto = useAutocomplete<SuggestionOption, true, false, false>({
    multiple: true,
    id,
    componentName: 'SuggestionInput',
    options,
    value: chosen,
    onChange: (_e, value) => onChosenChange(value),
    inputValue: text,
    onInputChange: (_e, value, reason) => {
      // Choosing a suggestion clears the text that found it; blur keeps what was typed.
      if (reason !== 'blur') onTextChange(value);
    },
    open: menuOpen,
    onOpen: () => {
      closing.cancel();
      setOpen(true);
    },
    onClose: (_e, reason) => {
      closing.cancel();
      if (reason === 'blur') closing.run(CLOSE_DELAY_MS, () => setOpen(false));
      else setOpen(false);
    },
    openOnFocus: true,
    clearOnBlur: false,
    disableCloseOnSelect: true,
    filterSelectedOptions: false,
    filterOptions: (all, { inputValue }) => all.filter((o) => matchesSuggestion(o, inputValue)),
    onHighlightChange: (_e, option, reason) => {
      // Only a suggestion reached by keyboard is chosen by Enter; a hovered one is not.
      highlighted.current = reason === 'keyboard' ? option : null;
    },
    groupBy: (o) => o.field,
    getOptionLabel: (o) => o.label,
    getOptionKey: (o) => `${o.field}\u0000${o.value}`,
    isOptionEqualToValue: (o, v) => o.field === v.field && o.value === v.value,
    getOptionDisabled: isChosen,
  });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement> & { defaultMuiPrevented?: boolean }) => {
    // Enter without a visible highlighted suggestion submits the form, as a plain input would.
    const h = highlighted.current;
    const choosing = menuOpen && h !== null && visible.some(same(h)) && !isChosen(h);
    if (event.key === 'Enter' && !choosing) event.defaultMuiPrevented = true;
  };
  const groupsShown = auto.popupOpen ? auto.groupedOptions : [];
  const label = t('views.search.input.label');

  return (
    <Box
      component="form"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        // A submitted search closes the menu, so the results it brings are not covered; typing
        // opens it again.
        closing.cancel();
        setOpen(false);
        onSubmit();
      }}
      sx={{ width: '100%', maxWidth: 640 }}
    >
      <Box {...auto.getRootProps({ onKeyDown })} sx={{ position: 'relative' }}>
        <FormControl fullWidth sx={{ bgcolor: 'background.paper', borderRadius: 1 }}>
          <InputLabel {...auto.getInputLabelProps()}>{label}</InputLabel>
          <OutlinedInput
            ref={auto.setAnchorEl}
            label={label}
            placeholder={chosen.length === 0 ? t('views.search.input.placeholder') : undefined}
            startAdornment={
              chosen.length > 0
                ? chosen.map((option, index) => {
                    const { key, ...itemProps } = auto.getItemProps({ index });
                    return (
                      <Chip
                        key={key}
                        size="small"
                        label={`${labelOf(option.field)}: ${truncateTag(option.label)}`}
                        title={option.label}
                        sx={{ m: '3px', maxWidth: 'calc(100% - 6px)' }}
                        {...itemProps}
                      />
                    );
                  })
                : undefined
            }
            inputProps={{ ...auto.getInputProps(), 'data-tour': 'search_input' }}
            endAdornment={
              <InputAdornment position="end">
                <IconButton type="submit" edge="end" aria-label={t('views.search.input.submit')}>
                  <SearchIcon />
                </IconButton>
              </InputAdornment>
            }
            // Chips and the text share the field and wrap, as in MUI's Autocomplete.
            sx={{
              flexWrap: 'wrap',
              p: '9px',
              pr: '14px',
              '& .MuiOutlinedInput-input': {
                minWidth: 30,
                width: 0,
                flexGrow: 1,
                textOverflow: 'ellipsis',
                p: '7.5px 4px 7.5px 5px',
              },
            }}
          />
        </FormControl>
        {groupsShown.length > 0 && (
          <Paper
            elevation={8}
            sx={{ position: 'absolute', top: '100%', left: 0, right: 0, mt: 0.5, zIndex: 'modal', overflow: 'hidden' }}
          >
            <Box
              component="ul"
              {...auto.getListboxProps()}
              sx={(theme) => ({
                listStyle: 'none',
                m: 0,
                py: 1,
                px: 0,
                maxHeight: MENU_MAX_HEIGHT,
                overflow: 'auto',
                '& [role="option"]': {
                  ...theme.typography.body1,
                  minHeight: 48,
                  display: 'flex',
                  alignItems: 'center',
                  px: 2,
                  py: 0.75,
                  cursor: 'pointer',
                  [theme.breakpoints.up('sm')]: { minHeight: 'auto' },
                  '&.Mui-focused': { bgcolor: 'action.hover' },
                  '&.Mui-focusVisible': { bgcolor: 'action.focus' },
                  '&[aria-disabled="true"]': { opacity: theme.palette.action.disabledOpacity, pointerEvents: 'none' },
                  '&[aria-selected="true"]': { bgcolor: theme.alpha(theme.palette.primary.main, 0.12) },
                },
              })}
            >
              {groupsShown.map((group) => {
                const suggestions = groups.find((g) => g.field_name === group.group);
                const rest = suggestions
                  ? suggestions.total - Math.min(suggestions.preview, suggestions.docs.length)
                  : 0;
                const headerId = `${id}-group-${group.key}`;
                return (
                  <li key={group.key}>
                    <ListSubheader component="div" id={headerId} sx={{ top: -8 }}>
                      {labelOf(group.group)}
                    </ListSubheader>
                    <Box component="ul" role="group" aria-labelledby={headerId} sx={{ p: 0 }}>
                      {group.options.map((option, i) => {
                        const { key, ...optionProps } = auto.getOptionProps({ option, index: group.index + i });
                        return (
                          <li key={key} {...optionProps}>
                            {option.label}
                          </li>
                        );
                      })}
                    </Box>
                    {rest > 0 && (
                      <Typography variant="caption" color="text.secondary" component="div" sx={{ px: 2, pb: 1 }}>
                        {t('views.search.suggestions.more', { count: rest })}
                      </Typography>
                    )}
                  </li>
                );
              })}
            </Box>
          </Paper>
        )}
      </Box>
      <Box role="status" sx={visuallyHidden}>
        {menuOpen ? t('views.search.suggestions.available', { count: visible.length }) : ''}
      </Box>
    </Box>
  );
});
