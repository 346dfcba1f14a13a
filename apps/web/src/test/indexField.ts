import type { IndexField } from '@vitrine/contract/search';

/** An index field as index/fields answers it: a string field, labelled `en` in English and German unless `more` says otherwise. */
export const indexField = (field_name: string, en: string, more: Partial<IndexField> = {}): IndexField => ({
  field_name,
  default_labels: { en, de: en },
  is_facet: true,
  range_facet: false,
  multi_valued: false,
  origin: 'builtin',
  type: 'string',
  options: {},
  ...more,
});
