import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
