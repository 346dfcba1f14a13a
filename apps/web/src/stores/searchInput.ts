import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { indexFieldsCall, suggestionsCall } from '@vitrine/contract/endpoints';
import { routePath } from '@vitrine/contract/paths';
import type { GlobalConfig } from '@vitrine/contract/global-config';
import type { IndexField, SuggestionGroup, SuggestionSelection } from '@vitrine/contract/search';
import { bootData } from '../lib/bootData.ts';
import { callApi } from '../lib/apiClient.ts';
import { indexFieldLabel } from '../lib/fieldText.ts';
import { useTranslation, type Translator } from '../lib/translate.tsx';

/** Suggestions are asked for from this many typed characters on. */
export const SUGGESTION_MIN_CHARS = 2;
/** Tag text is cut at 50 characters (portal-spec §9). */
const TAG_MAX = 50;

const staleTime = 60_000;
/** The typing debounce before suggestions are asked for. */
const SUGGESTION_DEBOUNCE_MS = 200;

/** Index fields and suggestions serve the dashboard and the search page alike. */
export const searchInputKeys = {
  fields: () => ['index', 'fields'] as const,
  suggestions: (lang: string, text: string, fields: readonly string[]) =>
    ['index', 'suggestions', lang, text, fields] as const,
};

/** A suggestion as the input offers and shows it. */
export interface SuggestionOption {
  field: string;
  value: string;
  label: string;
}

/** Tag values are cut at 50 characters with an ellipsis (portal-spec §2 "Search"). */
export function truncateTag(text: string): string {
  return text.length > TAG_MAX ? `${text.slice(0, TAG_MAX)}…` : text;
}

/** Suggestions filter case-insensitively by substring of the label (portal-spec §2 "Search"). */
export function matchesSuggestion(option: SuggestionOption, text: string): boolean {
  return option.label.toLowerCase().includes(text.trim().toLowerCase());
}

/** The options a set of groups offers: per group its preview count of values. */
export function suggestionOptions(groups: readonly SuggestionGroup[]): SuggestionOption[] {
  return groups.flatMap((g) =>
    g.docs.slice(0, g.preview).map((d) => ({ field: g.field_name, value: d.value, label: d.label })),
  );
}

/** Chosen suggestions as the route carries them: the values of one field together, in order. */
export function toSelections(chosen: readonly SuggestionOption[]): SuggestionSelection[] {
  const byField = new Map<string, string[]>();
  for (const c of chosen) byField.set(c.field, [...(byField.get(c.field) ?? []), c.value]);
  return [...byField].map(([field_name, values]) => ({ field_name, values }));
}

export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** The index fields: labels per language, facet and range flags. */
export function useIndexFields() {
  return useQuery({
    queryKey: searchInputKeys.fields(),
    queryFn: async ({ signal }): Promise<IndexField[]> => (await callApi(indexFieldsCall, { signal })).visible_fields,
    // The page carries them when visitors without an account may search (lib/bootData.ts).
    initialData: () => bootData()?.fields,
    staleTime,
  });
}

/**
 * Suggestion groups for the typed text (portal-spec §2 "Search"); the last groups stay while the
 * next answer loads or the text is too short, so the menu does not flicker.
 */
export function useSuggestions(lang: string, text: string, fields: readonly string[]) {
  const trimmed = text.trim();
  return useQuery({
    enabled: trimmed.length >= SUGGESTION_MIN_CHARS,
    queryKey: searchInputKeys.suggestions(lang, trimmed, fields),
    queryFn: async ({ signal }): Promise<SuggestionGroup[]> => {
      // No fields: the server's default suggestion fields.
      const query = { text: trimmed, fields: fields.length > 0 ? [...fields] : undefined };
      return (await callApi(suggestionsCall, { query, signal })).suggestions;
    },
    placeholderData: keepPreviousData,
    staleTime,
  });
}

/**
 * A field's label: the configured text key, else the index field's label in the language
 * (`indexFieldLabel`: the translation set's, else the index field's), else views.search.tags.error.
 */
export function fieldLabel(
  texts: Pick<Translator, 't' | 'textIn'>,
  fields: readonly IndexField[] | undefined,
  field: string,
  lang: string,
  fallbackLang: string,
  translation?: string,
): string {
  if (translation) return texts.t(translation);
  return (
    indexFieldLabel(field, { lang, fallbackLang, fields: fields ?? [], textIn: texts.textIn }) ??
    texts.t('views.search.tags.error')
  );
}

/** A field configured for suggestions, with its optional text key. */
export type SuggestionFieldConfig = GlobalConfig['suggestions'][number];

/**
 * The search input as the dashboard and the search page share it (portal-spec §2 "Search"): the
 * typed text and the chosen suggestions, the suggestion groups for the debounced text, the labels
 * of the fields, and the route a submit goes to.
 */
export function useSearchInput(options: {
  t: (key: string) => string;
  lang: string;
  fallbackLang: string;
  configuredFields: readonly SuggestionFieldConfig[];
  initialText?: string;
  initialChosen?: () => SuggestionOption[];
}) {
  const { t, lang, fallbackLang, configuredFields } = options;
  const { textIn } = useTranslation().i18n;
  const [text, setText] = useState(options.initialText ?? '');
  const [chosen, setChosen] = useState<SuggestionOption[]>(options.initialChosen ?? []);
  const { data: fields } = useIndexFields();
  // Configured fields the caller's index does not have (a field only some groups see) are not asked.
  const fieldNames = useMemo(
    () =>
      configuredFields
        .filter((f) => !fields || fields.some((x) => x.field_name === f.field_name))
        .map((f) => f.field_name),
    [configuredFields, fields],
  );
  const { data: groups = [] } = useSuggestions(lang, useDebounced(text, SUGGESTION_DEBOUNCE_MS), fieldNames);
  // Stable between renders, so the memoised input does not draw again while results load.
  const labelOf = useCallback(
    (field: string) =>
      fieldLabel(
        { t, textIn },
        fields,
        field,
        lang,
        fallbackLang,
        configuredFields.find((c) => c.field_name === field)?.translation,
      ),
    [t, textIn, fields, lang, fallbackLang, configuredFields],
  );
  const submitPath = useCallback(() => textSearchPath(text, toSelections(chosen)), [text, chosen]);
  return {
    text,
    setText,
    chosen,
    setChosen,
    groups,
    labelOf,
    /** Where submitting goes: the trimmed text and the chosen suggestions, nothing else. */
    submitPath,
  };
}

/**
 * The submitted search as a route (portal-spec §4 "Search"): the trimmed text (empty becomes *) and
 * the chosen suggestions as '+{field_name}=value1,value2' per field (portal-spec §2 "Search").
 */
export function textSearchPath(text: string, suggestions: readonly SuggestionSelection[] = []): string {
  const fields = suggestions.map((s) => ({ name: s.field_name, values: s.values }));
  return routePath({ page: 'search', text, fields });
}
