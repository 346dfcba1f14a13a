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

/** Each format: its schema and predicate agree, and a refused value is told what is wanted. */
describe.each([
  {
    name: 'languageCode: two lower-case letters',
    schema: languageCode,
    is: isLanguageCode,
    ok: ['en', 'de', 'fr', 'zh'],
    bad: ['', 'e', 'EN', 'De', 'deu', 'en-US', 'en_US', ' en', 'e1', 'ü1'],
    message: 'must be a two-letter ISO 639-1 language code in lower case, such as en or de',
  },
  {
    name: 'hexColour: #rgb, #rrggbb and #rrggbbaa in either case',
    schema: hexColour,
    is: isHexColour,
    ok: ['#f60', '#F60', '#ff6600', '#B34700', '#ff6600cc', '#000000FF'],
    bad: ['', '#', 'ff6600', '#ff66', '#ff66001', '#ff6600c', '#gg6600', 'red', 'rgb(0,0,0)', '#fff '],
    message: 'must be a hex colour: # and 3, 6 or 8 hex digits, such as #f60, #ff6600 or #ff6600cc',
  },
])('$name', ({ schema, is, ok, bad, message }) => {
  it.each(ok)('takes %j', (value) => {
    expect(schema.safeParse(value).success).toBe(true);
    expect(is(value)).toBe(true);
  });

  it.each(bad)('refuses %j, saying what is wanted', (value) => {
    expect(schema.safeParse(value).error?.issues.map((i) => i.message)).toEqual([message]);
    expect(is(value)).toBe(false);
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

  it('name the language of a value that is wrong', () => {
    expect(messages(title.safeParse({ en: 'x', de: 5 }))).toEqual([
      'de: Invalid input: expected string, received number',
    ]);
  });

  it('say which forms they take when the input is neither', () => {
    expect(messages(title.safeParse(5))).toEqual(['must be a title, or one per language: {"en": …, "de": …}']);
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
