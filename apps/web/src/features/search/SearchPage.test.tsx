import { readFileSync } from 'node:fs';
import path from 'node:path';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BootData } from '@vitrine/contract/boot';
import { fillConfigDefaults } from '@vitrine/contract/global-config';
import type { AssetDoc, FacetSelection } from '@vitrine/contract/search';
import { resetSessionState } from '../../stores/session.ts';
import { toast } from '../../lib/toast.ts';
import { api, configHandlers, server, sessionAnswer } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { touch } from '../../test/touch.ts';
import { layOutResults } from '../../test/resultsLayout.ts';
import { indexField } from '../../test/indexField.ts';
import { firstSearchQuery } from './request.ts';
import { askEarly } from '../../lib/apiClient.ts';
import { carryBootData, removeBootData } from '../../test/bootData.ts';
import { searchCall } from '@vitrine/contract/endpoints';
import { configFileNames } from '@vitrine/contract/config-defaults';

layOutResults();
// The page's own style sheet (the test runner leaves imported CSS out), put into the document where
// a test looks at what it does.
const searchPageCss = readFileSync(
  path.join(path.dirname(new URL(import.meta.url).pathname), 'searchPage.css'),
  'utf8',
);
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const field = indexField;
/** The fields the default sort options sort by: a search is sorted only by fields of the index. */
const sortFields = [
  field('rating', 'Rating', { is_facet: false }),
  field('imp_date', 'Added', { is_facet: false }),
  field('obj_dload_cnt', 'Downloads', { is_facet: false }),
];

const catalogue: (AssetDoc & { category: string })[] = [
  { id: '1', title: 'Red car', category: 'Photography' },
  { id: '2', title: 'Blue boat', category: 'Photography' },
  { id: '3', title: 'Penguin', category: 'Graphics' },
  { id: '4', title: 'Teapot', category: '3D models' },
];

interface Asked {
  filter: FacetSelection[];
  sort: string | null;
  q: string | null;
}

/** A search server over the small catalogue above, counting categories like the real one. */
function network(options: { failures?: number } = {}) {
  const asked: Asked[] = [];
  let failures = options.failures ?? 0;
  server.use(
    http.get(api('index/fields'), () =>
      HttpResponse.json({
        visible_fields: [field('category', 'Category'), field('title', 'Title', { is_facet: false }), ...sortFields],
      }),
    ),
    http.get(api('search'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      const filter = JSON.parse(params.get('filter') ?? '[]') as FacetSelection[];
      asked.push({ filter, sort: params.get('solr_sort'), q: params.get('solr_q') });
      if (failures > 0) {
        failures--;
        return HttpResponse.json({ error: 'internal', message: 'Internal error' }, { status: 500 });
      }
      const cats = filter.find((f) => f.key === 'category')?.values;
      const docs = catalogue.filter((d) => !cats || cats.includes(d.category));
      const counts = new Map<string, number>();
      for (const d of catalogue) counts.set(d.category, (counts.get(d.category) ?? 0) + 1);
      return HttpResponse.json({
        response: { docs, numFound: docs.length, start: 0 },
        facetCounts: {
          facetFields: { category: [...counts].map(([value, count]) => ({ value, count })) },
          facetRanges: {},
        },
      });
    }),
  );
  return asked;
}

const result = (title: string) => screen.getByRole('button', { name: title });
/** The results are drawn in a transition once the results area's width is known. */
const drawn = (title: string) => screen.findByRole('button', { name: title });
/** The first render loads the lazy route and the config: allow it some time. */
const heading = (name: string | RegExp) => screen.findByRole('heading', { name }, { timeout: 15_000 });

/** The boot data a portal page carries for its first search: the defaults and two index fields. */
const firstPaintBoot = (): BootData => ({
  config: fillConfigDefaults({}),
  files: {} as BootData['files'],
  locales: ['de', 'en'],
  messages: {},
  fields: [field('category', 'Category'), field('title', 'Title', { is_facet: false }), ...sortFields],
});
describe('search page (portal-spec §2 "Search", §4 "Search")', { timeout: 40_000 }, () => {
  it.each([
    ['left', 'before'],
    ['center', 'before'],
    ['right', 'after'],
  ] as const)(
    'admin-spec §1 "search": a search logo aligned %s stands %s the search input',
    async (alignment, where) => {
      network();
      // The first handler of a list that matches answers: the files' answer goes before the config's.
      server.use(
        http.get(api('config'), () =>
          HttpResponse.json({ ...Object.fromEntries(configFileNames.map((n) => [n, false])), searchLogo: true }),
        ),
        ...configHandlers({ search: { logo: { alignment } } }),
      );
      await renderApp('/search/*');
      await heading('4 results');
      const logo = await screen.findByRole('img', { name: 'Logo of Vitrine' });
      const input = screen.getByRole('combobox', { name: 'Search' });
      const following = Boolean(logo.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING);
      expect(following ? 'before' : 'after').toBe(where);
      expect(logo.closest('.vt-search-head')).toHaveAttribute('data-logo-align', alignment);
      // The logo leads to the dashboard wherever it stands.
      expect(logo.closest('a')).toHaveAttribute('href', '/');
    },
  );

  it.each([
    ['left', '0px', 'normal'],
    ['center', '0px', 'center'],
    ['right', 'auto', 'normal'],
  ] as const)(
    'admin-spec §1 "search": by the page\'s style sheet a search logo aligned %s has the margin %s before it and is justified %s',
    async (alignment, marginLeft, justify) => {
      const sheet = document.createElement('style');
      sheet.textContent = searchPageCss;
      document.head.append(sheet);
      try {
        network();
        server.use(
          http.get(api('config'), () =>
            HttpResponse.json({ ...Object.fromEntries(configFileNames.map((n) => [n, false])), searchLogo: true }),
          ),
          ...configHandlers({ search: { logo: { alignment } } }),
        );
        await renderApp('/search/*');
        await heading('4 results');
        const box = (await screen.findByRole('img', { name: 'Logo of Vitrine' })).closest('.vt-search-logo-box');
        expect(box).not.toBeNull();
        const style = getComputedStyle(box!);
        expect(style.marginLeft || '0px').toBe(marginLeft);
        expect(style.justifyContent || 'normal').toBe(justify);
      } finally {
        sheet.remove();
      }
    },
  );

  it('§4 facet update: selecting a value adds it to the URL and the request, selecting again removes it', async () => {
    const asked = network();
    const { user, router } = await renderApp('/search/*');
    expect(await heading('4 results')).toBeInTheDocument();
    const facet = () => screen.getByRole('group', { name: 'Category' });
    await user.click(within(facet()).getByRole('checkbox', { name: /Photography/ }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('+category')).toBe('Photography'));
    expect(await heading('2 results')).toBeInTheDocument();
    expect(asked.at(-1)?.filter).toEqual([{ key: 'category', values: ['Photography'] }]);
    await user.click(within(facet()).getByRole('checkbox', { name: /Graphics/ }));
    await waitFor(() =>
      expect(new URLSearchParams(router.state.location.search).get('+category')).toBe('Photography,Graphics'),
    );
    await user.click(within(facet()).getByRole('checkbox', { name: /Photography/ }));
    await user.click(within(facet()).getByRole('checkbox', { name: /Graphics/ }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await heading('4 results')).toBeInTheDocument();
  });

  it('a chosen suggestion read back from the address shows its value as the portal names it (a colour code)', async () => {
    network();
    server.use(
      http.get(api('index/fields'), () =>
        HttpResponse.json({
          visible_fields: [
            field('category', 'Category'),
            field('color_code', 'Colour code', { is_facet: false }),
            field('title', 'Title', { is_facet: false }),
            ...sortFields,
          ],
        }),
      ),
    );
    await renderApp('/search/*?%2Bcolor_code=3');
    expect(await heading(/with Colour code: Yellow$/)).toBeInTheDocument();
    expect(await screen.findByText('Colour code: Yellow')).toBeInTheDocument();
    expect(screen.queryByText('Colour code: 3')).not.toBeInTheDocument();
  });

  it('a shared link restores the state: text, facet values and the reset button', async () => {
    const asked = network();
    const { user, router } = await renderApp('/search/boat?%2Bcategory=Photography');
    expect(await heading(/2 results for “boat”/)).toBeInTheDocument();
    expect(
      within(screen.getByRole('group', { name: 'Category' })).getByRole('checkbox', { name: /Photography/ }),
    ).toBeChecked();
    expect(asked[0]).toMatchObject({ q: 'boat', filter: [{ key: 'category', values: ['Photography'] }] });
    await user.click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/*'));
    expect(router.state.location.search).toBe('');
  });

  it('§4 sort: choosing the active key toggles the orientation, another key uses it', async () => {
    const asked = network();
    const { user } = await renderApp('/search/*');
    await heading('4 results');
    expect(asked.at(-1)?.sort).toBe('score desc');
    await user.click(screen.getByRole('button', { name: /^Sort by/ }));
    await user.click(screen.getByRole('menuitem', { name: /^Relevance/ }));
    await waitFor(() => expect(asked.at(-1)?.sort).toBe('score asc'));
    await user.click(screen.getByRole('button', { name: /^Sort by/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Rating' }));
    await waitFor(() => expect(asked.at(-1)?.sort).toBe('rating desc'));
  });

  it('§2 the chosen sort is kept in the route: leaving the page and coming back finds it, a new search starts from the default', async () => {
    const asked = network();
    const { user, router } = await renderApp('/search/*');
    await heading('4 results');
    await user.click(screen.getByRole('button', { name: /^Sort by/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Rating' }));
    await waitFor(() => expect(asked.at(-1)?.sort).toBe('rating desc'));
    const params = new URLSearchParams(router.state.location.search);
    expect([params.get('sort'), params.get('orientation')]).toEqual(['rating', 'desc']);
    await act(() => router.navigate('/bookmark'));
    await act(() => router.navigate(-1));
    await heading('4 results');
    expect(screen.getByRole('button', { name: /^Sort by/ })).toHaveTextContent('Sort by: Rating (Descending)');
    // Submitting a search rewrites the route from the text alone: the default sort again.
    await user.type(screen.getByRole('combobox', { name: /search/i }), 'penguin{Enter}');
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ q: 'penguin', sort: 'score desc' }));
  });

  it('§4 a route with a sort (the "More results" of a dashboard row) searches in it; an unknown key falls back to the default', async () => {
    const asked = network();
    await renderApp('/search/*?sort=rating&orientation=asc');
    await heading('4 results');
    expect(asked.at(-1)?.sort).toBe('rating asc');
    cleanup();
    await renderApp('/search/*?sort=nonsense&orientation=asc');
    await heading('4 results');
    expect(asked.at(-1)?.sort).toBe('score desc');
  });

  it('§3 "Facet config": a facet\'s value order from the search settings goes with the search and with its "show more" request (facet_sort)', async () => {
    network();
    const asked: URLSearchParams[] = [];
    const firstPage = Array.from({ length: 100 }, (_, i) => ({ value: `value ${i}`, count: 200 - i }));
    server.use(
      ...configHandlers({
        facets: [
          { field_name: 'category', position: 0, options: { preview: 100, sort: 'count', sort_orientation: 'desc' } },
        ],
      }),
      http.get(api('search'), ({ request }) => {
        const params = new URL(request.url).searchParams;
        asked.push(params);
        const further = Number(params.get('facet_offset') ?? 0) > 0;
        return HttpResponse.json({
          response: { docs: catalogue, numFound: catalogue.length, start: 0 },
          facetCounts: {
            facetFields: { category: further ? [{ value: 'value 100', count: 1 }] : firstPage },
            facetRanges: {},
          },
        });
      }),
    );
    const { user } = await renderApp('/search/*');
    await heading('4 results');
    expect(asked[0]?.getAll('facet_sort')).toEqual(['category:count:desc']);
    const facet = screen.getByRole('group', { name: 'Category' });
    await user.click(within(facet).getByRole('button', { name: 'Show more' }));
    expect(await within(facet).findByRole('checkbox', { name: /value 100/ })).toBeInTheDocument();
    const more = asked.at(-1);
    expect(more?.get('facet_offset')).toBe('100');
    expect(more?.getAll('facet_sort')).toEqual(['category:count:desc']);
  });

  it('§4 Active asset: Escape at once after a click closes the info panel, before it has taken the focus (§9: 350 ms)', async () => {
    network();
    const { user } = await renderApp('/search/*');
    await heading('4 results');
    await user.click(await drawn('Red car'));
    expect(screen.getByRole('region', { name: 'Details of Red car' })).not.toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Details of Red car' })).not.toBeInTheDocument();
  });

  it('§2 Views: the chosen view is kept in the tab, also when the page is opened again', async () => {
    network();
    const { user } = await renderApp('/search/*');
    await heading('4 results');
    await user.click(screen.getByRole('button', { name: 'List' }));
    expect(screen.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    cleanup();
    await renderApp('/search/boat');
    await heading(/results/);
    expect(screen.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Posters' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('§4 Selection and Active asset: click, ctrl click, shift click; the info panel opens and closes', async () => {
    network();
    const { user } = await renderApp('/search/*');
    await heading('4 results');
    await user.click(await drawn('Red car'));
    expect(result('Red car')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('region', { name: 'Details of Red car' })).toBeInTheDocument();
    // Clicking the active one again closes the panel.
    await user.click(result('Red car'));
    expect(screen.queryByRole('region', { name: 'Details of Red car' })).not.toBeInTheDocument();
    await user.keyboard('{Shift>}');
    await user.click(result('Penguin'));
    await user.keyboard('{/Shift}');
    expect(['Red car', 'Blue boat', 'Penguin'].map((t) => result(t).getAttribute('aria-pressed'))).toEqual([
      'true',
      'true',
      'true',
    ]);
    expect(screen.getByText('3 selected')).toBeInTheDocument();
    await user.keyboard('{Control>}');
    await user.click(result('Blue boat'));
    await user.keyboard('{/Control}');
    expect(result('Blue boat')).toHaveAttribute('aria-pressed', 'false');
    await user.click(result('Penguin'));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
  });

  it('§9 the configured border widths: a selected poster or thumbnail, the info panel', async () => {
    network();
    server.use(
      ...configHandlers({
        search: { posters: { border_width: 5 }, thumbnails: { border_width: 7 } },
        infoView: { options: { border_width: 6 } },
      }),
    );
    const { user } = await renderApp('/search/*');
    await heading('4 results');
    const results = screen.getByRole('region', { name: 'Results' });
    expect(results.getAttribute('data-view')).toBe('grid');
    expect(results.style.getPropertyValue('--vt-selected-width')).toBe('5px');
    await user.click(await drawn('Red car'));
    expect(getComputedStyle(screen.getByRole('region', { name: 'Details of Red car' })).borderTopWidth).toBe('6px');
    await user.click(screen.getByRole('button', { name: 'Thumbnails' }));
    await waitFor(() => expect(results.getAttribute('data-view')).toBe('thumbnail'));
    expect(results.style.getPropertyValue('--vt-selected-width')).toBe('7px');
  });

  it('admin-spec §1 "search": a thumbnail\'s caption is the header field the settings name; the item keeps its title', async () => {
    network();
    server.use(...configHandlers({ search: { thumbnails: { header: 'category' } } }));
    const { user } = await renderApp('/search/*');
    await heading('4 results');
    await user.click(screen.getByRole('button', { name: 'Thumbnails' }));
    const results = screen.getByRole('region', { name: 'Results' });
    await waitFor(() => expect(results.getAttribute('data-view')).toBe('thumbnail'));
    const teapot = await drawn('Teapot');
    expect(teapot.closest('.vt-item')?.querySelector('.vt-caption')).toHaveTextContent('3D models');
    expect([...results.querySelectorAll('.vt-caption')].map((c) => c.textContent)).toEqual([
      'Photography',
      'Photography',
      'Graphics',
      '3D models',
    ]);
  });

  it('§4 Selection on phones: a long press (500 ms, moving at most 10 px) toggles like ctrl click and opens nothing', async () => {
    network();
    const { user } = await renderApp('/search/*');
    await heading('4 results');
    // The item is selected while the finger still rests on it, and lifting it opens nothing.
    await touch(user, await drawn('Red car'), {
      whileHeld: () => expect(result('Red car')).toHaveAttribute('aria-pressed', 'true'),
    });
    expect(result('Red car')).toHaveAttribute('aria-pressed', 'true');
    expect(result('Red car')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: /^Details of/ })).not.toBeInTheDocument();
    // Announced as a click's selection is: in the selection's live region.
    const status = screen.getByText('1 selected');
    expect(status).toHaveAttribute('role', 'status');
    await touch(user, result('Penguin'));
    expect(status).toHaveTextContent('2 selected');
    await touch(user, result('Red car'));
    expect(result('Red car')).toHaveAttribute('aria-pressed', 'false');
    expect(status).toHaveTextContent('1 selected');

    // A finger that moves further than 10 px is scrolling: nothing is added.
    await touch(user, result('Blue boat'), {
      moveX: 11,
      whileHeld: () => {
        expect(result('Blue boat')).toHaveAttribute('aria-pressed', 'false');
        expect(status).toHaveTextContent('1 selected');
      },
    });
    // A short tap is a plain click: it replaces the selection and opens the info panel.
    await touch(user, result('Teapot'), { holdMs: 50 });
    expect(result('Teapot')).toHaveAttribute('aria-pressed', 'true');
    expect(result('Penguin')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('region', { name: 'Details of Teapot' })).toBeInTheDocument();
  });

  it('§4 a server 500 is retried twice, then the failure state offers a retry', async () => {
    const asked = network({ failures: 3 });
    const { user } = await renderApp('/search/*');
    expect(await screen.findByText('The search could not be completed.', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(asked).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await heading('4 results')).toBeInTheDocument();
  });

  it('§4 "Search": on a server 500 the index fields are asked again and a configured facet they no longer list is dropped from the retry', async () => {
    network();
    const searches: URLSearchParams[] = [];
    let fieldsAsked = 0;
    const retired = field('retired', 'Retired');
    server.use(
      ...configHandlers({
        facets: [
          { field_name: 'category', position: 0 },
          { field_name: 'retired', position: 1 },
        ],
      }),
      // The index drops the field between the first answer and the next: the 500 is what tells.
      http.get(api('index/fields'), () =>
        HttpResponse.json({
          visible_fields: [
            field('category', 'Category'),
            ...(fieldsAsked++ === 0 ? [retired] : []),
            field('title', 'Title', { is_facet: false }),
            ...sortFields,
          ],
        }),
      ),
      http.get(api('search'), ({ request }) => {
        const params = new URL(request.url).searchParams;
        searches.push(params);
        if (searches.length === 1) {
          return HttpResponse.json({ error: 'internal', message: 'Internal error' }, { status: 500 });
        }
        return HttpResponse.json({
          response: { docs: catalogue, numFound: catalogue.length, start: 0 },
          facetCounts: { facetFields: { category: [{ value: 'Photography', count: 2 }] }, facetRanges: {} },
        });
      }),
    );
    await renderApp('/search/*');
    expect(await heading('4 results')).toBeInTheDocument();
    expect(searches[0]?.getAll('solr_facetfields')).toEqual(['category', 'retired']);
    expect(fieldsAsked).toBe(2);
    expect(searches[1]?.getAll('solr_facetfields')).toEqual(['category']);
    expect(screen.queryByText('The search could not be completed.')).not.toBeInTheDocument();
  });
});

describe('the results heading counts in the visitor’s language (singular and plural)', { timeout: 40_000 }, () => {
  /** The catalogue searched by title (`*` finds all, a word the titles that contain it) and category. */
  function byTitle() {
    network();
    server.use(
      http.get(api('search'), ({ request }) => {
        const params = new URL(request.url).searchParams;
        const q = (params.get('solr_q') ?? '*').toLowerCase();
        const cats = (JSON.parse(params.get('filter') ?? '[]') as FacetSelection[]).find((f) => f.key === 'category');
        const docs = catalogue.filter(
          (d) =>
            (q === '*' || String(d.title).toLowerCase().includes(q)) && (!cats || cats.values.includes(d.category)),
        );
        return HttpResponse.json({
          response: { docs, numFound: docs.length, start: 0 },
          facetCounts: { facetFields: {}, facetRanges: {} },
        });
      }),
    );
  }

  it.each([
    {
      locale: 'en',
      texts: [
        '0 results for “zebra”',
        '1 result for “boat”',
        '4 results for “e”',
        '0 results',
        '1 result',
        '4 results',
      ],
    },
    {
      locale: 'de',
      texts: [
        '0 Ergebnisse für „zebra“',
        '1 Ergebnis für „boat“',
        '4 Ergebnisse für „e“',
        '0 Ergebnisse',
        '1 Ergebnis',
        '4 Ergebnisse',
      ],
    },
  ])(
    'in $locale: 0, 1 and many, with and without a search text in the language’s quotes',
    async ({ locale, texts }) => {
      byTitle();
      const { router } = await renderApp('/search/zebra', { locale });
      const routes = [
        '/search/zebra',
        '/search/boat',
        '/search/e',
        '/search/*?%2Bcategory=None',
        '/search/*?%2Bcategory=Graphics',
        '/search/*',
      ];
      for (const [i, route] of routes.entries()) {
        if (i > 0) await act(() => router.navigate(route));
        expect(await heading(texts[i] ?? '')).toBeInTheDocument();
      }
    },
  );
});

describe('a share link’s visitor on the search page (docs/security.md "Share links")', () => {
  // The session is the app's own state: each test starts from none.
  beforeEach(() => resetSessionState());
  afterEach(() => resetSessionState());

  function visiting(expiresAt: string | null) {
    let asked = 0;
    server.use(
      http.post(api('session/get'), () => HttpResponse.json(sessionAnswer({ session: 'visit', shareVisit: true }))),
      http.get(api('share/current'), () => {
        asked++;
        return HttpResponse.json({ title: 'For the press', assetIds: ['1', '2'], downloadSets: [0], expiresAt });
      }),
    );
    return () => asked;
  }

  it.each([
    ['en', 'You are looking at assets shared with you: For the press The link works until Dec 31, 2026.'],
    ['de', 'Sie sehen mit Ihnen geteilte Assets: For the press Der Link gilt bis 31.12.2026.'],
  ])('is told which link they look through and until when, in %s', async (locale, text) => {
    network();
    visiting('2026-12-31T12:00:00.000Z');
    await renderApp('/search/*', { locale });
    expect(await screen.findByText(text, {}, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('a link without expiry says nothing of one', async () => {
    network();
    visiting(null);
    await renderApp('/search/*');
    const notice = await screen.findByText(/^You are looking at assets shared with you/, {}, { timeout: 15_000 });
    expect(notice).toHaveTextContent(/^You are looking at assets shared with you: For the press$/);
  });

  it('a guest sees no notice, and the link is not asked for', async () => {
    network();
    const asked = visiting(null);
    server.use(http.post(api('session/get'), () => HttpResponse.json(sessionAnswer())));
    await renderApp('/search/*');
    expect(await heading('4 results')).toBeInTheDocument();
    expect(screen.queryByText(/shared with you/)).not.toBeInTheDocument();
    expect(asked()).toBe(0);
  });
});

describe(
  'a link to chosen assets (portal-spec §4 "Shared links": part_visible, none_visible)',
  { timeout: 40_000 },
  () => {
    beforeEach(() => resetSessionState());
    afterEach(() => {
      resetSessionState();
      sessionStorage.clear();
      act(() => toast.clear());
    });

    /** The search server answers only the asked ids that exist in the catalogue. */
    function byIds() {
      network();
      server.use(
        http.get(api('search'), ({ request }) => {
          const ids = (new URL(request.url).searchParams.get('id') ?? '').split(',');
          const docs = catalogue.filter((d) => ids.includes(d.id));
          return HttpResponse.json({
            response: { docs, numFound: docs.length, start: 0 },
            facetCounts: { facetFields: {}, facetRanges: {} },
          });
        }),
      );
    }

    it.each([
      ['en', 'Some of the shared assets are not visible to you.', '2 results'],
      ['de', 'Einige der geteilten Assets sind für Sie nicht sichtbar.', '2 Ergebnisse'],
    ])('says in %s that some are hidden, and shows the others', async (locale, text, count) => {
      byIds();
      await renderApp('/search/*?id=1,2,9', { locale });
      expect(await heading(count)).toBeInTheDocument();
      expect(await screen.findByText(text)).toBeInTheDocument();
    });

    it('sends a guest who may see none of them to log in, and the login comes back to the link', async () => {
      byIds();
      const { router } = await renderApp('/search/*?id=8,9');
      expect(
        await screen.findByText('None of the shared assets are visible to you.', {}, { timeout: 15_000 }),
      ).toBeInTheDocument();
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
      const { landingPath } = await import('../../stores/session.ts');
      expect(decodeURIComponent(landingPath(sessionAnswer({ user: 'ada' }), []))).toBe('/search/*?id=8,9');
      // Used once: a later login lands as usual.
      expect(landingPath(sessionAnswer({ user: 'ada' }), [])).toBe('/');
    });

    it('says nothing when all are visible, or when the visitor narrowed the link down', async () => {
      byIds();
      await renderApp('/search/*?id=1,2');
      expect(await heading('2 results')).toBeInTheDocument();
      expect(screen.queryByText(/shared assets/)).not.toBeInTheDocument();
    });
  },
);

describe("the search's first results asked for as the app starts (decision 0243)", { timeout: 40_000 }, () => {
  /** A call's query as the address writes it: each value of a list as a pair of its own, in order. */
  const pairsOf = (query: Record<string, unknown>) =>
    Object.entries(query)
      .flatMap(([key, value]) =>
        value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v) => [key, String(v)]),
      )
      .sort();

  it.each(['/search/*', '/search/boat?%2Bcategory=Photography&sort=rating&orientation=asc'])(
    'are the results the page asks for at %s',
    async (path) => {
      network();
      const searched: URL[] = [];
      const listen = ({ request }: { request: Request }) => {
        const url = new URL(request.url);
        if (url.pathname.endsWith('/search')) searched.push(url);
      };
      server.events.on('request:start', listen);
      await renderApp(path);
      expect(await heading(/results/)).toBeInTheDocument();
      server.events.removeListener('request:start', listen);
      const boot = firstPaintBoot();
      const query = firstSearchQuery(boot, `#${path}`, window);
      expect(query).toBeDefined();
      expect([...(searched[0]?.searchParams ?? [])].sort()).toEqual(pairsOf(query ?? {}));
    },
  );
});

describe("the page's first paint of a phone's results (decision 0244)", { timeout: 40_000 }, () => {
  afterEach(() => document.getElementById('vt-first-paint')?.remove());
  /** The page's first paint of the search page, as the page's script shows it (src/first-paint). */
  const firstPaint = () => {
    const shown = document.body.appendChild(document.createElement('div'));
    shown.id = 'vt-first-paint';
    shown.dataset.page = 'search';
    return () => document.getElementById('vt-first-paint');
  };

  it('stands until the results are drawn, and then gives them its place', async () => {
    network();
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get(api('search'), async () => {
        await answered;
        return HttpResponse.json({
          response: { docs: catalogue, numFound: catalogue.length, start: 0 },
          facetCounts: { facetFields: {}, facetRanges: {} },
        });
      }),
    );
    const shown = firstPaint();
    await renderApp('/search/*');
    // The page is there, its results not yet: the first paint, which shows them, stands.
    expect(await screen.findByRole('heading', { level: 1, name: 'Search' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(shown()).not.toBeNull();
    answer();
    await drawn('Red car');
    expect(shown()).toBeNull();
  });

  it('gives its place when the search finds nothing', async () => {
    server.use(
      http.get(api('index/fields'), () => HttpResponse.json({ visible_fields: [field('category', 'Category')] })),
      http.get(api('search'), () =>
        HttpResponse.json({
          response: { docs: [], numFound: 0, start: 0 },
          facetCounts: { facetFields: {}, facetRanges: {} },
        }),
      ),
    );
    const shown = firstPaint();
    await renderApp('/search/nothing');
    expect(await heading(/0 results/)).toBeInTheDocument();
    expect(shown()).toBeNull();
  });
});

describe('the first results asked for before the app ran (decision 0244)', { timeout: 40_000 }, () => {
  it('are drawn by the first render of the results, without a loading state in between, and not asked again', async () => {
    network();
    const searched: string[] = [];
    const listen = ({ request }: { request: Request }) => {
      if (new URL(request.url).pathname.endsWith('/search')) searched.push(request.url);
    };
    server.events.on('request:start', listen);
    // The page's script asked for the page's first results with the session's token, in its language.
    localStorage.setItem('token', 'token-of-the-session');
    const boot = firstPaintBoot();
    // The page carries the index fields, so the page knows its first request from the start.
    carryBootData(boot);
    const query = firstSearchQuery(boot, '#/search/*', window);
    if (!query) throw new Error('no first search');
    await askEarly(searchCall, { query }, { lang: 'en', token: 'token-of-the-session' });
    expect(searched).toHaveLength(1);
    // Every heading the results bar shows, from the page's first render on.
    const headings: string[] = [];
    const observer = new MutationObserver(() => {
      const text = document.querySelector('h2[data-tour="result"]')?.textContent;
      if (text && headings.at(-1) !== text) headings.push(text);
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    await renderApp('/search/*');
    await drawn('Red car');
    observer.disconnect();
    server.events.removeListener('request:start', listen);
    removeBootData();
    expect(headings).toEqual(['4 results']);
    expect(searched).toHaveLength(1);
  });
});
