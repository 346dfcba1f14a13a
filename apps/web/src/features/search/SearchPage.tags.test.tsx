import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { routePath } from '@vitrine/contract/paths';
import type { AssetDoc } from '@vitrine/contract/search';
import { api, configHandlers, server } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { layOutResults } from '../../test/resultsLayout.ts';
import { indexField } from '../../test/indexField.ts';
import { startTestServer } from '../../test/testServer.ts';

layOutResults();
startTestServer(server, 'bypass');

const catalogue: AssetDoc[] = [
  { id: '11', title: 'Red car' },
  { id: '12', title: 'Blue boat' },
];

/** A search over two assets in DAM collection 4, "Harbour photos"; the search calls it got. */
function portal() {
  const asked: URL[] = [];
  server.use(
    http.get(api('index/fields'), () =>
      HttpResponse.json({ visible_fields: [indexField('title', 'Title', { is_facet: false })] }),
    ),
    http.get(api('search'), ({ request }) => {
      asked.push(new URL(request.url));
      return HttpResponse.json({
        response: { docs: catalogue, numFound: catalogue.length, start: 0 },
        facetCounts: {
          facetFields: { meta_collections: [{ value: '4', label: 'Harbour photos', count: 2 }] },
          facetRanges: {},
        },
      });
    }),
    http.get(api('config/bookmarks'), () => HttpResponse.json([])),
    ...configHandlers({}),
  );
  return asked;
}

// A range filter on a field the index does not have, a DAM collection and shared asset ids.
const path = routePath({
  page: 'search',
  fields: [{ name: 'gone_field', values: ['1 TO 5'] }],
  collection: '4',
  ids: ['11', '12'],
});

describe(
  'portal-spec §2 "Search": filter tags for an unknown filter, a collection and asset ids',
  { timeout: 40_000 },
  () => {
    it.each([
      {
        locale: 'en',
        error: 'Remove filter Unknown filter: gone_field: 1 TO 5',
        collection: 'Remove filter Collection: Harbour photos',
        ids: 'Remove filter Asset ID: 11, 12',
      },
      {
        locale: 'de',
        error: 'Filter Unbekannter Filter: gone_field: 1 TO 5 entfernen',
        collection: 'Filter Sammlung: Harbour photos entfernen',
        ids: 'Filter Asset-ID: 11, 12 entfernen',
      },
    ])('in $locale: each is shown with its value, and removing one drops it from the route alone', async (want) => {
      portal();
      const { router, user } = await renderApp(path, { locale: want.locale });
      // The route's tags come at once; the unknown filter once the index fields are known, the
      // collection's name once the search has answered.
      const ids = await screen.findByRole('button', { name: want.ids }, { timeout: 15_000 });
      const error = await screen.findByRole('button', { name: want.error }, { timeout: 15_000 });
      expect(await screen.findByRole('button', { name: want.collection }, { timeout: 15_000 })).toBeInTheDocument();

      // A chip is removed by the keyboard (Backspace) as by its delete icon.
      error.focus();
      await user.keyboard('{Backspace}');
      await waitFor(() => expect(router.state.location.search).not.toContain('gone_field'));
      expect(router.state.location.search).toContain('meta_collections=4');
      expect(router.state.location.search).toMatch(/id=11(,|%2C)12/);
      expect(screen.queryByRole('button', { name: want.error })).not.toBeInTheDocument();

      (await screen.findByRole('button', { name: want.collection })).focus();
      await user.keyboard('{Backspace}');
      await waitFor(() => expect(router.state.location.search).not.toContain('meta_collections'));
      expect(ids).toBeInTheDocument();

      (await screen.findByRole('button', { name: want.ids })).focus();
      await user.keyboard('{Backspace}');
      await waitFor(() => expect(screen.queryByRole('button', { name: want.ids })).not.toBeInTheDocument());
      expect(router.state.location.search).toBe('');
    });

    it('asks the search for the collection and the ids the tags name', async () => {
      const asked = portal();
      await renderApp(path);
      await screen.findByRole('button', { name: 'Remove filter Asset ID: 11, 12' }, { timeout: 15_000 });
      await waitFor(() => expect(asked.length).toBeGreaterThan(0));
      const query = asked.at(-1)!.searchParams;
      expect(query.get('meta_collections')).toBe('4');
      expect(query.get('id')).toBe('11,12');
    });
  },
);

describe(
  'portal-spec §3 "Facet config" filterVal: a date facet shown as checkboxes on the search page',
  { timeout: 40_000 },
  () => {
    const day = Date.UTC(2024, 2, 5);

    it.each([
      { locale: 'en', date: /^3\/5\/24/ },
      { locale: 'de', date: /^05\.03\.24/ },
    ])(
      'in $locale: the value chosen in the route is a ticked checkbox named by its date, not its number',
      async ({ locale, date }) => {
        server.use(
          http.get(api('index/fields'), () =>
            HttpResponse.json({
              visible_fields: [
                indexField('title', 'Title', { is_facet: false }),
                indexField('created', 'Created', { type: 'date', default_labels: { en: 'Created', de: 'Erstellt' } }),
              ],
            }),
          ),
          http.get(api('search'), () =>
            HttpResponse.json({
              response: { docs: catalogue, numFound: catalogue.length, start: 0 },
              facetCounts: { facetFields: { created: [{ value: String(day), count: 2 }] }, facetRanges: {} },
            }),
          ),
          http.get(api('config/bookmarks'), () => HttpResponse.json([])),
          ...configHandlers({}),
        );
        await renderApp(routePath({ page: 'search', fields: [{ name: 'created', values: [String(day)] }] }), {
          locale,
        });
        expect(await screen.findByRole('checkbox', { name: date }, { timeout: 15_000 })).toBeChecked();
        expect(screen.queryByRole('checkbox', { name: new RegExp(`^${day}`) })).not.toBeInTheDocument();
      },
    );
  },
);
