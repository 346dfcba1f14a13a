import {
  Autocomplete,
  Box,
  Chip,
  IconButton,
  InputAdornment,
  ListSubheader,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { SuggestionGroup, SuggestionSelection } from '@vitrine/contract/search';
import { SearchIcon } from '../../components/icons.tsx';
import { visuallyHidden } from '../../components/visuallyHidden.ts';
import { textSearchPath } from './collectionRoute.ts';
import { useIndexFields, useSuggestions } from './queries.ts';

/** Suggestions menu max height and close delay, the typing debounce (portal-spec §9). */
const MENU_MAX_HEIGHT = 310;
const CLOSE_DELAY_MS = 250;
const DEBOUNCE_MS = 200;
/** Tag text is cut at 50 characters (portal-spec §9). */
const TAG_MAX = 50;

interface SuggestionOption {
  field: string;
  value: string;
  label: string;
}

function truncateTag(text: string): string {
  return text.length > TAG_MAX ? `${text.slice(0, TAG_MAX)}…` : text;
}

/** Suggestions filter case-insensitively by substring of the label (portal-spec §2 "Search"). */
function matches(option: SuggestionOption, text: string): boolean {
  return option.label.toLowerCase().includes(text.trim().toLowerCase());
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Chosen suggestions as the route carries them: the values of one field together, in order. */
function toSelections(chosen: readonly SuggestionOption[]): SuggestionSelection[] {
  const byField = new Map<string, string[]>();
  for (const c of chosen) byField.set(c.field, [...(byField.get(c.field) ?? []), c.value]);
  return [...byField].map(([field_name, values]) => ({ field_name, values }));
}

/** A group's label: the configured text key, else the field's label in the language, else 'unknown'. */
function useFieldLabel(
  lang: string,
  fallbackLang: string,
  configured: readonly { field_name: string; translation?: string }[],
) {
  const { t } = useTranslation();
  const { data: fields } = useIndexFields();
  return (field: string): string => {
    const key = configured.find((c) => c.field_name === field)?.translation;
    if (key) return t(key);
    const labels = fields?.find((f) => f.field_name === field)?.default_labels;
    return labels?.[lang] ?? labels?.[fallbackLang] ?? t('views.search.tags.error');
  };
}

/**
 * The hero's search input with suggestion chips (portal-spec §2 "Dashboard" and "Search"): typing
 * two or more characters asks for suggestions; the menu opens on focus and closes 250 ms after focus
 * leaves; chosen suggestions become chips and are disabled in the menu. Submitting goes to the search
 * page with the trimmed text (empty text searches everything) and the chips as '+{field}' filters.
 */
export function DashboardSearch({
  lang,
  fallbackLang,
  configuredFields,
}: {
  lang: string;
  fallbackLang: string;
  configuredFields: readonly { field_name: string; translation?: string }[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<SuggestionOption[]>([]);
  const [open, setOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(closeTimer.current), []);
  const fieldNames = useMemo(() => configuredFields.map((f) => f.field_name), [configuredFields]);
  const { data: groups = [] } = useSuggestions(lang, useDebounced(text, DEBOUNCE_MS), fieldNames);
  const fieldLabel = useFieldLabel(lang, fallbackLang, configuredFields);

  const options = useMemo(
    () =>
      groups.flatMap((g: SuggestionGroup) =>
        g.docs.slice(0, g.preview).map((d) => ({ field: g.field_name, value: d.value, label: d.label })),
      ),
    [groups],
  );
  const visible = options.filter((o) => matches(o, text));
  const menuOpen = open && visible.length > 0;
  const highlighted = useRef<SuggestionOption | null>(null);
  // MUI asks about the highlighted option on Enter even when the list has just changed under it.
  const isChosen = (o: SuggestionOption | undefined) =>
    o !== undefined && chosen.some((c) => c.field === o.field && c.value === o.value);
  const submit = () => void navigate(textSearchPath(text, toSelections(chosen)));

  return (
    <Box
      component="form"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      sx={{ width: '100%', maxWidth: 640 }}
    >
      <Autocomplete<SuggestionOption, true, false, false>
        multiple
        id="dashboard-search"
        options={options}
        value={chosen}
        onChange={(_e, value) => setChosen(value)}
        inputValue={text}
        onInputChange={(_e, value, reason) => {
          // Choosing a suggestion clears the text that found it; blur keeps what was typed.
          if (reason !== 'blur') setText(value);
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
        filterOptions={(all, { inputValue }) => all.filter((o) => matches(o, inputValue))}
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
          const headerId = `dashboard-search-group-${params.key}`;
          return (
            <li key={params.key}>
              <ListSubheader component="div" id={headerId} sx={{ top: -8 }}>
                {fieldLabel(params.group)}
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
            const label = `${fieldLabel(option.field)}: ${truncateTag(option.label)}`;
            return <Chip key={key} size="small" label={label} title={option.label} {...itemProps} />;
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('views.search.input.label')}
            placeholder={chosen.length === 0 ? t('views.search.input.placeholder') : undefined}
            sx={{ bgcolor: 'background.paper', borderRadius: 1 }}
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, 'data-tour': 'search_input' },
              input: {
                ...params.slotProps.input,
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton type="submit" edge="end" aria-label={t('views.search.input.submit')}>
                      <SearchIcon />
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
        )}
      />
      <Box role="status" sx={visuallyHidden}>
        {menuOpen ? t('views.search.suggestions.available', { count: visible.length }) : ''}
      </Box>
    </Box>
  );
}
