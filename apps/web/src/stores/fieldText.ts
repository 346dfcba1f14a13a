import { useCallback, useMemo } from 'react';
import { formatFieldValue, type ValueFormat } from '@vitrine/contract/field-format';
import type { IndexField } from '@vitrine/contract/search';
import { useTranslation } from '../lib/translate.tsx';
import { assetTitle, fieldRefLabel, fieldText, type FieldFormatter, type FieldTextContext } from '../lib/fieldText.ts';
import { useGlobalConfig } from './config.ts';

// The formatting itself (no React): lib/fieldText.ts, which the page's first-paint script uses too.
export * from '../lib/fieldText.ts';

/**
 * The one formatter of asset fields for the info panel, the list table, the asset page and the
 * bookmark cards, in the visitor's language over the given index fields.
 */
export function useFieldFormatter(fields: readonly IndexField[] | undefined): FieldFormatter {
  const { t, i18n } = useTranslation();
  const { config } = useGlobalConfig();
  const lang = i18n.language;
  const fallbackLang = config.fallback_locale;
  const fileSizeBase = config.global.file_size_base;
  return useMemo(() => {
    const ctx: FieldTextContext = {
      t,
      exists: (key) => i18n.exists(key),
      textIn: i18n.textIn,
      lang,
      fallbackLang,
      fields: fields ?? [],
      fileSizeBase,
    };
    return {
      text: (doc, name) => fieldText(doc, name, ctx),
      label: (ref) => fieldRefLabel(ref, ctx),
      title: (doc, titleField) => assetTitle(doc, titleField, ctx),
    };
  }, [t, i18n, lang, fallbackLang, fields, fileSizeBase]);
}

/**
 * A value by a formatter in the visitor's language, file sizes in the configured base, for values
 * that are no asset's field (a range facet's bounds, a download's progress).
 */
export function useValueText(): (value: unknown, format: ValueFormat) => string {
  const { i18n } = useTranslation();
  const { config } = useGlobalConfig();
  const lang = i18n.language;
  const fileSizeBase = config.global.file_size_base;
  return useCallback(
    (value: unknown, format: ValueFormat) => formatFieldValue(value, format, lang, fileSizeBase),
    [lang, fileSizeBase],
  );
}
