import { pickContentLanguage } from '@vitrine/contract/config-defaults';
import { SETS_CONTENT_LANGUAGE } from './apiClient.ts';
import type { Translator } from './translator.ts';

/**
 * The content language the portal shows assets in for the interface language: itself when it is a
 * content language, else the one its translation set names, else the first content language.
 */
export const contentLanguageOf = (i18n: Pick<Translator, 'language' | 'textIn'>, contentLanguages: readonly string[]) =>
  pickContentLanguage(i18n.language, contentLanguages, i18n.textIn(i18n.language, SETS_CONTENT_LANGUAGE));
