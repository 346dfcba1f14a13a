import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BootData } from '@vitrine/contract/boot';
import { configFileNames, defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { fillConfigDefaults, globalConfigModel } from '@vitrine/contract/global-config';
import type { AssetDoc } from '@vitrine/contract/search';
import { defaultTranslations } from '@vitrine/contract/translations';
import { api, configHandlers, server } from '../test/msw.ts';
import { renderApp } from '../test/renderApp.tsx';
import { layOutResults } from '../test/resultsLayout.ts';
import { firstSearch } from '../features/search/request.ts';
import { assetContent } from '../first-paint/asset.ts';
import { paintContext } from '../first-paint/context.ts';
import { resultRowsMarkup } from '../first-paint/search.ts';
import { altText } from './assetText.ts';

layOutResults();
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** An asset whose alt field (title) and fallback field (filename) are both empty. */
const bare: AssetDoc = {
  id: 'a-17',
  url: '/media/thumb/a-17?exp=1&sig=x',
  title: '',
  filename: '',
  pixel_x: 400,
  pixel_y: 300,
  asset_groups: ['image'],
};

const accessibility = {
  assets: { alt: 'title', alt_fallback: { field_name: 'filename', options: { text: { en: 'Picture', de: 'Bild' } } } },
};
const assets = accessibility.assets;

describe(
  'admin-spec §3 "Config" accessibility.assets alt_fallback.options (decision 0267)',
  { timeout: 40_000 },
  () => {
    it('takes the alt field, then the fallback field, then the text in the content language, then the fallback locale, then the id', () => {
      expect(altText({ ...bare, title: 'Harbour', filename: 'h.jpg' }, assets, 'de', 'en')).toBe('Harbour');
      expect(altText({ ...bare, title: '  ', filename: 'h.jpg' }, assets, 'de', 'en')).toBe('h.jpg');
      expect(altText({ ...bare, title: ['Harbour', 'Night'] }, assets, 'de', 'en')).toBe('Harbour, Night');
      expect(altText(bare, assets, 'de', 'en')).toBe('Bild');
      expect(altText(bare, assets, 'fr', 'en')).toBe('Picture');
      const noText = { ...assets, alt_fallback: { field_name: '', options: {} } };
      expect(altText({ ...bare, filename: 'h.jpg' }, noText, 'de', 'en')).toBe('a-17');
    });

    it('keeps stored configs valid: options {} and unknown keys of older versions, and types the texts', () => {
      const withOptions = (options: unknown) => ({
        ...defaultGlobalConfig,
        accessibility: { assets: { alt: 'title', alt_fallback: { field_name: 'filename', options } } },
      });
      expect(globalConfigModel.safeParse(withOptions({})).success).toBe(true);
      expect(globalConfigModel.safeParse(withOptions({ legacy: 1 })).success).toBe(true);
      expect(globalConfigModel.safeParse(withOptions({ text: { de: 'Bild' } })).success).toBe(true);
      expect(globalConfigModel.safeParse(withOptions({ text: { de: 3 } })).success).toBe(false);
    });

    it.each([
      ['en', 'Picture'],
      ['de', 'Bild'],
    ])('the search page in %s says %s for a picture without a value in either field', async (locale, text) => {
      server.use(
        ...configHandlers({ accessibility }),
        http.get(api('index/fields'), () => HttpResponse.json({ visible_fields: [] })),
        http.get(api('search'), () =>
          HttpResponse.json({
            response: { docs: [bare], numFound: 1, start: 0 },
            facetCounts: { facetFields: {}, facetRanges: {} },
          }),
        ),
      );
      await renderApp('/search/*', { locale });
      expect(await screen.findByRole('img', { name: text }, { timeout: 15_000 })).toBeInTheDocument();
    });

    it.each([
      ['en', 'Picture'],
      ['de', 'Bild'],
    ])('the dashboard in %s says %s for a poster without a value in either field', async (locale, text) => {
      server.use(
        ...configHandlers({ accessibility }),
        http.get(api('collection'), () =>
          HttpResponse.json({ collections: [{ indicator: 'collection_1', label: 'One', position: 0 }] }),
        ),
        http.get(api('collection/get'), () => HttpResponse.json({ response: { docs: [bare], numFound: 1 } })),
      );
      await renderApp('/', { locale });
      expect(await screen.findByRole('img', { name: text }, { timeout: 15_000 })).toBeInTheDocument();
    });

    it.each([
      ['en', 'Picture'],
      ['de', 'Bild'],
    ])('the asset page in %s says %s for a preview without a value in either field', async (locale, text) => {
      server.use(
        ...configHandlers({ accessibility }),
        http.get(api('assets'), () => HttpResponse.json({ response: { docs: [bare] } })),
        http.get(api('index/fields'), () => HttpResponse.json({ visible_fields: [] })),
        http.get(api('download/preview'), () =>
          HttpResponse.json({ url: '/media/preview/a-17?exp=1&sig=x', asset_groups: ['image'] }),
        ),
        http.get(api('session/csets'), () => HttpResponse.json({ convert_sets: [] })),
      );
      await renderApp('/asset/a-17', { locale });
      expect(await screen.findByRole('img', { name: text }, { timeout: 15_000 })).toBeInTheDocument();
    });

    it('the first paint of the search and the asset page says what the app says, in the visitor’s language', () => {
      const config = fillConfigDefaults({ accessibility });
      const boot: BootData = {
        config,
        files: Object.fromEntries(configFileNames.map((n) => [n, false])) as BootData['files'],
        locales: ['de', 'en'],
        messages: defaultTranslations,
        fields: [],
      };
      const screenOf = { innerWidth: 375, innerHeight: 800, matchMedia: () => ({ matches: true }) as MediaQueryList };
      const first = firstSearch(boot, '#/search/*', screenOf);
      if (!first) throw new Error('no first search');
      for (const [lang, text] of [
        ['en', 'Picture'],
        ['de', 'Bild'],
      ] as const) {
        const ctx = paintContext(boot, lang);
        expect(resultRowsMarkup(first, [bare], { width: 343, height: 562 }, ctx)).toContain(`alt="${text}"`);
        const preview = { url: '/media/preview/a-17', asset_groups: ['image'] };
        expect(assetContent(bare, preview, ctx)).toContain(`alt="${text}"`);
      }
    });
  },
);
