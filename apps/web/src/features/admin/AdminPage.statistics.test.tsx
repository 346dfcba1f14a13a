import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import type { InsightDay, InsightsAnswer } from '@vitrine/contract/insights';
import { readRoutePath } from '@vitrine/contract/paths';
import { renderApp } from '../../test/renderApp.tsx';
import { api } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';
import { server, slow, adminServer } from '../../test/adminServer.tsx';

startTestServer(server, 'error');

const zero: Omit<InsightDay, 'day'> = {
  searches: 0,
  searchesWithoutResults: 0,
  views: 0,
  downloads: 0,
  zips: 0,
  shareOpens: 0,
  logins: 0,
  failedLogins: 0,
};

/** An answer of GET admin/insights for two days of use. */
function insights(over: Partial<InsightsAnswer> = {}): InsightsAnswer {
  return {
    from: '2026-12-05',
    to: '2026-12-06',
    audience: 'all',
    days: [
      { day: '2026-12-05', ...zero, searches: 1200, views: 40, downloads: 3 },
      { day: '2026-12-06', ...zero, searches: 34, searchesWithoutResults: 5, views: 2, downloads: 1 },
    ],
    totals: { ...zero, searches: 1234, searchesWithoutResults: 5, views: 42, downloads: 4, logins: 2, failedLogins: 1 },
    logins: [{ method: 'native', ok: 2, failed: 1 }],
    downloadsBySet: [{ csetId: 0, title: 'Original', count: 4 }],
    topDownloaded: [
      { id: '7', title: 'Harbour at dawn', count: 3 },
      { id: '9', title: null, count: 1 },
    ],
    topViewed: [{ id: '7', title: 'Harbour at dawn', count: 1500 }],
    topSearches: [{ text: 'harbour', count: 1200 }],
    searchesWithoutResults: [
      { text: 'größe "xl", rot', count: 5 },
      { text: 'zebra', count: 2 },
    ],
    facets: [{ key: 'keywords', count: 7 }],
    collections: [{ id: 3, name: 'Spring campaign', views: 2048, downloads: 1 }],
    ...over,
  };
}

/** Answers GET admin/insights with `answer`; returns the queries it was asked with. */
function insightsServer(answer: InsightsAnswer | (() => Response) = insights()) {
  adminServer(defaultGlobalConfig);
  const asked: URLSearchParams[] = [];
  server.use(
    http.get(api('admin/insights'), ({ request }) => {
      asked.push(new URL(request.url).searchParams);
      return typeof answer === 'function' ? answer() : HttpResponse.json(answer);
    }),
  );
  return asked;
}

const lastQuery = (asked: URLSearchParams[]) => Object.fromEntries(asked.at(-1) ?? []);

async function openStatistics(path = '/admin/statistics', locale?: string) {
  const rendered = await renderApp(path, locale ? { locale } : {});
  await screen.findByRole('heading', { level: 2 }, slow);
  return rendered;
}

const table = (name: string) => screen.findByRole('table', { name }, slow);

afterEach(() => vi.restoreAllMocks());

/** A blob's bytes (jsdom's Blob has no arrayBuffer()). */
const bytesOf = (blob: Blob) =>
  new Promise<Uint8Array>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsArrayBuffer(blob);
  });

describe('admin Statistics section (issue #51)', { timeout: 60_000 }, () => {
  it('asks for the last 30 days of everyone by default, and puts the chosen period and audience in the address and the request', async () => {
    const asked = insightsServer();
    const { user, router } = await openStatistics();
    await table('Top searches');
    expect(lastQuery(asked)).toMatchObject({ days: '30', audience: 'all' });

    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(screen.getByRole('option', { name: 'Last 90 days' }));
    await waitFor(() => expect(lastQuery(asked)).toMatchObject({ days: '90', audience: 'all' }));
    expect(new URLSearchParams(router.state.location.search).get('days')).toBe('90');

    await user.click(screen.getByRole('combobox', { name: 'Audience' }));
    await user.click(screen.getByRole('option', { name: 'Guests' }));
    await waitFor(() => expect(lastQuery(asked)).toMatchObject({ days: '90', audience: 'guests' }));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      days: '90',
      audience: 'guests',
    });

    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(screen.getByRole('option', { name: 'From – to' }));
    await waitFor(() => expect(lastQuery(asked)).toHaveProperty('from'));
    const query = lastQuery(asked);
    expect(query).not.toHaveProperty('days');
    expect(query.audience).toBe('guests');
    const from = screen.getByLabelText('From');
    expect(from).toHaveValue(query.from);
    expect(screen.getByLabelText('To')).toHaveValue(query.to);
    // 90 days, today included.
    expect((Date.parse(query.to!) - Date.parse(query.from!)) / 86_400_000).toBe(89);

    await user.clear(from);
    await user.type(from, '2026-01-15');
    await waitFor(() => expect(lastQuery(asked)).toMatchObject({ from: '2026-01-15', to: query.to }));
    expect(new URLSearchParams(router.state.location.search).get('from')).toBe('2026-01-15');
  });

  it('reads the period and audience of a shared address', async () => {
    const asked = insightsServer();
    await openStatistics('/admin/statistics?from=2026-02-01&to=2026-02-28&audience=accounts');
    await table('Top searches');
    expect(lastQuery(asked)).toEqual({ from: '2026-02-01', to: '2026-02-28', audience: 'accounts' });
    expect(screen.getByRole('combobox', { name: 'Period' })).toHaveTextContent('From – to');
    expect(screen.getByRole('combobox', { name: 'Audience' })).toHaveTextContent('Accounts');
  });

  it("shows the answer's rows with numbers and days in English", async () => {
    insightsServer();
    await openStatistics();
    const totals = (await screen.findByRole('heading', { name: 'Totals' }, slow)).parentElement!;
    expect(within(totals).getByText('Searches').nextElementSibling).toHaveTextContent('1,234');
    expect(screen.getByText('Dec 5, 2026 to Dec 6, 2026')).toBeInTheDocument();
    const viewed = await table('Most viewed assets');
    expect(within(viewed).getByRole('row', { name: /Harbour at dawn/ })).toHaveTextContent('1,500');
    const collections = await table('Collections by views and downloads');
    expect(within(collections).getByRole('row', { name: /Spring campaign/ })).toHaveTextContent('2,048');
    const perDay = await table('Searches, views and downloads per day');
    expect(within(perDay).getByRole('row', { name: /Dec 5, 2026/ })).toHaveTextContent('1,200');
  });

  it("shows the answer's rows with numbers and days in German", async () => {
    insightsServer();
    await openStatistics('/admin/statistics', 'de');
    const totals = (await screen.findByRole('heading', { name: 'Summen' }, slow)).parentElement!;
    expect(within(totals).getByText('Suchen').nextElementSibling).toHaveTextContent('1.234');
    expect(screen.getByText('05.12.2026 bis 06.12.2026')).toBeInTheDocument();
    const viewed = await table('Meistaufgerufene Assets');
    expect(within(viewed).getByRole('row', { name: /Harbour at dawn/ })).toHaveTextContent('1.500');
    const collections = await table('Kollektionen nach Aufrufen und Downloads');
    expect(within(collections).getByRole('row', { name: /Spring campaign/ })).toHaveTextContent('2.048');
    expect(screen.getByRole('button', { name: 'CSV herunterladen: Suchen ohne Treffer' })).toBeInTheDocument();
  });

  it('links a search without results to the search page with its text', async () => {
    insightsServer();
    await openStatistics();
    const zeroResults = await table('Searches without results');
    const link = within(zeroResults).getByRole('link', { name: 'zebra' });
    expect(link).toHaveAttribute('href', '/search/zebra');
    expect(within(zeroResults).getByRole('row', { name: /zebra/ })).toHaveTextContent('2');
    const quoted = within(zeroResults).getByRole('link', { name: 'größe "xl", rot' });
    expect(readRoutePath(quoted.getAttribute('href')!)).toMatchObject({ page: 'search', text: 'größe "xl", rot' });
  });

  it('links each asset to its page with its thumbnail, and names one that is gone without a link', async () => {
    insightsServer();
    await openStatistics();
    const downloaded = await table('Most downloaded assets');
    const link = within(downloaded).getByRole('link', { name: 'Harbour at dawn' });
    expect(link).toHaveAttribute('href', '/asset/7');
    expect(link.querySelector('img')).toHaveAttribute('src', '/assetportal/api/config/thumbnail?id=7');
    const gone = within(downloaded).getByRole('row', { name: /Asset no longer available/ });
    expect(within(gone).queryByRole('link')).not.toBeInTheDocument();
    expect(gone.querySelector('img')).toBeNull();
  });

  it('downloads a table as CSV: a byte order mark, a header row, every field quoted, the period in its name', async () => {
    insightsServer();
    const saved: { blob: Blob; name: string }[] = [];
    let blob: Blob | undefined;
    URL.createObjectURL = vi.fn((b: Blob) => {
      blob = b;
      return 'blob:csv';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      if (blob) saved.push({ blob, name: this.download });
    });
    const { user } = await openStatistics();
    await table('Searches without results');
    await user.click(screen.getByRole('button', { name: 'Download CSV: Searches without results' }));
    expect(saved).toHaveLength(1);
    expect(saved[0]!.name).toBe('statistics-searches-without-results-2026-12-05-2026-12-06.csv');
    const bytes = await bytesOf(saved[0]!.blob);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(
      '\uFEFF"Search text","Times asked"\r\n"größe ""xl"", rot","5"\r\n"zebra","2"\r\n',
    );
  });

  it('gives each chart a name and its table for screen readers, and hides the picture from them with nothing to focus in it', async () => {
    insightsServer();
    const { user } = await openStatistics();
    const perDay = await screen.findByRole('figure', { name: 'Chart: Searches, views and downloads per day' }, slow);
    // The table is there (for screen readers only) while the chart is shown.
    expect(within(perDay).getByRole('table', { name: 'Searches, views and downloads per day' })).toBeInTheDocument();
    const picture = perDay.querySelector(':scope > [aria-hidden="true"]');
    await waitFor(() => expect(picture?.querySelector('svg')).not.toBeNull());
    expect(picture?.querySelectorAll('a[href], button, input, [tabindex]:not([tabindex="-1"])')).toHaveLength(0);
    await user.click(within(perDay).getByRole('checkbox', { name: 'Show as table' }));
    expect(perDay.querySelector(':scope > [aria-hidden="true"]')).toBeNull();
    expect(within(perDay).getByRole('table', { name: 'Searches, views and downloads per day' })).toBeVisible();
    // Downloads by set and logins by method are charts with their tables as well.
    expect(screen.getAllByRole('figure').map((f) => f.getAttribute('aria-labelledby') !== null)).toEqual([
      true,
      true,
      true,
    ]);
  });

  it("says what went wrong with the server's message", async () => {
    insightsServer(() =>
      HttpResponse.json({ error: 'validation', message: 'The period is longer than 366 days.' }, { status: 400 }),
    );
    await openStatistics('/admin/statistics?from=2024-01-01&to=2026-01-01');
    const alert = (await screen.findByText(/^The statistics could not be loaded\./, {}, slow)).closest(
      '[role="alert"]',
    );
    expect(alert).toHaveTextContent('The statistics could not be loaded. The period is longer than 366 days.');
  });

  it('says when nothing was recorded in the period', async () => {
    insightsServer(
      insights({
        days: [{ day: '2026-12-06', ...zero }],
        totals: zero,
        logins: [],
        downloadsBySet: [],
        topDownloaded: [],
        topViewed: [],
        topSearches: [],
        searchesWithoutResults: [],
        facets: [],
        collections: [],
      }),
    );
    await openStatistics();
    expect(await screen.findByText('No use recorded in this period', {}, slow)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
