import { z } from 'zod';
import { acceptedLanguages, isLanguageCode, LANGUAGE_CODE, pickInterfaceLanguage } from './languages.ts';

/**
 * Formats of single values that the config, the settings file, sidecars, the calls and the admin
 * forms all check: written once here, so a value one of them accepts is accepted by all.
 */

const HEX_COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

const LANGUAGE_CODE_MESSAGE = 'must be a two-letter ISO 639-1 language code in lower case, such as en or de';

/** A language as the portal names it: two lower-case letters of ISO 639-1 (`en`, `de`). */
export const languageCode = z.string().regex(LANGUAGE_CODE, LANGUAGE_CODE_MESSAGE);

export { acceptedLanguages, isLanguageCode, pickInterfaceLanguage };

/** One value per language, `{ "en": …, "de": … }`; a key that is no language code is named. */
export const byLanguage = <T extends z.ZodType>(value: T) =>
  z.record(languageCode, value, {
    error: (issue) =>
      issue.code === 'invalid_key'
        ? `has the key ${JSON.stringify(issue.path?.at(-1))}, which ${LANGUAGE_CODE_MESSAGE}`
        : undefined,
  });

/**
 * One value for every language, or one per language (`byLanguage`). When neither fits, the message
 * is that of the form the input was meant as (a bad language key of an object), else says both.
 */
export const oneOrByLanguage = <T extends z.ZodType>(value: T, what: string) =>
  z.union([value, byLanguage(value)], {
    error: (issue) => {
      if (issue.code !== 'invalid_union') return undefined;
      const meant = issue.errors.find(
        (branch) => !branch.some((e) => e.code === 'invalid_type' && e.path.length === 0),
      );
      // A bad key's message names it; another issue is named by the language it is under.
      const described = meant?.map((e) =>
        e.code === 'invalid_key' || e.path.length === 0 ? e.message : `${e.path.join('.')}: ${e.message}`,
      );
      return described?.join('; ') ?? `must be ${what}, or one per language: {"en": …, "de": …}`;
    },
  });

/** A colour as CSS writes it in hex: `#rgb`, `#rrggbb` or `#rrggbbaa`, in either case. */
export const hexColour = z
  .string()
  .regex(HEX_COLOUR, 'must be a hex colour: # and 3, 6 or 8 hex digits, such as #f60, #ff6600 or #ff6600cc');

export const isHexColour = (value: string): boolean => HEX_COLOUR.test(value);
