import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
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
import { configKeys } from '../../stores/config.ts';

/** The sidebar's texts in a language, over the default portal config. */
function Texts({ i18n, children }: { i18n: Translator; children: ReactNode }) {
  const client = new QueryClient();
  client.setQueryData(configKeys.global(), defaultGlobalConfig);
  return (
    <QueryClientProvider client={client}>
      <TranslationProvider i18n={i18n}>{children}</TranslationProvider>
    </QueryClientProvider>
  );
}

// A preview step of 50 keeps the clicks few; the rule is the same for the default 10.
const def: FacetDef = { field: 'keywords', kind: 'checkbox', format: 'none', range: 'other', preview: 50 };
const valuesFrom = (from: number, n: number): FacetValue[] =>
  Array.from({ length: n }, (_, i) => ({ value: `word ${String(from + i).padStart(3, '0')}`, count: 1 }));

function renderSidebar(values: FacetValue[], loadMore: MoreFacetValues, language: 'en' | 'de' = 'en') {
  const i18n = new Translator({ language, fallbackLanguage: 'en', messages: defaultTranslations });
  const ui = (v: FacetValue[]) => (
    <Texts i18n={i18n}>
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
    </Texts>
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
    // Drawing 125 checkboxes three times takes 9–14 s on a machine busy with other tests.
    30_000,
  );

  it.each([
    ['en', 'Show more', 'Show less'],
    ['de', 'Mehr anzeigen', 'Weniger anzeigen'],
  ] as const)(
    'portal-spec §2 "Search" "Filters show \'show more/less\'": in %s, "show less" after "show more" goes back a preview step',
    async (lang, more, less) => {
      const loadMore = vi.fn<MoreFacetValues>(async (_field, offset) => valuesFrom(offset, 25));
      renderSidebar(valuesFrom(0, FACET_PAGE), loadMore, lang);
      const user = userEvent.setup();
      expect(screen.queryByRole('button', { name: less })).toBeNull();
      await user.click(screen.getByRole('button', { name: more }));
      expect(boxes()).toHaveLength(100);
      await user.click(screen.getByRole('button', { name: less }));
      expect(boxes()).toHaveLength(50);
      expect(boxes()[49]).toHaveAccessibleName(/word 049/);
      // At the first preview step there is nothing less to show, and more can be shown again.
      expect(screen.queryByRole('button', { name: less })).toBeNull();
      expect(screen.getByRole('button', { name: more })).toBeEnabled();
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
      <Texts i18n={i18n}>
        <FacetSidebar
          defs={facetDefs(config, [keywords])}
          answer={{ facetFields: { keywords: valuesFrom(0, 2) }, facetRanges: {} }}
          filters={[]}
          onChange={() => undefined}
          fields={[keywords]}
          lang={language}
          fallbackLang="en"
        />
      </Texts>,
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

describe('a date or size facet shown as checkboxes or radios writes its values by its format (portal-spec §3 "Facet config": filterVal)', () => {
  const day = Date.UTC(2024, 2, 5);
  /** The sidebar over these values (and a slider's bounds, `created` from `day` to four days later). */
  const sidebar = (defs: FacetDef[], language: 'en' | 'de') => {
    const i18n = new Translator({ language, fallbackLanguage: 'en', messages: defaultTranslations });
    render(
      <Texts i18n={i18n}>
        <FacetSidebar
          defs={defs}
          answer={{
            facetFields: {
              created: [{ value: String(day), count: 3 }],
              file_size: [{ value: '2345678', count: 1 }],
              category: [{ value: 'photo', label: 'Photography', count: 2 }],
            },
            facetRanges: { created: { min: day, max: day + 4 * 86_400_000 } },
          }}
          filters={[]}
          onChange={() => undefined}
          fields={[]}
          lang={language}
          fallbackLang="en"
        />
      </Texts>,
    );
  };
  const defs: FacetDef[] = [
    { field: 'created', kind: 'checkbox', format: 'date', range: 'date', preview: 10 },
    { field: 'file_size', kind: 'radio', format: 'filesize', range: 'filesize', preview: 10 },
    { field: 'category', kind: 'checkbox', format: 'date', range: 'date', preview: 10 },
  ];

  it.each([
    ['en', '3/5/24', '2.35 MB'],
    ['de', '05.03.24', '2,35 MB'],
  ] as const)(
    'in %s: dates as short dates, sizes readable; a value the index labels keeps its label',
    (language, date, size) => {
      sidebar(defs, language);
      expect(screen.getByRole('checkbox', { name: new RegExp(`^${date.replaceAll('.', '\\.')}`) })).toBeInTheDocument();
      expect(screen.getByRole('radio', { name: new RegExp(`^${size}`) })).toBeInTheDocument();
      expect(screen.getByRole('checkbox', { name: /^Photography/ })).toBeInTheDocument();
    },
  );

  it('writes date and time as date and time, not as a day', () => {
    sidebar([{ field: 'created', kind: 'checkbox', format: 'datetime', range: 'date', preview: 10 }], 'en');
    expect(screen.getByRole('checkbox', { name: /^3\/5\/24, \d/ })).toBeInTheDocument();
  });

  it.each([
    ['en', 'date', /^3\/5\/24 to 3\/9\/24$/],
    ['de', 'date', /^05\.03\.24 bis 09\.03\.24$/],
    ['en', 'datetime', /^3\/5\/24, \d.* to 3\/9\/24, \d/],
    ['de', 'datetime', /^05\.03\.24, \d.* bis 09\.03\.24, \d/],
  ] as const)('in %s, a slider of a %s facet writes its bounds by that format', (language, format, bounds) => {
    sidebar([{ field: 'created', kind: 'slider', format, range: 'date', preview: 10 }], language);
    expect(screen.getByText(bounds)).toBeInTheDocument();
  });

  it('takes the facet format from the search settings, else from the index field', () => {
    const created = field('created', { type: 'date', is_facet: true });
    const asChecks = (filterVal?: 'datetime' | 'none') => ({
      ...defaultGlobalConfig,
      facets: [
        facetConfigSchema.parse({ field_name: 'created', position: 0, options: { multivalue: 'checkbox', filterVal } }),
      ],
    });
    expect(facetDefs(asChecks(), [created])[0]?.format).toBe('date');
    expect(facetDefs(asChecks('datetime'), [created])[0]?.format).toBe('datetime');
    expect(facetDefs(asChecks('none'), [created])[0]?.format).toBe('none');
  });
});

describe('portal-spec §3 "Facet config": special facet display', () => {
  const sidebar = (language: 'en' | 'de') => {
    const i18n = new Translator({ language, fallbackLanguage: 'en', messages: defaultTranslations });
    render(
      <Texts i18n={i18n}>
        <FacetSidebar
          defs={[
            { field: 'color_code', kind: 'checkbox', format: 'none', range: 'other', preview: 10 },
            { field: 'rating', kind: 'checkbox', format: 'none', range: 'other', preview: 10 },
          ]}
          answer={{
            facetFields: {
              color_code: [
                { value: '1', count: 2 },
                { value: '5', count: 1 },
              ],
              rating: [{ value: '3', count: 4 }],
            },
            facetRanges: {},
          }}
          filters={[]}
          onChange={() => undefined}
          fields={[]}
          lang={language}
          fallbackLang="en"
        />
      </Texts>,
    );
  };
  /** The swatch drawn beside a colour value: the hidden span before its name. */
  const swatchOf = (name: RegExp) =>
    screen.getByRole('checkbox', { name }).closest('label')?.querySelector('span[aria-hidden="true"]:not(:has(*))');

  it.each([
    ['en', /^Red/, /^Blue/, '3 stars'],
    ['de', /^Rot/, /^Blau/, '3 Sterne'],
  ] as const)('in %s: color_code values as colour swatches, rating values as stars', (language, red, blue, stars) => {
    sidebar(language);
    expect(swatchOf(red)).toHaveStyle({ backgroundColor: '#d32f2f' });
    expect(swatchOf(blue)).toHaveStyle({ backgroundColor: '#1976d2' });
    const rating = screen.getByRole('img', { name: stars });
    expect(screen.getByRole('checkbox', { name: new RegExp(`^${stars}`) })).toBeInTheDocument();
    // Three filled stars, then the two empty ones of five in a colour of their own.
    const filled = rating.firstElementChild as HTMLElement;
    const empty = filled.lastElementChild as HTMLElement;
    expect(filled.firstChild?.textContent).toBe('★★★');
    expect(empty).toHaveTextContent(/^★★$/);
    expect(getComputedStyle(empty).color).not.toBe(getComputedStyle(filled).color);
  });
});
