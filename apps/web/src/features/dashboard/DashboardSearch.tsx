import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SuggestionInput } from '../../components/SuggestionInput.tsx';
import {
  fieldLabel,
  textSearchPath,
  toSelections,
  useDebounced,
  useIndexFields,
  useSuggestions,
  type SuggestionOption,
} from '../../lib/searchInput.ts';

/** The typing debounce before suggestions are asked for. */
const DEBOUNCE_MS = 200;

/**
 * The hero's search input with suggestion chips (portal-spec §2 "Dashboard" and "Search"): typing
 * two or more characters asks for suggestions. Submitting goes to the search page with the trimmed
 * text (empty text searches everything) and the chips as '+{field}' filters.
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
  const fieldNames = useMemo(() => configuredFields.map((f) => f.field_name), [configuredFields]);
  const { data: groups = [] } = useSuggestions(lang, useDebounced(text, DEBOUNCE_MS), fieldNames);
  const { data: fields } = useIndexFields();
  const labelOf = (field: string) =>
    fieldLabel(t, fields, field, lang, fallbackLang, configuredFields.find((c) => c.field_name === field)?.translation);

  return (
    <SuggestionInput
      id="dashboard-search"
      groups={groups}
      text={text}
      onTextChange={setText}
      chosen={chosen}
      onChosenChange={setChosen}
      onSubmit={() => void navigate(textSearchPath(text, toSelections(chosen)))}
      labelOf={labelOf}
    />
  );
}
