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
  if (stored && supported.includes(stored)) return stored;
  for (const tag of browser) {
    const lang = tag.toLowerCase().split('-')[0] ?? '';
    if (supported.includes(lang)) return lang;
  }
  return supported.includes('de') ? 'de' : (supported[0] ?? 'de');
}

export function storeLocale(lang: string): void {
  localStorage.setItem(LOCALE_KEY, lang);
}

export const FALLBACK_LOCALE = 'en';
