import type { TFunction } from '../../lib/translator.ts';

/** The sort button's label: the key's name and the orientation (the page's first paint writes it too). */
export const sortLabel = (t: TFunction, keyLabel: string, orientation: 'asc' | 'desc') =>
  `${t('views.search.sort.label')}: ${keyLabel} (${t(`views.search.sort.${orientation}`)})`;
