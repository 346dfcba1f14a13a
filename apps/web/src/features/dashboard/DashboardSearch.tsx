import { useTranslation } from '../../lib/translate.tsx';
import { useNavigate } from '../../lib/router.tsx';
import { SuggestionInput } from '../../widgets/SuggestionInput.tsx';
import { useSearchInput, type SuggestionFieldConfig } from '../../stores/searchInput.ts';

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
  configuredFields: readonly SuggestionFieldConfig[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const input = useSearchInput({ t, lang, fallbackLang, configuredFields });
  return (
    <SuggestionInput
      id="dashboard-search"
      groups={input.groups}
      text={input.text}
      onTextChange={input.setText}
      chosen={input.chosen}
      onChosenChange={input.setChosen}
      onSubmit={() => void navigate(input.submitPath())}
      labelOf={input.labelOf}
    />
  );
}
