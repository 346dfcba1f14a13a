import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultTranslations } from '@vitrine/contract/translations';
import { interpolate, TranslationProvider, Translator, useTranslation } from './translate.tsx';

const texts = () =>
  new Translator({
    language: 'de',
    fallbackLanguage: 'en',
    messages: {
      en: {
        views: { search: { selected: '{{count}} selected', only_en: 'Only in English' } },
        global: { home: 'Home' },
      },
      de: { views: { search: { selected: '{{count}} ausgewählt' } }, global: { home: 'Start' } },
    },
    postProcess: (text) => text.replace("{'@'}", '@'),
  });

describe('texts (portal-spec §8, admin-spec §4 texts)', () => {
  it('look up dot paths in the language, then the fallback language, then the default value, then the key', () => {
    const { t } = texts();
    expect(t('views.search.selected', { count: 3 })).toBe('3 ausgewählt');
    expect(t('views.search.only_en')).toBe('Only in English');
    expect(t('views.search.nothing', { defaultValue: 'Standard' })).toBe('Standard');
    expect(t('views.search.nothing')).toBe('views.search.nothing');
    // A branch of the tree is not a text.
    expect(t('views.search')).toBe('views.search');
  });

  it('fill placeholders, keep those without a value and pass every text through the post-processor', () => {
    expect(interpolate('{{0}} of {{ total }}', { 0: 2, total: 5 })).toBe('2 of 5');
    expect(interpolate('Hello {{name}}', {})).toBe('Hello {{name}}');
    expect(interpolate('{{flag}}', { flag: false })).toBe('false');
    const i18n = texts();
    i18n.addMessages('de', { mail: "info{'@'}example.org" });
    expect(i18n.t('mail')).toBe('info@example.org');
    expect(i18n.exists('mail')).toBe(true);
    expect(i18n.exists('views.search.only_en')).toBe(true);
    expect(i18n.exists('views.nothing')).toBe(false);
  });

  it('draw components again in the new language and with added texts', () => {
    const i18n = texts();
    function Home() {
      const { t } = useTranslation();
      return <p>{t('global.home')}</p>;
    }
    render(
      <TranslationProvider i18n={i18n}>
        <Home />
      </TranslationProvider>,
    );
    expect(screen.getByText('Start')).toBeInTheDocument();
    act(() => i18n.changeLanguage('en'));
    expect(screen.getByText('Home')).toBeInTheDocument();
    act(() => i18n.addMessages('en', { global: { home: 'Welcome' } }));
    expect(screen.getByText('Welcome')).toBeInTheDocument();
    // Added texts merge: the rest of the language stays.
    expect(i18n.t('views.search.selected', { count: 1 })).toBe('1 selected');
  });
});

describe('plural forms (Intl.PluralRules, i18next suffixes)', () => {
  const plurals = (language: string) =>
    new Translator({
      language,
      fallbackLanguage: 'en',
      messages: {
        en: {
          hits: '{{count}} hits',
          hits_one: '{{count}} hit',
          only_en: '{{count}} things',
          only_en_one: 'one thing',
        },
        de: { hits: '{{count}} Treffer', page: '{{count}} Seiten', page_one: '{{count}} Seite' },
      },
    });

  it('a count picks the language’s form: _one for 1, the plain key for 0 and many', () => {
    const en = plurals('en');
    expect([0, 1, 2, 1000].map((count) => en.t('hits', { count }))).toEqual(['0 hits', '1 hit', '2 hits', '1000 hits']);
    const de = plurals('de');
    expect([0, 1, 7].map((count) => de.t('page', { count }))).toEqual(['0 Seiten', '1 Seite', '7 Seiten']);
  });

  it('a language without the form uses its plain text, not the fallback language’s form', () => {
    expect(plurals('de').t('hits', { count: 1 })).toBe('1 Treffer');
    // A text only the fallback language has comes with that language's forms.
    expect(plurals('de').t('only_en', { count: 1 })).toBe('one thing');
  });

  it('without a numeric count the plain text is used', () => {
    expect(plurals('en').t('hits')).toBe('{{count}} hits');
    expect(plurals('en').t('hits', { count: '1' })).toBe('1 hits');
  });

  const bundled = (language: 'en' | 'de') =>
    new Translator({ language, fallbackLanguage: 'en', messages: defaultTranslations });
  it.each([
    ['en', 'views.search.results.all', ['0 results', '1 result', '5 results']],
    ['de', 'views.search.results.all', ['0 Ergebnisse', '1 Ergebnis', '5 Ergebnisse']],
    ['en', 'views.search.results.query', ['0 results for', '1 result for', '5 results for']],
    ['de', 'views.search.results.query', ['0 Ergebnisse für', '1 Ergebnis für', '5 Ergebnisse für']],
    ['en', 'views.search.stars', ['0 stars', '1 star', '5 stars']],
    ['de', 'views.search.stars', ['0 Sterne', '1 Stern', '5 Sterne']],
    ['en', 'views.bookmark.count', ['0 bookmarked assets', '1 bookmarked asset', '5 bookmarked assets']],
    ['de', 'views.bookmark.count', ['0 gemerkte Assets', '1 gemerktes Asset', '5 gemerkte Assets']],
  ] as const)('the bundled texts in %s: %s for 0, 1 and 5', (language, key, texts) => {
    const { t } = bundled(language);
    expect([0, 1, 5].map((count) => t(key, { count }))).toEqual(texts);
  });

  it('the bundled texts give every singular form in both languages', () => {
    const forms = (set: object, prefix = ''): string[] =>
      Object.entries(set).flatMap(([k, v]) =>
        typeof v === 'string' ? (k.endsWith('_one') ? [`${prefix}${k}`] : []) : forms(v as object, `${prefix}${k}.`),
      );
    expect(forms(defaultTranslations.de).sort()).toEqual(forms(defaultTranslations.en).sort());
    expect(forms(defaultTranslations.en).length).toBeGreaterThan(0);
  });
});
