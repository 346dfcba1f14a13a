import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { defaultTranslations } from '@vitrine/contract/translations';
import { describe, expect, it, vi } from 'vitest';
import { TranslationProvider, Translator } from '../../lib/translate.tsx';
import { FacetSidebar, type MoreFacetValues } from './FacetSidebar.tsx';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { facetConfigSchema, type GlobalConfig } from '@vitrine/contract/global-config';
import type { IndexField } from '@vitrine/contract/search';
import { facetDefs, type FacetDef } from './facets.ts';
import { FACET_PAGE, type FacetValue } from './queries.ts';

// A preview step of 50 keeps the clicks few; the rule is the same for the default 10.
const def: FacetDef = { field: 'keywords', kind: 'checkbox', range: 'other', preview: 50 };
const valuesFrom = (from: number, n: number): FacetValue[] =>
  Array.from({ length: n }, (_, i) => ({ value: `word ${String(from + i).padStart(3, '0')}`, count: 1 }));

function renderSidebar(values: FacetValue[], loadMore: MoreFacetValues, language: 'en' | 'de' = 'en') {
  const i18n = new Translator({ language, fallbackLanguage: 'en', messages: defaultTranslations });
  const ui = (v: FacetValue[]) => (
    <TranslationProvider i18n={i18n}>
      <FacetSidebar
        defs={[def]}
        answer={{ facetFields: { keywords: v }, facetRanges: {} }}
        filters={[]}
        onChange={() => undefined}
        fields={[]}
        lang={language}
        fallbackLang="en"
        loadMore={loadMore}
      />
    </TranslationProvider>
  );
  const view = render(ui(values));
  return { ...view, rerenderWith: (v: FacetValue[]) => view.rerender(ui(v)) };
}

const boxes = () => within(screen.getByRole('group')).getAllByRole('checkbox');

describe('facet "show more" past the first answer (portal-spec §2 "Search", §9 preview steps)', () => {
  it.each([
    ['en', 'Show more'],
    ['de', 'Mehr anzeigen'],
  ] as const)(
    'in %s, goes on past the first answer by asking for the next page, and stops after a short page',
    async (lang, more) => {
      const loadMore = vi.fn<MoreFacetValues>(async (_field, offset) => valuesFrom(offset, 25));
      renderSidebar(valuesFrom(0, FACET_PAGE), loadMore, lang);
      const user = userEvent.setup();
      expect(boxes()).toHaveLength(50);
      await user.click(screen.getByRole('button', { name: more }));
      expect(boxes()).toHaveLength(100);
      expect(loadMore).not.toHaveBeenCalled();
      await user.click(screen.getByRole('button', { name: more }));
      expect(loadMore).toHaveBeenCalledWith('keywords', 100);
      expect(await screen.findByRole('checkbox', { name: /word 124/ })).toBeInTheDocument();
      expect(boxes()).toHaveLength(125);
      // 25 is less than a page: there is nothing more to ask for.
      expect(screen.queryByRole('button', { name: more })).toBeNull();
      expect(loadMore).toHaveBeenCalledTimes(1);
    },
  );

  it('asks for nothing when the first answer had less than a page, and a new answer drops the values loaded for the old one', async () => {
    const loadMore = vi.fn<MoreFacetValues>(async (_field, offset) => valuesFrom(offset, FACET_PAGE));
    const { rerenderWith } = renderSidebar(valuesFrom(0, FACET_PAGE), loadMore);
    const user = userEvent.setup();
    for (let i = 0; i < 2; i++) await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByRole('checkbox', { name: /word 109/ })).toBeInTheDocument();
    rerenderWith(valuesFrom(500, 12));
    expect(screen.queryByRole('checkbox', { name: /word 109/ })).toBeNull();
    expect(boxes()).toHaveLength(12);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(loadMore).toHaveBeenCalledTimes(1);
  });
});

const field = (field_name: string, over: Partial<IndexField> = {}): IndexField => ({
  field_name,
  default_labels: {},
  is_facet: true,
  range_facet: false,
  multi_valued: false,
  origin: 'value',
  type: 'string',
  options: {},
  ...over,
});

describe('configured facets the index no longer has (portal-spec §4 "Search")', () => {
  const configured = (...names: string[]): GlobalConfig => ({
    ...defaultGlobalConfig,
    facets: names.map((field_name, position) => facetConfigSchema.parse({ field_name, position })),
  });

  it('are left out, so that the search asks only for facets the index counts', () => {
    const defs = facetDefs(configured('category', 'gone_field', 'creator'), [field('creator'), field('category')]);
    expect(defs.map((d) => d.field)).toEqual(['category', 'creator']);
  });

  it('are kept while the index fields are not known', () => {
    expect(facetDefs(configured('category', 'gone_field'), []).map((d) => d.field)).toEqual(['category', 'gone_field']);
  });
});

describe('a facet label per language from the search settings (admin-spec §1 "search", portal-spec §3 "Facet config")', () => {
  const keywords = field('keywords', { default_labels: { en: 'Keywords', de: 'Schlagwörter' } });
  const withLabels = (labels?: Record<string, string>): GlobalConfig => ({
    ...defaultGlobalConfig,
    facets: [facetConfigSchema.parse({ field_name: 'keywords', position: 0, labels })],
  });
  /** The facet's group as the sidebar shows it in the language. */
  const facetIn = (config: GlobalConfig, language: string) => {
    const i18n = new Translator({ language, fallbackLanguage: 'en', messages: defaultTranslations });
    render(
      <TranslationProvider i18n={i18n}>
        <FacetSidebar
          defs={facetDefs(config, [keywords])}
          answer={{ facetFields: { keywords: valuesFrom(0, 2) }, facetRanges: {} }}
          filters={[]}
          onChange={() => undefined}
          fields={[keywords]}
          lang={language}
          fallbackLang="en"
        />
      </TranslationProvider>,
    );
    return screen.getByRole('group');
  };

  it.each([
    ['en', 'Topics'],
    ['de', 'Themen'],
  ])('in %s names the facet with the label of that language', (language, label) => {
    expect(facetIn(withLabels({ en: 'Topics', de: 'Themen' }), language)).toHaveAccessibleName(label);
  });

  it("falls back to the fallback language's label, then to the index field's; an empty label is none", () => {
    expect(facetIn(withLabels({ en: 'Topics', de: '  ' }), 'de')).toHaveAccessibleName('Topics');
    cleanup();
    expect(facetIn(withLabels({ en: '', de: '' }), 'de')).toHaveAccessibleName('Schlagwörter');
    cleanup();
    expect(facetIn(withLabels(), 'en')).toHaveAccessibleName('Keywords');
  });
});
