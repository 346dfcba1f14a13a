import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { listTranslationsCall, type MessageSet } from '@vitrine/contract/config';
import { setLocaleCall } from '@vitrine/contract/session';
import { defaultTranslations } from '@vitrine/contract/translations';
import { callApi, getSessionToken, setRequestLanguage } from '../lib/apiClient.ts';
import { toast } from '../lib/toast.ts';
import { FALLBACK_LOCALE, pickLocale, storeLocale } from './locale.ts';

const bundled = Object.keys(defaultTranslations);

/** The server's message set of a language (an admin's edits over the bundled texts). */
async function fetchMessages(lang: string): Promise<MessageSet> {
  const answer = await callApi(listTranslationsCall, { query: { lang } });
  if ('locales' in answer && Array.isArray(answer.locales)) throw new Error('Expected a message set');
  return answer as MessageSet;
}

async function fetchLocales(): Promise<string[]> {
  const answer = await callApi(listTranslationsCall, {});
  return 'locales' in answer && Array.isArray(answer.locales) ? answer.locales : bundled;
}

/** Adds the server's texts of a language over what is loaded; false when they could not be loaded. */
export async function loadServerMessages(instance: i18n, lang: string): Promise<boolean> {
  try {
    instance.addResourceBundle(lang, 'translation', await fetchMessages(lang), true, true);
    return true;
  } catch {
    return false;
  }
}

/**
 * i18next with the bundled German and English sets. With `remote`, the languages and texts the
 * server offers are loaded before the first render, so admin-edited texts never flash.
 */
export async function createI18n(options: { remote?: boolean } = {}): Promise<i18n> {
  const instance = i18next.createInstance();
  const supported = options.remote ? await fetchLocales().catch(() => bundled) : bundled;
  const lng = pickLocale(supported);
  await instance.use(initReactI18next).init({
    lng,
    fallbackLng: FALLBACK_LOCALE,
    resources: Object.fromEntries(
      Object.entries(defaultTranslations).map(([lang, messages]) => [lang, { translation: messages }]),
    ),
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  if (options.remote) {
    await Promise.all([...new Set([lng, FALLBACK_LOCALE])].map((l) => loadServerMessages(instance, l)));
  }
  setRequestLanguage(lng);
  instance.on('languageChanged', (lang) => {
    setRequestLanguage(lang);
    document.documentElement.lang = lang;
  });
  document.documentElement.lang = lng;
  return instance;
}

/**
 * Switches the interface language: loads its texts, remembers the choice locally and, for a logged-in
 * session, on the server (session/set_locale), then confirms with a notice (portal-spec §8).
 */
export async function switchLanguage(instance: i18n, lang: string): Promise<void> {
  const loaded = await loadServerMessages(instance, lang);
  if (!loaded && !bundled.includes(lang)) {
    toast.show('toast.locale.error', 'error');
    return;
  }
  await instance.changeLanguage(lang);
  storeLocale(lang);
  if (getSessionToken()) {
    try {
      await callApi(setLocaleCall, { query: { locale: lang } });
    } catch {
      toast.show('toast.locale.error', 'error');
      return;
    }
  }
  toast.show('toast.locale.updated', 'success');
}
