import { describe, expect, it } from 'vitest';
import { LANGUAGE_TAG } from './languages.ts';

describe('a language tag (caption files and their settings, one rule)', () => {
  it('takes a language with or without region and script, in either case', () => {
    for (const tag of ['en', 'de-CH', 'en-gb', 'fil', 'zh-Hant-TW']) expect(LANGUAGE_TAG.test(tag), tag).toBe(true);
  });

  it('refuses what is no tag', () => {
    for (const text of ['english', 'e', 'de_CH', 'en-', '-en', 'en-a', '']) {
      expect(LANGUAGE_TAG.test(text), text).toBe(false);
    }
  });
});
