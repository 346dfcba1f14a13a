import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configFileNames } from '@vitrine/contract/config-defaults';
import type { Collection } from '@vitrine/contract/collection';
import { api, configHandlers, server } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { expectSizedPicture } from '../../test/pictures.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const collections: Collection[] = [
  { indicator: 'collection_3', label: 'Landscapes', position: 1, src: '17' },
  {
    indicator: 'forest',
    label: 'forest',
    translation: 'views.dashboard.collections',
    position: 0,
    search: { en: { text: 'tree', facets: [{ key: 'format', values: ['jpeg', 'png'] }] } },
    sort: 'imp_date',
    orientation: 'asc',
  },
  { indicator: 'collection_9', label: 'Empty', position: 2 },
  { indicator: 'collection_10', label: 'Broken', position: 3 },
];

const docs = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: String(100 + i),
    url: `/media/thumb/${100 + i}?exp=1&sig=x`,
    pixel_x: 400,
    pixel_y: 300,
    title: `Asset ${i}`,
  }));

function catalogue() {
  const requested: string[] = [];
  server.use(
    http.get(api('collection'), () => HttpResponse.json({ collections })),
    http.get(api('collection/get'), ({ request }) => {
      const url = new URL(request.url);
      const id = url.searchParams.get('collection') ?? '';
      requested.push(`${id}:${url.searchParams.get('rows')}`);
      if (id === 'collection_10') return HttpResponse.json({ error: 'internal', message: 'x' }, { status: 500 });
      const n = id === 'collection_9' ? 0 : id === 'forest' ? 2 : 3;
      return HttpResponse.json({ response: { docs: docs(n), numFound: n * 10 } });
    }),
  );
  return requested;
}

describe('dashboard (portal-spec §2 "Dashboard")', () => {
  it('shows the hero with the configured height and texts and the search input', async () => {
    server.use(...configHandlers({ dashboard: { heroImage: { height: 420 } } }));
    catalogue();
    await renderApp('/');
    const hero = await screen.findByTestId('dashboard-hero');
    expect(hero).toHaveStyle({ minHeight: '420px' });
    expect(within(hero).getByText('Find your media')).toBeInTheDocument();
    expect(within(hero).getByRole('combobox', { name: 'Search' })).toBeInTheDocument();
  });

  it("takes the place of the page's first paint once its hero is drawn (decision 0242)", async () => {
    catalogue();
    const firstPaint = document.body.appendChild(document.createElement('div'));
    firstPaint.id = 'vt-first-paint';
    firstPaint.dataset.page = 'dashboard';
    await renderApp('/');
    await screen.findByTestId('dashboard-hero');
    expect(document.getElementById('vt-first-paint')).toBeNull();
  });

  it('shows collections in their order as poster rows of 20 rows; More results of a pre-search keeps its sort', async () => {
    const requested = catalogue();
    await renderApp('/');
    const rows = await screen.findAllByRole('region');
    expect(rows.map((r) => within(r).getByRole('heading', { level: 2 }).textContent)).toEqual([
      'Collections',
      'Landscapes',
      'Empty',
      'Broken',
    ]);
    const landscapes = screen.getByRole('region', { name: 'Landscapes' });
    const images = await within(landscapes).findAllByRole('img');
    expect(images.map((i) => i.getAttribute('alt'))).toEqual(['Asset 0', 'Asset 1', 'Asset 2']);
    expect(images[0]).toHaveAttribute('src', '/media/thumb/100?exp=1&sig=x');
    // Drawn 250 px high (the default) at 4:3: 333 px wide. The thumbnails of a 400 × 300 picture are
    // 333 px wide (the 400 × 250 box) and 400 (no thumbnail is larger than its picture). Only the
    // first row's posters are fetched at once and first.
    const srcset = (id: number) =>
      `/media/thumb/${id}?exp=1&sig=x&w=400 333w, /media/thumb/${id}?exp=1&sig=x&w=800 400w`;
    expectSizedPicture(images[0], { srcset: srcset(100), sizes: '333px', first: false });
    expect(images[0]).toHaveAttribute('loading', 'lazy');
    expect(images[0]).toHaveAttribute('width', '333');
    expect(images[0]).toHaveAttribute('height', '250');
    const firstRow = await within(screen.getByRole('region', { name: 'Collections' })).findAllByRole('img');
    firstRow.forEach((img, i) => expectSizedPicture(img, { srcset: srcset(100 + i), sizes: '333px', first: true }));
    expect(within(landscapes).getByRole('link', { name: 'More results of Landscapes' })).toHaveAttribute(
      'href',
      '/search/*?meta_collections=3',
    );
    const preSearch = screen.getByRole('region', { name: 'Collections' });
    await waitFor(() =>
      expect(within(preSearch).getByRole('link', { name: /^More results/ })).toHaveAttribute(
        'href',
        '/search/tree?%2Bformat=jpeg,png&sort=imp_date&orientation=asc',
      ),
    );
    expect(requested).toContain('collection_3:20');
  });

  it('admin-spec §3 dashboard.collections.poster_border_width: a set width borders each dashboard poster', async () => {
    server.use(...configHandlers({ dashboard: { collections: { poster_border_width: 6 } } }));
    catalogue();
    await renderApp('/');
    const landscapes = await screen.findByRole('region', { name: 'Landscapes' });
    const posters = await within(landscapes).findAllByRole('img');
    for (const poster of posters) expect(poster.closest('a')).toHaveStyle({ borderWidth: '6px' });
  });

  it('says a collection is empty, and counts one that fails to load as empty', async () => {
    catalogue();
    await renderApp('/');
    for (const name of ['Empty', 'Broken']) {
      const row = await screen.findByRole('region', { name });
      expect(await within(row).findByText('No assets in this collection.')).toBeInTheDocument();
      expect(within(row).queryByRole('link', { name: /More results/ })).not.toBeInTheDocument();
    }
  });

  it('hides empty and failing collections when hide_empty_result is set', async () => {
    server.use(...configHandlers({ dashboard: { collections: { hide_empty_result: true } } }));
    catalogue();
    await renderApp('/');
    await screen.findByRole('region', { name: 'Landscapes' });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Broken' })).not.toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Empty' })).not.toBeInTheDocument();
  });

  it('shows tiles with the thumbnail call image when configured', async () => {
    server.use(...configHandlers({ dashboard: { collections: { show_as_tiles: true } } }));
    catalogue();
    await renderApp('/');
    const tile = await screen.findByRole('link', { name: 'Landscapes' });
    expect(tile).toHaveAttribute('href', '/search/*?meta_collections=3');
    const image = tile.querySelector('img');
    expect(image).toHaveAttribute('src', '/assetportal/api/config/thumbnail?id=17');
    expectSizedPicture(image, {
      srcset: '/assetportal/api/config/thumbnail?id=17&w=400 400w, /assetportal/api/config/thumbnail?id=17&w=800 800w',
      sizes: '(max-width: 440px) 100vw, 400px',
      first: true,
    });
    expect(screen.getByRole('link', { name: 'Empty' })).toBeInTheDocument();
  });

  it('admin-spec §9 "Tile maximum size 400 by 300": a tile is never higher than 300 nor wider than 400', async () => {
    server.use(...configHandlers({ dashboard: { collections: { show_as_tiles: true, height: 600 } } }));
    catalogue();
    await renderApp('/');
    const tiles = await screen.findAllByRole('link', { name: /Landscapes|Empty/ });
    for (const tile of tiles) {
      const style = getComputedStyle(tile);
      expect(style.maxHeight).toBe('300px');
      expect(style.maxWidth).toBe('400px');
      expect(style.aspectRatio.replace(/ /g, '')).toBe('400/300');
    }
    // The grid's columns grow to 400 at most, however wide the page.
    const grid = tiles[0]!.closest('ul')!;
    expect(getComputedStyle(grid).gridTemplateColumns).toBe('repeat(auto-fill, minmax(min(100%, 240px), 400px))');
  });

  it('shows the uploaded hero image and dashboard logo unless the logo is switched off', async () => {
    const files = (logo: boolean) =>
      http.get(api('config'), () =>
        HttpResponse.json({
          ...Object.fromEntries(configFileNames.map((n) => [n, false])),
          dashboardHero: true,
          dashboardLogo: logo,
        }),
      );
    server.use(files(true));
    catalogue();
    await renderApp('/');
    const hero = await screen.findByTestId('dashboard-hero');
    await waitFor(() =>
      expect(hero.querySelector('img[alt=""]')).toHaveAttribute('src', '/assetportal/api/config/dashboardHero'),
    );
    // In the width of the screen, fetched first and never late.
    expectSizedPicture(hero.querySelector('img[alt=""]'), {
      srcset: [640, 1080, 1600, 2400].map((w) => `/assetportal/api/config/dashboardHero?w=${w} ${w}w`).join(', '),
      sizes: '100vw',
      first: true,
    });
    expect(within(hero).getByRole('img', { name: 'Logo of Vitrine' })).toHaveAttribute(
      'src',
      '/assetportal/api/config/dashboardLogo',
    );
  });

  it.each([
    [false, 'inside'],
    [true, 'before'],
  ] as const)(
    'admin-spec §3 dashboard.heroImage: the hero and its logo take their own alignments; load_outside %s puts the logo %s the hero',
    async (loadOutside, where) => {
      server.use(
        http.get(api('config'), () =>
          HttpResponse.json({ ...Object.fromEntries(configFileNames.map((n) => [n, false])), dashboardLogo: true }),
        ),
        ...configHandlers({
          dashboard: {
            heroImage: { alignment: 'right', logo: { height: 80, alignment: 'left', load_outside: loadOutside } },
          },
        }),
      );
      catalogue();
      await renderApp('/');
      const hero = await screen.findByTestId('dashboard-hero');
      expect(hero).toHaveStyle({ alignItems: 'flex-end', textAlign: 'right' });
      const logo = await screen.findByRole('img', { name: 'Logo of Vitrine' });
      expect(logo).toHaveStyle({ alignSelf: 'flex-start', height: '80px' });
      if (where === 'inside') {
        expect(hero).toContainElement(logo);
      } else {
        expect(hero).not.toContainElement(logo);
        expect(logo.nextElementSibling).toBe(hero);
      }
    },
  );

  it('hides the dashboard logo when visibleLogos switches it off', async () => {
    // The first handler of a list that matches answers: the files' answer (a logo exists) goes first.
    server.use(
      http.get(api('config'), () =>
        HttpResponse.json({ ...Object.fromEntries(configFileNames.map((n) => [n, false])), dashboardLogo: true }),
      ),
      ...configHandlers({ visibleLogos: [{ key: 'dashboard', translation: 'x', visible: false }] }),
    );
    catalogue();
    await renderApp('/');
    const hero = await screen.findByTestId('dashboard-hero');
    await new Promise((r) => setTimeout(r, 50));
    expect(within(hero).queryByRole('img', { name: 'Logo of Vitrine' })).not.toBeInTheDocument();
  });

  it('shows a spinner while the collections load', async () => {
    server.use(http.get(api('collection'), () => new Promise<never>(() => undefined)));
    await renderApp('/');
    expect(await screen.findByRole('progressbar', { name: 'Loading collections…' })).toBeInTheDocument();
  });

  it('searches the trimmed text', async () => {
    catalogue();
    const { router } = await renderApp('/');
    const input = await screen.findByRole('combobox', { name: 'Search' });
    await userEvent.type(input, '  red car {Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/red%20car'), { timeout: 3000 });
  });

  it('searches everything for an empty text (portal-spec §5)', async () => {
    catalogue();
    const { router } = await renderApp('/');
    await userEvent.type(await screen.findByRole('combobox', { name: 'Search' }), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Start search' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/*'), { timeout: 3000 });
  });

  it('sends / to /search/* when the dashboard is hidden', async () => {
    server.use(...configHandlers({ global: { hide_dashboard: true } }));
    const { router } = await renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/*'), { timeout: 3000 });
  });
});
