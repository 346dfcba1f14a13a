import { useTranslation } from '../../lib/translate.tsx';
import { indexFieldLabel } from '../../lib/fieldText.ts';
import { useGlobalConfig } from '../../stores/config.ts';
import { useIndexFields } from '../../stores/searchInput.ts';

/** Fields an editor changes that are no index field: their names are texts of the editors' screens. */
const ownTexts = new Set(['created', 'access_groups', 'collections', 'status']);

/** A field's name as the portal shows it: the index field's label in the interface language, else its key. */
export function useFieldLabel(): (field: string) => string {
  const { t, i18n } = useTranslation();
  const { config } = useGlobalConfig();
  const fields = useIndexFields();
  return (field) => {
    if (ownTexts.has(field)) return t(`edit.field.${field}`);
    const context = { lang: i18n.language, fallbackLang: config.fallback_locale, fields: fields.data ?? [] };
    return indexFieldLabel(field, { ...context, textIn: i18n.textIn }) ?? field;
  };
}
