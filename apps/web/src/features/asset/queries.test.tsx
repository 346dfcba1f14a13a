import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BootData } from '@vitrine/contract/boot';
import { configFileNames, defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { api, createSessionServer, sessionAnswer } from '../../test/sessionServer.ts';
import { setRequestLanguage } from '../../lib/apiClient.ts';
import { askFirstAnswers } from '../../first-paint/earlyAnswers.ts';
import { loadSession, resetSessionState } from '../../stores/session.ts';
import { useAssetDoc, usePreview } from './queries.ts';

const boot: BootData = {
  config: defaultGlobalConfig,
  files: Object.fromEntries(configFileNames.map((n) => [n, false])) as BootData['files'],
  locales: ['en'],
  messages: {},
};
const previewUrl = '/assetportal/api/media/preview/7.jpg?sig=x';

/** The asset's calls the server got. */
let calls: string[] = [];
/** Holds the asset's answers back until released. */
let release: () => void = () => {};
const server = createSessionServer(sessionAnswer({ session: 'guest-token' }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  calls = [];
  const held = new Promise<void>((resolve) => (release = resolve));
  server.use(
    http.get(api('assets'), async () => {
      calls.push('assets');
      await held;
      return HttpResponse.json({ response: { numFound: 1, start: 0, docs: [{ id: '7', title: 'Lighthouse' }] } });
    }),
    http.get(api('download/preview'), async () => {
      calls.push('preview');
      await held;
      return HttpResponse.json({ url: previewUrl, asset_groups: ['image'] });
    }),
  );
});
afterEach(() => {
  server.resetHandlers();
  resetSessionState();
  for (const link of document.head.querySelectorAll('link[rel="preload"]')) link.remove();
});
afterAll(() => server.close());

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
);

/** The asset page's first visit: its asset and preview asked for as the app starts, then the session taken. */
async function firstVisit(): Promise<void> {
  setRequestLanguage('en');
  void askFirstAnswers('#/asset/7', boot);
  await loadSession();
  await waitFor(() => expect(calls).toHaveLength(2));
}

const renderPage = () => renderHook(() => [useAssetDoc('en', '7'), usePreview('7', 0)] as const, { wrapper });

describe("the asset page's queries on a first visit (issue #28)", () => {
  it('start with the asset and its preview asked for early when they have come: the first render draws the picture', async () => {
    await firstVisit();
    release();
    await waitFor(() => expect(document.head.querySelector('link[rel="preload"][as="image"]')).not.toBeNull());
    // The asset's answer, released with the preview's, has been read by then too.
    await new Promise((resolve) => setTimeout(resolve, 50));

    const { result } = renderPage();
    const [doc, preview] = result.current;
    expect(doc.data?.id).toBe('7');
    expect(preview.data?.url).toBe(previewUrl);
    expect(calls).toEqual(['assets', 'preview']);
  });

  it('forget them for another caller: after a reset the page asks again', async () => {
    await firstVisit();
    release();
    await waitFor(() => expect(document.head.querySelector('link[rel="preload"][as="image"]')).not.toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const client = new QueryClient();
    const own = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    renderHook(() => useAssetDoc('en', '7'), { wrapper: own }).unmount();
    // What app/Providers.tsx does when the caller changes (a login).
    await client.resetQueries();

    const { result } = renderHook(() => useAssetDoc('en', '7'), { wrapper: own });
    expect(result.current.isPending).toBe(true);
    await waitFor(() => expect(result.current.data?.id).toBe('7'));
    expect(calls).toEqual(['assets', 'preview', 'assets']);
  });

  it('wait for them while they are on their way, without asking again', async () => {
    await firstVisit();

    const { result } = renderPage();
    expect(result.current.map((q) => q.isPending)).toEqual([true, true]);
    release();
    await waitFor(() => expect(result.current[1].data?.url).toBe(previewUrl));
    expect(result.current[0].data?.id).toBe('7');
    expect(calls).toEqual(['assets', 'preview']);
  });
});

describe('the asset page from the loaded results (portal-spec §3 "Asset")', () => {
  /** A client that holds a search answer in `lang` with asset 7 on its second page, as the search page leaves it. */
  function clientWithResults(lang: string) {
    const client = new QueryClient();
    const request = { lang, route: {}, sort: {}, facetFields: [], facetSort: [], firstRows: 25 };
    client.setQueryData(['search', 'results', request], {
      pages: [
        { docs: [{ id: '3', title: 'Harbour' }], numFound: 2 },
        { docs: [{ id: '7', title: 'Lighthouse (from the results)' }], numFound: 2 },
      ],
      pageParams: [],
    });
    const own = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    return own;
  }

  it('draws the asset a loaded search result holds at once, and takes the asset call answer when it comes', async () => {
    const { result } = renderHook(() => useAssetDoc('en', '7'), { wrapper: clientWithResults('en') });
    expect(result.current.data?.title).toBe('Lighthouse (from the results)');
    expect(result.current.isPlaceholderData).toBe(true);
    release();
    await waitFor(() => expect(result.current.data?.title).toBe('Lighthouse'));
    expect(result.current.isPlaceholderData).toBe(false);
    expect(calls).toEqual(['assets']);
  });

  it('waits for the asset call when the results are in another content language', async () => {
    const { result } = renderHook(() => useAssetDoc('de', '7'), { wrapper: clientWithResults('en') });
    expect(result.current.isPending).toBe(true);
    expect(result.current.data).toBeUndefined();
    release();
    await waitFor(() => expect(result.current.data?.id).toBe('7'));
  });
});
