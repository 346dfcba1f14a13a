import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fillConfigDefaults } from '@vitrine/contract/global-config';
import type { AssetDoc } from '@vitrine/contract/search';
import { api, configHandlers, server } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { layOutResults } from '../../test/resultsLayout.ts';
import { indexField } from '../../test/indexField.ts';
import { viewRows } from './layout.ts';
import { viewSizesOf } from './resultsBox.ts';

layOutResults();
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A localised field's values: the server answers each in the caller's language (Accept-Language). */
const descriptions: Record<string, Record<string, string>> = {
  en: { '1': 'A red car on a country road', '2': 'A blue boat in the harbour' },
  de: { '1': 'Ein rotes Auto auf einer Landstraße', '2': 'Ein blaues Boot im Hafen' },
};

function network() {
  server.use(
    http.get(api('index/fields'), () =>
      HttpResponse.json({
        visible_fields: [
          indexField('title', 'Title', { is_facet: false }),
          indexField('description', 'Description', { is_facet: false }),
          indexField('file_size', 'File size', { is_facet: false, type: 'int', options: { filterVal: 'filesize' } }),
          indexField('imp_date', 'Added', { is_facet: false }),
        ],
      }),
    ),
    http.get(api('search'), ({ request }) => {
      const lang = (request.headers.get('accept-language') ?? 'en').slice(0, 2);
      const docs: AssetDoc[] = [
        { id: '1', title: 'Red car', description: descriptions[lang]?.['1'], file_size: 2_500_000 },
        // No description: its line stays, empty, so every thumbnail of the grid is as high.
        { id: '2', title: 'Blue boat', file_size: 1_200 },
      ];
      return HttpResponse.json({
        response: { docs, numFound: docs.length, start: 0 },
        facetCounts: { facetFields: {}, facetRanges: {} },
      });
    }),
  );
}

const thumbnails = (body: { field_name: string }[]) => ({
  search: { views: { default: 'thumbnail' }, thumbnails: { header: 'title', body } },
});

/** Each drawn thumbnail's text under its picture: the caption, then its body's lines. */
async function captions(): Promise<string[][]> {
  const results = await screen.findByRole('region', { name: /Results|Ergebnisse/ }, { timeout: 15_000 });
  await waitFor(() => expect(results.querySelectorAll('.vt-item')).toHaveLength(2), { timeout: 15_000 });
  return [...results.querySelectorAll('.vt-item-button')].map((b) =>
    [...b.querySelectorAll('.vt-caption, .vt-caption-line')].map((s) => s.textContent ?? ''),
  );
}

describe('admin-spec §3 "Config" search.thumbnails.body: the thumbnail view draws the body fields under the header', () => {
  it("draws a line per body field in the visitor's language (English), empty where the asset has no value", async () => {
    network();
    server.use(...configHandlers(thumbnails([{ field_name: 'description' }, { field_name: 'file_size' }])));
    await renderApp('/search/*');
    // The first screen of the file loads its code cold: on a busy machine that alone takes seconds.
    await waitFor(
      async () =>
        expect(await captions()).toEqual([
          ['Red car', 'A red car on a country road', '2.5 MB'],
          ['Blue boat', '', '1.2 kB'],
        ]),
      { timeout: 15_000 },
    );
    // The grid's rows make room for the body: 330 picture + 32 caption + 2 × 20 body lines.
    const item = document.querySelector<HTMLElement>('.vt-item')!;
    expect(item.style.containIntrinsicSize).toBe('auto 200px 402px');
    // As the virtual list estimates its rows before it measures them, and the first paint places them.
    const config = fillConfigDefaults(thumbnails([{ field_name: 'description' }, { field_name: 'file_size' }]));
    expect(viewRows('thumbnail', [{ id: '1' }], 1000, viewSizesOf(config.search))[0]?.height).toBe(402);
  });

  it('draws the German value of the localised field for a German visitor', async () => {
    network();
    server.use(...configHandlers(thumbnails([{ field_name: 'description' }])));
    await renderApp('/search/*', { locale: 'de' });
    await waitFor(async () =>
      expect(await captions()).toEqual([
        ['Red car', 'Ein rotes Auto auf einer Landstraße'],
        ['Blue boat', ''],
      ]),
    );
  });

  it("draws no body when the settings name no body field, and the rows keep the caption's height only", async () => {
    network();
    server.use(...configHandlers(thumbnails([])));
    await renderApp('/search/*');
    await waitFor(async () => expect(await captions()).toEqual([['Red car'], ['Blue boat']]));
    expect(document.querySelector<HTMLElement>('.vt-item')!.style.containIntrinsicSize).toBe('auto 200px 362px');
  });
});

describe('admin-spec §3 "Config" search.thumbnails.icon_hover: thumbnails show their icons on hover or focus only', () => {
  const results = () => screen.findByRole('region', { name: 'Results' }, { timeout: 15_000 });

  it('marks the thumbnail view for it, so the icon sets hide until pointed at or focused', async () => {
    network();
    server.use(...configHandlers({ search: { views: { default: 'thumbnail' }, thumbnails: { icon_hover: true } } }));
    await renderApp('/search/*');
    const region = await results();
    await waitFor(() => expect(region.querySelectorAll('.vt-iconset')).toHaveLength(2));
    expect(region).toHaveAttribute('data-icons-on-hover');
  });

  it('leaves the icons shown when off', async () => {
    network();
    server.use(...configHandlers({ search: { views: { default: 'thumbnail' }, thumbnails: { icon_hover: false } } }));
    await renderApp('/search/*');
    const region = await results();
    await waitFor(() => expect(region.querySelectorAll('.vt-iconset')).toHaveLength(2));
    expect(region).not.toHaveAttribute('data-icons-on-hover');
  });

  it('leaves the poster view as it is whatever it says', async () => {
    network();
    server.use(...configHandlers({ search: { views: { default: 'grid' }, thumbnails: { icon_hover: true } } }));
    await renderApp('/search/*');
    const region = await results();
    await waitFor(() => expect(region.querySelectorAll('.vt-iconset')).toHaveLength(2));
    expect(region.getAttribute('data-view')).toBe('grid');
    expect(region).not.toHaveAttribute('data-icons-on-hover');
  });
});
