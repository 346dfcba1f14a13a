import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultTranslations } from '@vitrine/contract/translations';
import { setRequestLanguage } from '../lib/apiClient.ts';
import { FALLBACK_LOCALE, pickLocale } from './locale.ts';

/** i18next with the bundled German and English sets; the server's sets replace them once loaded. */
export async function createI18n(): Promise<i18n> {
  const instance = i18next.createInstance();
  const lng = pickLocale(Object.keys(defaultTranslations));
  await instance.use(initReactI18next).init({
    lng,
    fallbackLng: FALLBACK_LOCALE,
    resources: Object.fromEntries(
      Object.entries(defaultTranslations).map(([lang, messages]) => [lang, { translation: messages }]),
    ),
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  setRequestLanguage(lng);
  instance.on('languageChanged', (lang) => {
    setRequestLanguage(lang);
    document.documentElement.lang = lang;
  });
  document.documentElement.lang = lng;
  return instance;
}
