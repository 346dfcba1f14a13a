import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, configHandlers, server } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
vi.setConfig({ testTimeout: 20_000 });
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const docOf = (id: number) => ({
  id: String(id),
  url: `/media/thumb/${id}?exp=1&sig=x`,
  asset_groups: ['image'],
  title: `Rose ${id}`,
  pixel_x: 1600,
  pixel_y: 1200,
});

/** The asset 42 and, for `similar:42`, the assets given; records the calls in their order. */
function serve(similar: ReturnType<typeof docOf>[]) {
  const calls: string[] = [];
  server.use(
    ...configHandlers(),
    http.get(api('assets'), ({ request }) => {
      calls.push('assets');
      const id = new URL(request.url).searchParams.get('assetid') ?? '';
      return HttpResponse.json({ response: { docs: [docOf(Number(id))] } });
    }),
    http.get(api('download/preview'), () =>
      HttpResponse.json({ url: '/media/preview/42?exp=1&sig=x', asset_groups: ['image'] }),
    ),
    http.get(api('search'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      calls.push(`search ${query.get('solr_q')} rows=${query.get('solr_rows')}`);
      const docs = query.get('solr_q') === 'similar:42' ? similar : [];
      return HttpResponse.json({
        response: { docs, numFound: docs.length, start: 0 },
        facetCounts: { facetFields: {}, facetRanges: {} },
      });
    }),
  );
  return calls;
}

describe('"similar" on the asset page (issue #52)', () => {
  it('shows the assets that look alike after the page, as posters linking to their pages', async () => {
    // The asset itself may come back among them; it is not shown.
    const calls = serve([docOf(7), docOf(42), docOf(8)]);
    const { user, router } = await renderApp('/asset/42');
    const row = await screen.findByRole('region', { name: 'Similar' }, { timeout: 15_000 });
    const links = within(row).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('aria-label'))).toEqual(['Open Rose 7', 'Open Rose 8']);
    expect(links[0]?.querySelector('img')).toHaveAttribute('src', '/media/thumb/7?exp=1&sig=x');
    // Asked once the asset is there, in one search page of twelve.
    expect(calls.filter((c) => c.startsWith('search'))).toEqual(['search similar:42 rows=12']);
    expect(calls.indexOf('assets')).toBeLessThan(calls.indexOf('search similar:42 rows=12'));
    await user.click(links[1]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/asset/8'));
  });

  it('is not there when nothing looks alike', async () => {
    const calls = serve([docOf(42)]);
    await renderApp('/asset/42');
    expect(await screen.findByRole('heading', { level: 1, name: 'Rose 42' }, { timeout: 15_000 })).toBeVisible();
    await waitFor(() => expect(calls).toContain('search similar:42 rows=12'));
    expect(screen.queryByRole('region', { name: 'Similar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Similar' })).not.toBeInTheDocument();
  });

  it('speaks German', async () => {
    serve([docOf(7)]);
    await renderApp('/asset/42', { locale: 'de' });
    const row = await screen.findByRole('region', { name: 'Ähnlich' }, { timeout: 15_000 });
    expect(within(row).getByRole('link', { name: 'Rose 7 öffnen' })).toBeInTheDocument();
  });
});
