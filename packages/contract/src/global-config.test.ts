import { describe, expect, it } from 'vitest';
import { defaultTranslations } from './translations.ts';
import {
  defaultGlobalConfig,
  facetConfigSchema,
  fillConfigDefaults,
  globalConfigModel,
  pickContentLanguage,
  pickTheme,
  themeColourKeys,
} from './global-config.ts';

describe('config defaults (admin-spec §9 "Business constants and limits", portal-spec §9)', () => {
  it('the defaults are a valid config', () => {
    expect(globalConfigModel.safeParse(defaultGlobalConfig).success).toBe(true);
  });

  it('carries the sizes the specs name', () => {
    const c = defaultGlobalConfig;
    expect(c.search.sidebar.width).toBe(260);
    expect(c.dashboard.heroImage.height).toBe(350);
    expect(c.dashboard.heroImage.logo.height).toBe(100);
    expect(c.dashboard.collections.height).toBe(250);
    expect(c.search.posters).toMatchObject({ min_height: 200, max_height: 250, border_width: 2 });
    expect(c.search.thumbnails).toMatchObject({ height: 330, width: 200 });
    expect(c.search.list.options).toEqual({ imageColWidth: 250, rowHeight: 200 });
    expect(c.login.box.max_width).toBe('40rem');
    expect(c.login.logoImage.height).toBe('8rem');
    expect(c.sorting.default).toBe('score');
    expect(c.sorting.orientation.default).toBe('desc');
    expect(c.sorting.options.map((o) => o.key)).toEqual(['score', 'rating', 'imp_date', 'obj_dload_cnt']);
    expect(c.search.views.options.map((o) => o.key)).toEqual(['grid', 'thumbnail', 'list']);
    expect(c.guide.tour).toHaveLength(12);
    expect(c.content_languages).toEqual(['de', 'en']);
    expect(c.fallback_locale).toBe('en');
  });

  it('has border widths of 2 for bookmark cards, thumbnails and posters (admin-spec §9, §3 "bookmark")', () => {
    const c = defaultGlobalConfig;
    expect(c.bookmark.options.border_width).toBe(2);
    expect(c.search.thumbnails.border_width).toBe(2);
    expect(c.search.posters.border_width).toBe(2);
    expect(c.dashboard.collections.poster_border_width).toBe(2);
    expect(c.infoView.options.border_width).toBe(2);
  });

  it('gives a facet preview 10, alphabetical ascending values and checkboxes (admin-spec §9)', () => {
    expect(facetConfigSchema.parse({ field_name: 'category', position: 0 })).toEqual({
      field_name: 'category',
      position: 0,
      range_facet: false,
      options: { preview: 10, sort: 'alphabetical', sort_orientation: 'asc', multivalue: 'checkbox' },
    });
    // Options given in part are filled the same way.
    expect(facetConfigSchema.parse({ field_name: 'category', position: 0, options: {} }).options).toEqual({
      preview: 10,
      sort: 'alphabetical',
      sort_orientation: 'asc',
      multivalue: 'checkbox',
    });
  });

  it('offers light, dark and classic themes with all 12 colours and an orange primary', () => {
    const themes = defaultGlobalConfig.themes.options;
    expect(themes.map((t) => t.key)).toEqual(['light', 'dark', 'classic']);
    for (const t of themes) expect(Object.keys(t.appearance).sort()).toEqual([...themeColourKeys].sort());
    for (const key of ['light', 'dark']) {
      const hex = themes.find((t) => t.key === key)?.appearance.primary ?? '';
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
      // Orange: red dominant, green in between, little blue.
      expect(r).toBeGreaterThan(g);
      expect(g).toBeGreaterThan(b);
    }
  });

  it('has the footer defaults privacy, terms, imprint and copyright', () => {
    expect(defaultGlobalConfig.footer.entries.map((e) => e.translation)).toEqual([
      'global.footer.privacy',
      'global.footer.terms',
      'global.footer.imprint',
      'global.footer.copyright',
    ]);
  });
});

describe('filling a stored config (admin-spec §4 "Config versioning and upgrade")', () => {
  it('fills keys missing from a stored config from the defaults', () => {
    const filled = fillConfigDefaults({
      global: { website_title: 'Archiv' },
      dashboard: { heroImage: { height: 500 } },
    });
    expect(filled.global).toEqual({ ...defaultGlobalConfig.global, website_title: 'Archiv' });
    expect(filled.dashboard.heroImage.height).toBe(500);
    expect(filled.dashboard.heroImage.logo).toEqual(defaultGlobalConfig.dashboard.heroImage.logo);
    expect(filled.search).toEqual(defaultGlobalConfig.search);
  });

  it('uses the defaults when nothing is stored', () => {
    expect(fillConfigDefaults(undefined)).toEqual(defaultGlobalConfig);
    expect(fillConfigDefaults('not an object')).toEqual(defaultGlobalConfig);
  });

  it('takes stored arrays as they are, so an admin can remove entries', () => {
    const filled = fillConfigDefaults({ footer: { entries: [] } });
    expect(filled.footer.entries).toEqual([]);
  });

  it("leaves out one entry of a list of the wrong shape and keeps the admin's other entries", () => {
    const filled = fillConfigDefaults({
      visibleLocales: [
        { lang: 'en', short: 'EN' },
        { lang: 'fr' },
        { lang: 'de', short: 'DE' },
        { lang: 'nl', short: 'NL' },
      ],
    });
    expect(filled.visibleLocales.map((l) => l.lang)).toEqual(['en', 'de', 'nl']);
  });

  it('gives a list left without its one needed entry the default list', () => {
    const filled = fillConfigDefaults({ visibleLocales: [{ lang: 'fr' }] });
    expect(filled.visibleLocales).toEqual(defaultGlobalConfig.visibleLocales);
  });

  it('replaces a value of the wrong shape by its default and keeps the rest', () => {
    const filled = fillConfigDefaults({
      search: { sidebar: { width: 'wide' } },
      global: { website_title: 'Archiv' },
    });
    expect(filled.search.sidebar.width).toBe(260);
    expect(filled.global.website_title).toBe('Archiv');
  });

  it('keeps keys the model does not know', () => {
    const filled = fillConfigDefaults({ global: { extra: 1 }, newer_feature: { on: true } });
    expect(filled.global).toMatchObject({ extra: 1 });
    expect(filled).toMatchObject({ newer_feature: { on: true } });
  });

  it('keeps stored pre-searches in the shape the search reads', () => {
    const data = [
      { key: 'nature', position: 0, search: { de: { text: 'Wald', facets: [{ key: 'format', values: ['jpeg'] }] } } },
    ];
    const filled = fillConfigDefaults({ dashboard: { collections: { data } } });
    expect(filled.dashboard.collections.data[0]).toEqual(data[0]);
    expect(filled.dashboard.collections.height).toBe(250);
  });
});

describe('theme and content language choice', () => {
  it('uses the default dark theme when the browser prefers dark and nothing was chosen', () => {
    expect(pickTheme(defaultGlobalConfig, null, true).key).toBe('dark');
    expect(pickTheme(defaultGlobalConfig, null, false).key).toBe('light');
    expect(pickTheme(defaultGlobalConfig, 'classic', false).key).toBe('classic');
  });

  it('ignores a chosen theme when theme selection is switched off', () => {
    const config = fillConfigDefaults({ themes: { show_theme_selection: false } });
    expect(pickTheme(config, 'classic', false).key).toBe('light');
  });

  it('uses the interface language as content language when offered, else the first', () => {
    expect(pickContentLanguage('en', ['de', 'en'])).toBe('en');
    expect(pickContentLanguage('fr', ['de', 'en'])).toBe('de');
  });

  it('uses the content language an interface language\'s translation set names when it is offered (admin-spec §3 "Translation set")', () => {
    expect(pickContentLanguage('fr', ['de', 'en'], 'en')).toBe('en');
    expect(pickContentLanguage('de', ['de', 'en'], 'en')).toBe('de');
    expect(pickContentLanguage('fr', ['de', 'en'], 'it')).toBe('de');
    expect(pickContentLanguage('fr', ['de', 'en'], 'Content language')).toBe('de');
  });

  it('names their own content language in the bundled sets, so a language made from a template shows content in its language', () => {
    expect(defaultTranslations.en.metadata).toMatchObject({ content_language: 'en' });
    expect(defaultTranslations.de.metadata).toMatchObject({ content_language: 'de' });
  });
});

describe('bundled texts (admin-spec §3 "Translation set")', () => {
  const keys = (set: object, prefix = ''): string[] =>
    Object.entries(set).flatMap(([k, v]) =>
      typeof v === 'string' ? [`${prefix}${k}`] : keys(v as object, `${prefix}${k}.`),
    );

  it('German and English have the same keys', () => {
    expect(keys(defaultTranslations.de).sort()).toEqual(keys(defaultTranslations.en).sort());
  });

  it('contain every text key the config defaults refer to', () => {
    const en = new Set(keys(defaultTranslations.en));
    const c = defaultGlobalConfig;
    const referenced = [
      ...c.footer.entries.map((e) => e.translation),
      ...c.search.views.options.map((o) => o.translation),
      ...c.sorting.options.map((o) => o.translation),
      ...c.themes.options.map((t) => t.translation),
      ...c.guide.tour.map((s) => s.translation),
      ...c.visibleLogos.map((l) => l.translation),
      c.dashboard.heroImage.trans_header,
      c.dashboard.heroImage.trans_body,
    ];
    expect(referenced.filter((k) => !en.has(k))).toEqual([]);
  });

  it('quote the spec texts', () => {
    expect(defaultTranslations.en).toMatchObject({
      views: { search: { tags: { error: expect.any(String) } } },
      toast: {
        login: { unauthorized: 'Account has no authorization' },
        download: { unauthorized: 'No downloads available' },
      },
    });
  });
});
