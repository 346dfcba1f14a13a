import { listTranslationsCall, setLocaleCall } from '@vitrine/contract/endpoints';
import type { MessageSet } from '@vitrine/contract/config';
import {
  acceptLanguage,
  callApi,
  getSessionToken,
  SETS_CONTENT_LANGUAGE,
  setRequestLanguage,
} from '../lib/apiClient.ts';
import { bootData } from '../lib/bootData.ts';
import { toast } from '../lib/toast.ts';
import { portalTranslator, type Messages, type Translator } from '../lib/translator.ts';
import { FALLBACK_LOCALE, pickLocale, storeLocale } from '../lib/locale.ts';

export type Texts = Record<string, MessageSet | undefined>;

/**
 * The bundled German and English texts. The server serves them too, so they are only loaded (as a
 * chunk of their own) when the server's cannot be, when the admin area compares or restores them,
 * or in tests that run without a server.
 */
export const bundledTexts = (): Promise<Texts> =>
  import('@vitrine/contract/translations').then((m) => m.defaultTranslations as Texts);

/** The server's message set of a language (an admin's edits over the bundled texts). */
async function fetchMessages(lang: string): Promise<MessageSet> {
  const answer = await callApi(listTranslationsCall, { query: { lang } });
  if ('locales' in answer && Array.isArray(answer.locales)) throw new Error('Expected a message set');
  return answer as MessageSet;
}

async function fetchLocales(): Promise<string[]> {
  const answer = await callApi(listTranslationsCall, {});
  if ('locales' in answer && Array.isArray(answer.locales)) return answer.locales;
  throw new Error('Expected the list of locales');
}

/** Adds the server's texts of a language over what is loaded; false when they could not be loaded. */
export async function loadServerMessages(instance: Translator, lang: string): Promise<boolean> {
  try {
    instance.addMessages(lang, await fetchMessages(lang));
    return true;
  } catch {
    return false;
  }
}

/**
 * The translator with the server's texts (an admin's edits over the bundled ones), ready before the first
 * render so that texts never flash: those the portal's page carries, else loaded (the language and the
 * fallback at once); the bundled German and English sets stand in when the server's cannot be loaded.
 * Without `remote` (component tests) only the bundled sets are used.
 */
export async function createI18n(options: { remote?: boolean } = {}): Promise<Translator> {
  const boot = options.remote ? bootData() : null;
  let bundled: Texts | undefined;
  let supported = boot?.locales ?? (options.remote ? await fetchLocales().catch(() => undefined) : undefined);
  if (!supported) {
    bundled = await bundledTexts();
    supported = Object.keys(bundled);
  }
  const lng = pickLocale(supported);
  const sets = await Promise.all(
    [...new Set([lng, FALLBACK_LOCALE])].map(async (lang) => {
      const carried = boot?.messages[lang];
      if (carried) return [lang, carried] as const;
      const fetched = options.remote ? await fetchMessages(lang).catch(() => undefined) : undefined;
      if (fetched) return [lang, fetched] as const;
      bundled ??= await bundledTexts();
      return [lang, bundled[lang]] as const;
    }),
  );
  const resources: Record<string, Messages> = {};
  for (const [lang, messages] of sets) if (messages) resources[lang] = messages;
  const instance = portalTranslator(lng, resources);
  const applyLanguage = () => {
    setRequestLanguage(acceptLanguage(instance.language, instance.textIn(instance.language, SETS_CONTENT_LANGUAGE)));
    document.documentElement.lang = instance.language;
  };
  instance.subscribe(applyLanguage);
  applyLanguage();
  return instance;
}

/**
 * Switches the interface language: loads its texts, remembers the choice locally and, for a logged-in
 * session, on the server (session/set_locale), then confirms with a notice (portal-spec §8).
 */
export async function switchLanguage(instance: Translator, lang: string): Promise<void> {
  if (!(await loadServerMessages(instance, lang))) {
    const messages = (await bundledTexts())[lang];
    if (!messages) {
      toast.show('toast.locale.error', 'error');
      return;
    }
    instance.addMessages(lang, messages);
  }
  instance.changeLanguage(lang);
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
