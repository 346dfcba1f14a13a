import { describe, expect, it } from 'vitest';
import { acceptLanguage } from './apiClient.ts';
import { contentLanguageOf } from './contentLanguage.ts';
import { portalTranslator } from './translator.ts';

describe('a translation set\'s content language (admin-spec §3 "Translation set": metadata.content_language)', () => {
  const french = (metadata: Record<string, string>) =>
    portalTranslator('fr', { fr: { metadata }, en: { metadata: { content_language: 'en' } } });

  it("shows assets in the content language the interface language's set names", () => {
    expect(contentLanguageOf(french({ content_language: 'en' }), ['de', 'en'])).toBe('en');
  });

  it('takes the first content language when the set names none, names one not offered, or holds a label there', () => {
    expect(contentLanguageOf(portalTranslator('fr', { fr: {} }), ['de', 'en'])).toBe('de');
    expect(contentLanguageOf(french({ content_language: 'it' }), ['de', 'en'])).toBe('de');
    expect(contentLanguageOf(french({ content_language: 'Content language' }), ['de', 'en'])).toBe('de');
  });

  it('keeps an interface language that is a content language itself', () => {
    expect(
      contentLanguageOf(portalTranslator('de', { de: { metadata: { content_language: 'en' } } }), ['de', 'en']),
    ).toBe('de');
  });

  it("asks the server in the interface language first, then in the set's content language", () => {
    expect(acceptLanguage('fr', 'en')).toBe('fr, en;q=0.9');
    expect(acceptLanguage('en', 'en')).toBe('en');
    expect(acceptLanguage('fr', undefined)).toBe('fr');
    expect(acceptLanguage('fr', 'Content language')).toBe('fr');
    expect(acceptLanguage('fr', { en: true })).toBe('fr');
  });
});
