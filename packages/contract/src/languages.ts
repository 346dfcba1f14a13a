/**
 * Languages as the portal names them, without schemas (the web app's first script reads them): the
 * format of a language code, what an Accept-Language header asks for, and which interface language a
 * visitor gets. formats.ts builds the schemas on these.
 */

export const LANGUAGE_CODE = /^[a-z]{2}$/;

/** A BCP 47 language tag as caption files and their settings name them: `en`, `de-CH`, `fil`, `zh-Hant-TW`. */
export const LANGUAGE_TAG = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i;

/** The language of the interface texts a missing text falls back to. */
export const FALLBACK_LOCALE = 'en';

export const isLanguageCode = (value: string): boolean => LANGUAGE_CODE.test(value);

/**
 * The languages an Accept-Language header names, most wanted first as written (q-values are not
 * weighed): each entry's primary subtag, lower-cased, when it is a language code (`de-CH;q=0.8` is
 * `de`; `*` and three-letter languages such as `fil` are left out, never cut to two letters).
 */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((entry) => (entry.split(';')[0] ?? '').trim().split('-')[0]?.toLowerCase() ?? '')
    .filter(isLanguageCode);
}

/**
 * The interface language (portal-spec §1): the stored choice, then the browser's languages in order
 * (primary subtags, as acceptedLanguages gives them), then German, then the first supported one. The
 * web app and the server (which picks the texts the portal's page carries) decide the same way.
 */
export function pickInterfaceLanguage(
  supported: readonly string[],
  stored: string | null,
  browser: readonly string[],
): string {
  if (stored && supported.includes(stored)) return stored;
  const match = browser.find((lang) => supported.includes(lang));
  if (match) return match;
  return supported.includes('de') ? 'de' : (supported[0] ?? 'de');
}
