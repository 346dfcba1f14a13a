import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  acceptedLanguages,
  byLanguage,
  hexColour,
  isHexColour,
  isLanguageCode,
  languageCode,
  oneOrByLanguage,
} from './formats.ts';

describe('languageCode', () => {
  it('takes two lower-case letters', () => {
    for (const ok of ['en', 'de', 'fr', 'zh']) {
      expect(languageCode.safeParse(ok).success, ok).toBe(true);
      expect(isLanguageCode(ok), ok).toBe(true);
    }
  });

  it('refuses anything else, saying what a language code is', () => {
    for (const bad of ['', 'e', 'EN', 'De', 'deu', 'en-US', 'en_US', ' en', 'e1', 'ü1']) {
      const parsed = languageCode.safeParse(bad);
      expect(parsed.success, bad).toBe(false);
      expect(isLanguageCode(bad), bad).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(
        'must be a two-letter ISO 639-1 language code in lower case, such as en or de',
      );
    }
  });
});

describe('byLanguage and oneOrByLanguage (a value, or one per language code)', () => {
  const title = oneOrByLanguage(z.string().min(1), 'a title');
  const messages = (r: { error?: z.ZodError }) => r.error?.issues.map((i) => i.message);

  it('take one value, or one per language code', () => {
    expect(title.parse('Web JPEG')).toBe('Web JPEG');
    expect(title.parse({ en: 'Web JPEG', de: 'Web-JPEG' })).toEqual({ en: 'Web JPEG', de: 'Web-JPEG' });
  });

  it('name a key that is no language code, also inside the choice of forms', () => {
    const expected =
      'has the key "EN", which must be a two-letter ISO 639-1 language code in lower case, such as en or de';
    expect(messages(byLanguage(z.string()).safeParse({ EN: 'x' }))).toEqual([expected]);
    expect(messages(title.safeParse({ en: 'x', EN: 'x' }))).toEqual([expected]);
  });

  it('say which forms they take when the input is neither', () => {
    expect(messages(title.safeParse(5))).toEqual(['must be a title, or one per language: {"en": …, "de": …}']);
  });
});

describe('hexColour', () => {
  it('takes #rgb, #rrggbb and #rrggbbaa in either case', () => {
    for (const ok of ['#f60', '#F60', '#ff6600', '#B34700', '#ff6600cc', '#000000FF']) {
      expect(hexColour.safeParse(ok).success, ok).toBe(true);
      expect(isHexColour(ok), ok).toBe(true);
    }
  });

  it('refuses other lengths, names and CSS functions, saying what a hex colour is', () => {
    for (const bad of ['', '#', 'ff6600', '#ff66', '#ff66001', '#ff6600c', '#gg6600', 'red', 'rgb(0,0,0)', '#fff ']) {
      const parsed = hexColour.safeParse(bad);
      expect(parsed.success, bad).toBe(false);
      expect(isHexColour(bad), bad).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(
        'must be a hex colour: # and 3, 6 or 8 hex digits, such as #f60, #ff6600 or #ff6600cc',
      );
    }
  });
});

describe('acceptedLanguages (Accept-Language)', () => {
  it('lists the language codes in the order written, primary subtags lower-cased', () => {
    expect(acceptedLanguages('de-CH, en;q=0.8, FR-fr;q=0.5')).toEqual(['de', 'en', 'fr']);
    expect(acceptedLanguages(' en ,de')).toEqual(['en', 'de']);
  });

  it('leaves out wildcards and languages that are no two-letter code, rather than cutting them short', () => {
    expect(acceptedLanguages('fil, *;q=0.1, gsw-CH, it')).toEqual(['it']);
    expect(acceptedLanguages('')).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});
