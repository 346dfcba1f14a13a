import { acceptedLanguages, pickInterfaceLanguage } from '@vitrine/contract/languages';

export { FALLBACK_LOCALE } from '@vitrine/contract/languages';

const LOCALE_KEY = 'locale';

/**
 * The interface language: the stored locale, then the browser language, then German
 * (portal-spec §1); texts missing in it fall back to English.
 */
export function pickLocale(
  supported: readonly string[],
  stored: string | null = localStorage.getItem(LOCALE_KEY),
  browser: readonly string[] = navigator.languages,
): string {
  return pickInterfaceLanguage(supported, stored, acceptedLanguages(browser.join(',')));
}

export function storeLocale(lang: string): void {
  localStorage.setItem(LOCALE_KEY, lang);
}
