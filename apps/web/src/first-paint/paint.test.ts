import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BootData } from '@vitrine/contract/boot';
import { configFileNames } from '@vitrine/contract/config-defaults';
import { fillConfigDefaults, type GlobalConfig } from '@vitrine/contract/global-config';
import type { AssetDoc, IndexField } from '@vitrine/contract/search';
import { defaultTranslations } from '@vitrine/contract/translations';
import type { FirstAnswers, SearchAnswer } from './earlyAnswers.ts';
import { firstSearch } from '../features/search/request.ts';
import { assetContent } from './asset.ts';
import { paintContext } from './context.ts';
import { paintFirstScreen } from './paint.ts';
import { paintsSearch, resultRowsMarkup, searchContent } from './search.ts';
import { screenFilesAt, startAfterPicture } from './start.ts';
import { indexField } from '../test/indexField.ts';
import { viewRows } from '../features/search/layout.ts';
import { viewSizesOf } from '../features/search/resultsBox.ts';

const field = (field_name: string, en: string, de: string, more: Partial<IndexField> = {}) =>
  indexField(field_name, en, { is_facet: false, default_labels: { en, de }, ...more });

function boot(change: (c: GlobalConfig) => void = () => undefined, files: Partial<BootData['files']> = {}): BootData {
  const config = fillConfigDefaults({});
  change(config);
  return {
    config,
    files: { ...Object.fromEntries(configFileNames.map((n) => [n, false])), ...files } as BootData['files'],
    locales: ['de', 'en'],
    messages: defaultTranslations,
    fields: [field('title', 'Title', 'Titel'), field('category', 'Category', 'Kategorie', { is_facet: true })],
  };
}

const photo = (id: string, more: Partial<AssetDoc> = {}): AssetDoc => ({
  id,
  title: `Photo ${id}`,
  url: `/media/thumb/${id}?exp=1&sig=x`,
  pixel_x: 4000,
  pixel_y: 3000,
  asset_groups: ['image'],
  ...more,
});

const answerOf = (docs: AssetDoc[], numFound = docs.length): SearchAnswer => ({
  response: { docs, numFound, start: 0 },
  facetCounts: { facetFields: {}, facetRanges: {} },
});

/** A phone's window (the facets in a drawer) or a wide one. */
const windowOf = (width: number, height = 800) => ({
  innerWidth: width,
  innerHeight: height,
  matchMedia: (query: string) => ({ matches: query.includes('max-width') && width < 900 }) as MediaQueryList,
});

afterEach(() => {
  document.body.innerHTML = '';
  localStorage.clear();
  sessionStorage.clear();
  vi.useRealTimers();
});

describe("the first paint's asset page (decision 0244)", () => {
  it('draws the back button, the title as the configured field gives it and the preview in its frame', () => {
    const en = paintContext(boot(), 'en');
    const html = assetContent(
      photo('7', { title: 'Harbour <at> night' }),
      { url: '/media/preview/7?sig=a', asset_groups: ['image'] },
      en,
    );
    expect(html).toContain('>Back</span>');
    expect(html).toContain('<h1 class="vt-heading-4">Harbour &lt;at&gt; night</h1>');
    // The asset's own proportion (4000 × 3000).
    expect(html).toContain(
      '<img class="vt-asset-frame" style="aspect-ratio:1.3333333333333333" src="/media/preview/7?sig=a"',
    );
    const de = paintContext(
      boot((c) => (c.assetInfo.title = 'filename')),
      'de',
    );
    const german = assetContent(
      photo('7', { filename: 'hafen.jpg' }),
      { url: '/media/preview/7', asset_groups: ['image'] },
      de,
    );
    expect(german).toContain('>Zurück</span>');
    expect(german).toContain('>hafen.jpg</h1>');
  });

  it('draws nothing without a preview, nor for a document with pages, whose page viewer asks for its own', () => {
    const ctx = paintContext(boot(), 'en');
    expect(assetContent(photo('7'), { asset_groups: ['image'] }, ctx)).toBeUndefined();
    const pdf = photo('8', { asset_groups: ['document'] });
    expect(
      assetContent(pdf, { url: '/media/preview/8', page_count: 3, asset_groups: ['document'] }, ctx),
    ).toBeUndefined();
    expect(assetContent(pdf, { url: '/media/preview/8', asset_groups: ['document'] }, ctx)).toContain(
      '/media/preview/8',
    );
  });
});

describe("the first paint's search page on a phone (decision 0244)", () => {
  const first = (hash: string, b: BootData = boot(), width = 375) => {
    const search = firstSearch(b, hash, windowOf(width));
    if (!search) throw new Error('no search');
    return search;
  };

  it('is drawn on a small screen for posters and thumbnails, not for the list, a wide screen, tags or suggestions', () => {
    const ctx = paintContext(boot(), 'en');
    expect(paintsSearch(first('#/search/*'), ctx)).toBe(true);
    expect(paintsSearch(first('#/search/*', boot(), 1350), ctx)).toBe(false);
    const thumbnails = boot((c) => (c.search.views.default = 'thumbnail'));
    expect(paintsSearch(first('#/search/*', thumbnails), ctx)).toBe(true);
    sessionStorage.setItem('vitrine.searchView', 'list');
    expect(paintsSearch(first('#/search/*'), ctx)).toBe(false);
    sessionStorage.clear();
    expect(paintsSearch(first('#/search/*?meta_collections=4'), ctx)).toBe(false);
    expect(paintsSearch(first('#/search/*?id=1,2'), ctx)).toBe(false);
    // A chosen colour is a tag, not words of the input or the heading.
    expect(paintsSearch(first('#/search/roses'), ctx)).toBe(true);
    expect(paintsSearch(first('#/search/roses%20colour:%23fbc02d'), ctx)).toBe(false);
    // So is the asset of a search of look-alikes.
    expect(paintsSearch(first('#/search/similar:42'), ctx)).toBe(false);
    // A filter of a field the index does not have is a tag; a field without a facet a suggestion.
    expect(paintsSearch(first('#/search/*?%2Bcategory=Photography'), ctx)).toBe(true);
    expect(paintsSearch(first('#/search/*?%2Btitle=Boat'), ctx)).toBe(false);
  });

  it('draws the heading, the bar and the filter button in the visitor’s language, with reset for a query', () => {
    const en = searchContent(first('#/search/*'), answerOf([], 102), paintContext(boot(), 'en'));
    expect(en).toContain('<h2 class="vt-heading-6">102 results</h2>');
    for (const label of ['Bookmark found assets', 'Share found assets', 'Download selection', 'Show filters'])
      expect(en).toContain(`${label}</span>`);
    expect(en).toMatch(/Sort by: Relevance \(Descending\)<\/span>/);
    expect(en).not.toContain('Reset');
    // Three views, the configured default chosen.
    expect(en.match(/<span(?: data-pressed="")?><svg/g)).toHaveLength(3);
    expect(en).toContain('<span data-pressed=""><svg');
    expect(en).toContain('<div class="vt-fp-input" data-empty=""><span>Search</span></div>');

    const de = searchContent(first('#/search/boot'), answerOf([], 1), paintContext(boot(), 'de'));
    expect(de).toMatch(/<h2 class="vt-heading-6">1 Ergebnis für „boot“<\/h2>/);
    expect(de).toContain('<div class="vt-fp-input"><span>boot</span></div>');
    expect(de).toContain('Filter zurücksetzen</span>');
    expect(de).toMatch(/<span class="vt-button vt-button-small">Gefundene Assets teilen/);
    // Nothing found: nothing to share or bookmark.
    const none = searchContent(first('#/search/boot'), answerOf([], 0), paintContext(boot(), 'de'));
    expect(none).toMatch(/<span class="vt-button vt-button-small" data-disabled="">Gefundene Assets teilen/);
    expect(none).toMatch(/<span class="vt-button" data-disabled="">Gefundene Assets merken/);
  });

  it('captions thumbnails with the header field the search settings name, as the results do', () => {
    const docs = [photo('1', { category: 'Graphics' })];
    const config = boot((c) => {
      c.search.views.default = 'thumbnail';
      c.search.thumbnails.header = 'category';
    });
    const html = resultRowsMarkup(
      first('#/search/*', config),
      docs,
      { width: 343, height: 562 },
      paintContext(config, 'en'),
    );
    expect(html).toContain('<span class="vt-caption">Graphics</span>');
  });

  it('admin-spec §3 "Config" search.thumbnails.body: draws the body fields under the header, at the height the results give the row', () => {
    const config = boot((c) => {
      c.search.views.default = 'thumbnail';
      c.search.thumbnails.header = 'category';
      c.search.thumbnails.body = [{ field_name: 'description' }, { field_name: 'creator' }];
    });
    const rowsOf = (docs: AssetDoc[], language: string) =>
      resultRowsMarkup(first('#/search/*', config), docs, { width: 343, height: 562 }, paintContext(config, language));
    // A localised field comes in the visitor's language (the server answers each language's value).
    const english = rowsOf([photo('1', { category: 'Graphics', description: 'A red car on a country road' })], 'en');
    expect(english).toContain(
      '<span class="vt-caption">Graphics</span><span class="vt-caption-line">A red car on a country road</span><span class="vt-caption-line"></span></div>',
    );
    const german = rowsOf([photo('1', { category: 'Grafik', description: 'Ein rotes Auto & ein Boot' })], 'de');
    expect(german).toContain(
      '<span class="vt-caption">Grafik</span><span class="vt-caption-line">Ein rotes Auto &amp; ein Boot</span><span class="vt-caption-line"></span></div>',
    );
    // 330 picture + 32 caption + 2 × 20 body lines, as the app's rows (layout.ts viewRows).
    expect(english).toContain('contain-intrinsic-size:auto 200px 402px');
    expect(viewRows('thumbnail', [photo('1')], 343, viewSizesOf(config.config.search))[0]?.height).toBe(402);

    const unset = boot((c) => {
      c.search.views.default = 'thumbnail';
    });
    const plain = resultRowsMarkup(
      first('#/search/*', unset),
      [photo('1', { description: 'A red car' })],
      { width: 343, height: 562 },
      paintContext(unset, 'en'),
    );
    expect(plain).not.toContain('vt-caption-line');
    expect(plain).toContain('contain-intrinsic-size:auto 200px 362px');
  });

  it('places the search logo as the search page does: before the input, or after it when aligned right', () => {
    const logoFirst = searchContent(
      first('#/search/*'),
      answerOf([], 1),
      paintContext(
        boot(() => undefined, { searchLogo: true }),
        'en',
      ),
    );
    expect(logoFirst).toMatch(
      /<div class="vt-search-head" data-logo-align="left"><div class="vt-search-logo-box"><img class="vt-search-logo"[^>]*><\/div><div class="vt-fp-input"/,
    );
    const right = searchContent(
      first('#/search/*'),
      answerOf([], 1),
      paintContext(
        boot((c) => (c.search.logo.alignment = 'right'), { searchLogo: true }),
        'en',
      ),
    );
    expect(right).toMatch(
      /<div class="vt-search-head" data-logo-align="right"><div class="vt-fp-input".*<\/div><div class="vt-search-logo-box"><img/,
    );
  });

  it('draws the rows in view as the result list lays them out, the first row fetched first', () => {
    const docs = Array.from({ length: 20 }, (_, i) => photo(String(i + 1)));
    const ctx = paintContext(boot(), 'en');
    // Posters of 4:3 at the largest height (250 px) in a 343 px area: one per row, 254 px apart.
    const html = resultRowsMarkup(first('#/search/*'), docs, { width: 343, height: 562 }, ctx);
    expect(html.match(/class="vt-row"/g)).toHaveLength(3);
    expect(html).toContain('<div class="vt-item" style="width:333px;contain-intrinsic-size:auto 333px 250px">');
    expect(html.match(/fetchpriority="high"/g)).toHaveLength(1);
    expect(html).toContain(
      'srcset="/media/thumb/1?exp=1&amp;sig=x&amp;w=400 333w, /media/thumb/1?exp=1&amp;sig=x&amp;w=800 667w" sizes="333px"',
    );
    // Thumbnails with their titles as captions.
    const thumbs = resultRowsMarkup(
      first(
        '#/search/*',
        boot((c) => (c.search.views.default = 'thumbnail')),
      ),
      docs,
      { width: 343, height: 300 },
      ctx,
    );
    expect(thumbs).toContain('<span class="vt-caption">Photo 1</span>');
    expect(thumbs.match(/class="vt-row"/g)?.length).toBeGreaterThan(0);
  });
});

describe('painting the first screen (decision 0244)', () => {
  /** The page as the server makes it: the templates (the hero optional) and the app's root. */
  function page(options: { hero?: boolean; locale?: string } = {}) {
    document.body.innerHTML = [
      '<div id="root"></div>',
      `<template id="vt-first-paint-template" data-locale="${options.locale ?? 'en'}"><div id="vt-first-paint" aria-hidden="true"><header><span class="vt-brand" data-title="Archive"><img src="/logo" alt=""></span></header><main class="vt-main"></main></div></template>`,
      options.hero === false
        ? ''
        : '<template id="vt-first-paint-hero"><div class="vt-hero"><img class="hero-image" src="/hero" alt=""></div></template>',
    ].join('');
  }
  const shown = () => document.getElementById('vt-first-paint');
  const english = () => {
    const b = boot();
    b.locales = ['en'];
    return b;
  };

  it('shows the dashboard’s hero at once, and asks for no answers before its picture', async () => {
    page();
    const ask = vi.fn<() => FirstAnswers | undefined>();
    const painted = paintFirstScreen(document, '#/', english(), ask);
    expect(shown()?.dataset.page).toBe('dashboard');
    expect(shown()?.querySelector('main .vt-hero')).not.toBeNull();
    expect((await painted?.picture)?.getAttribute('src')).toBe('/hero');
    expect(ask).not.toHaveBeenCalled();
  });

  it('shows the frame of an asset’s page at once and its preview once the answers have come', async () => {
    page();
    let answer: (value: Awaited<NonNullable<FirstAnswers['asset']>>) => void = () => undefined;
    const asset = new Promise<Awaited<NonNullable<FirstAnswers['asset']>>>((resolve) => (answer = resolve));
    const painted = paintFirstScreen(document, '#/asset/7', english(), () => ({
      session: Promise.resolve(undefined),
      asset,
    }));
    expect(shown()?.dataset.page).toBe('asset');
    expect(shown()?.querySelector('main')?.innerHTML).toBe('');
    // The header keeps its logo where the config shows it on the asset page.
    expect(shown()?.querySelector('.vt-brand img')).not.toBeNull();
    answer([{ response: { docs: [photo('7')] } }, { url: '/media/preview/7', asset_groups: ['image'] }]);
    expect((await painted?.picture)?.getAttribute('src')).toBe('/media/preview/7');
    expect(shown()?.querySelector('h1')?.textContent).toBe('Photo 7');
  });

  it('draws nothing into a first paint the app has ended already', async () => {
    page();
    let answer: (value: Awaited<NonNullable<FirstAnswers['asset']>>) => void = () => undefined;
    const asset = new Promise<Awaited<NonNullable<FirstAnswers['asset']>>>((resolve) => (answer = resolve));
    const painted = paintFirstScreen(document, '#/asset/7', english(), () => ({
      session: Promise.resolve(undefined),
      asset,
    }));
    shown()?.remove();
    answer([{ response: { docs: [photo('7')] } }, { url: '/media/preview/7', asset_groups: ['image'] }]);
    expect(await painted?.picture).toBeUndefined();
    expect(document.querySelector('h1')).toBeNull();
  });

  it("shows the website's title for a screen whose logos are switched off", () => {
    page();
    const b = english();
    b.config.visibleLogos = b.config.visibleLogos.map((l) => (l.key === 'asset' ? { ...l, visible: false } : l));
    paintFirstScreen(document, '#/asset/7', b, () => ({
      session: Promise.resolve(undefined),
      asset: new Promise(() => undefined),
    }));
    expect(shown()?.querySelector('.vt-brand')?.textContent).toBe('Archive');
  });

  it('paints nothing for a visitor who chose a theme or another language, for other screens, or without templates', () => {
    const ask = () => ({ session: Promise.resolve(undefined), asset: new Promise<never>(() => undefined) });
    page();
    localStorage.setItem('theme', 'dark');
    expect(paintFirstScreen(document, '#/asset/7', english(), ask)).toBeUndefined();
    localStorage.clear();
    localStorage.setItem('locale', 'de');
    expect(paintFirstScreen(document, '#/asset/7', boot(), ask)).toBeUndefined();
    localStorage.clear();
    expect(paintFirstScreen(document, '#/login', english(), ask)).toBeUndefined();
    expect(paintFirstScreen(document, '#/bookmark', english(), ask)).toBeUndefined();
    // The dashboard without its hero (hide_dashboard, or a text missing).
    page({ hero: false });
    expect(paintFirstScreen(document, '#/', english(), ask)).toBeUndefined();
    document.body.innerHTML = '<div id="root"></div>';
    expect(paintFirstScreen(document, '#/asset/7', english(), ask)).toBeUndefined();
    expect(shown()).toBeNull();
  });
});

describe("starting the app after the first paint's picture (decisions 0242, 0244)", () => {
  it('gives each address its screen’s files', () => {
    const screens = '/ ./d.js;/search ./a.js ./a.css;/asset ./b.js';
    expect(screenFilesAt('#/search/*', screens)).toEqual(['./a.js', './a.css']);
    expect(screenFilesAt('#/asset/7?x=1', screens)).toEqual(['./b.js']);
    expect(screenFilesAt('#/searching', screens)).toEqual([]);
    // The dashboard, with or without an address.
    expect(screenFilesAt('#/', screens)).toEqual(['./d.js']);
    expect(screenFilesAt('', screens)).toEqual(['./d.js']);
    expect(screenFilesAt('#/?x=1', screens)).toEqual(['./d.js']);
  });

  it('starts at once without a picture, after the picture has been drawn, and at the latest after the wait', async () => {
    vi.useFakeTimers();
    const start = vi.fn();
    startAfterPicture(undefined, start);
    expect(start).toHaveBeenCalledTimes(1);

    const late = vi.fn();
    const picture = document.createElement('img');
    Object.defineProperty(picture, 'complete', { value: false });
    startAfterPicture({ picture: Promise.resolve(picture), wait: 800 }, late);
    await vi.advanceTimersByTimeAsync(100);
    expect(late).not.toHaveBeenCalled();
    picture.dispatchEvent(new Event('load'));
    // After the frame that draws it.
    await vi.advanceTimersByTimeAsync(50);
    expect(late).toHaveBeenCalledTimes(1);

    const never = vi.fn();
    startAfterPicture({ picture: new Promise(() => undefined), wait: 1200 }, never);
    await vi.advanceTimersByTimeAsync(1199);
    expect(never).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(never).toHaveBeenCalledTimes(1);
    // Once only, whatever comes later.
    await vi.advanceTimersByTimeAsync(5000);
    expect(late).toHaveBeenCalledTimes(1);
  });
});
