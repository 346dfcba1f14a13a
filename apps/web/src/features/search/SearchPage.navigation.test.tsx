import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { configFileNames } from '@vitrine/contract/config-defaults';
import type { AssetDoc } from '@vitrine/contract/search';
import { api, configHandlers, server } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { layOutResults } from '../../test/resultsLayout.ts';
import { indexField } from '../../test/indexField.ts';
import { startTestServer } from '../../test/testServer.ts';

layOutResults();
startTestServer(server, 'bypass');

const catalogue: AssetDoc[] = [
  { id: '1', title: 'Red car' },
  { id: '2', title: 'Blue boat' },
  { id: '3', title: 'Penguin' },
];

/** A search over three assets, with the header and search logos uploaded and the config `stored`. */
function portal(stored: Record<string, unknown> = {}) {
  server.use(
    http.get(api('index/fields'), () =>
      HttpResponse.json({ visible_fields: [indexField('title', 'Title', { is_facet: false })] }),
    ),
    http.get(api('search'), () =>
      HttpResponse.json({
        response: { docs: catalogue, numFound: catalogue.length, start: 0 },
        facetCounts: { facetFields: {}, facetRanges: {} },
      }),
    ),
    http.get(api('config/bookmarks'), () => HttpResponse.json([])),
    // The first handler of a list that matches answers: the files' answer goes before the config's.
    http.get(api('config'), () =>
      HttpResponse.json(Object.fromEntries(configFileNames.map((n) => [n, n === 'logo' || n === 'searchLogo']))),
    ),
    ...configHandlers(stored),
  );
}

const result = (title: string) => screen.getByRole('button', { name: title });
const heading = (name: string) => screen.findByRole('heading', { name }, { timeout: 15_000 });

describe('portal-spec §2 "Navigation rules": leaving a page', { timeout: 40_000 }, () => {
  it('clears the active asset and the selection', async () => {
    portal();
    const { router, user } = await renderApp('/search/*');
    await heading('3 results');
    await user.click(await screen.findByRole('button', { name: 'Red car' }));
    await user.keyboard('{Control>}');
    await user.click(result('Penguin'));
    await user.keyboard('{/Control}');
    expect(screen.getByRole('region', { name: 'Details of Red car' })).toBeInTheDocument();
    expect(screen.getByText('2 selected')).toBeInTheDocument();

    await act(() => router.navigate('/bookmark'));
    await screen.findByRole('heading', { level: 1, name: 'Bookmarks' }, { timeout: 10_000 });
    await act(() => router.navigate('/search/*'));
    await heading('3 results');
    await screen.findByRole('button', { name: 'Red car' });
    expect(screen.queryByRole('region', { name: /^Details of/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/selected$/)).not.toBeInTheDocument();
    for (const title of ['Red car', 'Blue boat', 'Penguin'])
      expect(result(title)).toHaveAttribute('aria-pressed', 'false');
  });
});

describe('portal-spec §2 "Search": views', { timeout: 40_000 }, () => {
  it('switching view clears the active asset and scrolls the results to the top', async () => {
    portal();
    const { user } = await renderApp('/search/*');
    await heading('3 results');
    await user.click(await screen.findByRole('button', { name: 'Blue boat' }));
    expect(screen.getByRole('region', { name: 'Details of Blue boat' })).toBeInTheDocument();
    const results = screen.getByRole('region', { name: 'Results' });
    results.scrollTop = 400;
    await user.click(screen.getByRole('button', { name: 'Thumbnails' }));
    await waitFor(() => expect(results.getAttribute('data-view')).toBe('thumbnail'));
    expect(screen.queryByRole('region', { name: /^Details of/ })).not.toBeInTheDocument();
    expect(results.scrollTop).toBe(0);
  });
});

describe('portal-spec §2 "Search": the clickable logo', { timeout: 40_000 }, () => {
  it('the header and search logos lead to the dashboard', async () => {
    portal();
    const { router, user } = await renderApp('/search/*');
    await heading('3 results');
    const banner = screen.getByRole('banner');
    const headerLogo = await within(banner).findByRole('img', { name: 'Logo of Vitrine' });
    expect(headerLogo.closest('a')).toHaveAttribute('href', '/');
    const searchLogo = screen.getAllByRole('img', { name: 'Logo of Vitrine' }).find((img) => !banner.contains(img));
    expect(searchLogo?.closest('a')).toHaveAttribute('href', '/');
    await user.click(headerLogo);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('with the dashboard hidden, the search logo is no link and the header logo leads to the search', async () => {
    portal({ global: { hide_dashboard: true } });
    const { router, user } = await renderApp('/bookmark');
    await screen.findByRole('heading', { level: 1, name: 'Bookmarks' }, { timeout: 15_000 });
    const banner = screen.getByRole('banner');
    const headerLogo = await within(banner).findByRole('img', { name: 'Logo of Vitrine' });
    expect(headerLogo.closest('a')).toHaveAttribute('href', '/search/*');
    await user.click(headerLogo);
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/*'));
    await heading('3 results');
    const searchLogo = screen.getAllByRole('img', { name: 'Logo of Vitrine' }).find((img) => !banner.contains(img));
    expect(searchLogo).toBeDefined();
    expect(searchLogo?.closest('a')).toBeNull();
  });
});

describe('portal-spec §2 "Search": the results area is the window height minus 250', { timeout: 40_000 }, () => {
  it('takes the window height less 250 px, and follows a resize', async () => {
    portal();
    await renderApp('/search/*');
    await heading('3 results');
    const results = screen.getByRole('region', { name: 'Results' });
    expect(results.style.height).toBe(`${window.innerHeight - 250}px`);
    const before = window.innerHeight;
    try {
      act(() => {
        Object.defineProperty(window, 'innerHeight', { configurable: true, value: 1000 });
        window.dispatchEvent(new Event('resize'));
      });
      await waitFor(() => expect(results.style.height).toBe('750px'));
    } finally {
      Object.defineProperty(window, 'innerHeight', { configurable: true, value: before });
    }
  });
});
