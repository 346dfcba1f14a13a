import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BootData } from '@vitrine/contract/boot';
import { configFileNames, defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { assetsCall, previewCall, searchCall } from '@vitrine/contract/endpoints';
import { api, createSessionServer, sessionAnswer } from '../test/sessionServer.ts';
import { loadSession, resetSessionState } from '../stores/session.ts';
import { callApi, getSessionToken, setRequestLanguage, setSessionToken } from '../lib/apiClient.ts';
import { askFirstAnswers } from './earlyAnswers.ts';

const boot: BootData = {
  config: defaultGlobalConfig,
  files: Object.fromEntries(configFileNames.map((n) => [n, false])) as BootData['files'],
  locales: ['en'],
  messages: {},
};

/** Every call the server got: method, path, language and token. */
let asked: string[] = [];
const server = createSessionServer(sessionAnswer({ session: 'guest-token' }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  resetSessionState();
  for (const link of document.head.querySelectorAll('link[rel="preload"]')) link.remove();
});
afterAll(() => server.close());

function record(request: Request): void {
  const url = new URL(request.url);
  const token = request.headers.get('authorization') ?? '-';
  asked.push(`${request.method} ${url.pathname}${url.search} ${request.headers.get('accept-language')} ${token}`);
}

/** A portal that answers session/get (with `token`), the asset and its preview, and writes down each call. */
function portal(token = 'guest-token') {
  asked = [];
  server.use(
    http.post(api('session/get'), ({ request }) => {
      record(request);
      return HttpResponse.json(sessionAnswer({ session: token }));
    }),
    http.get(api('assets'), ({ request }) => {
      record(request);
      return HttpResponse.json({ response: { numFound: 1, start: 0, docs: [{ id: '42', title: 'Harbour' }] } });
    }),
    http.get(api('download/preview'), ({ request }) => {
      record(request);
      return HttpResponse.json({ url: '/assetportal/api/media/preview/42.jpg?sig=x', asset_groups: ['image'] });
    }),
  );
}

const preloaded = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')].map((l) =>
    l.getAttribute('href'),
  );

/** The asset page's own calls, as its queries make them. */
const pageCalls = () =>
  Promise.all([
    callApi(assetsCall, { query: { assetid: '42' } }),
    callApi(previewCall, { query: { id: '42', target: 'view', page: 0 } }),
  ]);

describe("the first screen's calls, asked before the app's code runs (decisions 0238, 0244)", () => {
  it("on an asset's page asks for the session, then the asset and its preview with its token; the app's calls take these answers once", async () => {
    portal();
    setSessionToken('stored-token');
    void askFirstAnswers('#/asset/42', boot);
    await expect.poll(preloaded).toEqual(['/assetportal/api/media/preview/42.jpg?sig=x']);
    expect(asked).toEqual([
      'POST /assetportal/api/session/get en Bearer stored-token',
      'GET /assetportal/api/assets?assetid=42 en Bearer guest-token',
      'GET /assetportal/api/download/preview?id=42&target=view&page=0 en Bearer guest-token',
    ]);

    // The app, in the language stores/i18n.ts picks from the same boot data.
    setRequestLanguage('en');
    await loadSession();
    expect(getSessionToken()).toBe('guest-token');
    const [doc, preview] = await pageCalls();
    expect(doc.response.docs[0]?.id).toBe('42');
    expect(preview.url).toBe('/assetportal/api/media/preview/42.jpg?sig=x');
    expect(asked).toHaveLength(3);

    // Taken once: the next calls ask the server.
    await pageCalls();
    expect(asked).toHaveLength(5);
  });

  it('a call in another language or for another session asks itself', async () => {
    portal('token-b');
    void askFirstAnswers('#/asset/42', boot);
    await expect.poll(preloaded).toHaveLength(1);

    setRequestLanguage('de');
    await loadSession();
    setSessionToken('token-b');
    await pageCalls();
    setRequestLanguage('en');
    setSessionToken('token-c');
    await pageCalls();
    expect(asked.slice(3)).toEqual([
      'POST /assetportal/api/session/get de -',
      'GET /assetportal/api/assets?assetid=42 de Bearer token-b',
      'GET /assetportal/api/download/preview?id=42&target=view&page=0 de Bearer token-b',
      'GET /assetportal/api/assets?assetid=42 en Bearer token-c',
      'GET /assetportal/api/download/preview?id=42&target=view&page=0 en Bearer token-c',
    ]);
  });

  it("a failed early call leaves the app's own call to ask", async () => {
    portal('token-d');
    server.use(
      http.post(api('session/get'), () => HttpResponse.error(), { once: true }),
      http.get(api('download/preview'), () => HttpResponse.json({ error: 'x', message: 'x' }, { status: 500 }), {
        once: true,
      }),
    );
    setRequestLanguage('en');
    void askFirstAnswers('#/asset/42', boot);
    await loadSession();
    expect(getSessionToken()).toBe('token-d');
    expect(asked).toEqual(['POST /assetportal/api/session/get en -']);

    // The session asked by the app, the asset and preview early with its token: the preview failed.
    void askFirstAnswers('#/asset/42', boot);
    await expect.poll(() => asked).toHaveLength(3);
    expect(asked[2]).toBe('GET /assetportal/api/assets?assetid=42 en Bearer token-d');
    const [, preview] = await pageCalls();
    expect(preview.url).toBe('/assetportal/api/media/preview/42.jpg?sig=x');
    expect(asked.slice(3)).toEqual([
      'GET /assetportal/api/download/preview?id=42&target=view&page=0 en Bearer token-d',
    ]);
    expect(preloaded()).toEqual([]);
  });

  it("on the search page asks for the session, then the page's first results with its token; the page's call takes them", async () => {
    portal();
    const searched: string[] = [];
    server.use(
      http.get(api('search'), ({ request }) => {
        record(request);
        searched.push(new URL(request.url).search);
        return HttpResponse.json({
          response: { numFound: 1, start: 0, docs: [{ id: '42' }] },
          facetCounts: { facetFields: {}, facetRanges: {} },
        });
      }),
    );
    const phone = {
      innerWidth: 375,
      innerHeight: 812,
      matchMedia: () => ({ matches: true }) as unknown as MediaQueryList,
    };
    const answers = askFirstAnswers('#/search/boat', { ...boot, fields: [] }, phone);
    expect(answers?.search?.first.small).toBe(true);
    expect((await answers?.search?.answer)?.response.numFound).toBe(1);
    expect(asked.map((a) => a.split(' ').slice(0, 2).join(' ').split('?')[0])).toEqual([
      'POST /assetportal/api/session/get',
      'GET /assetportal/api/search',
    ]);
    expect(asked[1]).toContain(' en Bearer guest-token');
    expect(new URLSearchParams(searched[0]).get('solr_q')).toBe('boat');

    setRequestLanguage('en');
    await loadSession();
    const query = answers?.search?.first.query;
    expect(query).toBeDefined();
    if (query) expect((await callApi(searchCall, { query })).response.docs[0]?.id).toBe('42');
    expect(searched).toHaveLength(1);
  });

  it("on the dashboard asks for its collections, then the first three rows' posters; on an asset's page the download options", async () => {
    portal();
    server.use(
      http.get(api('collection'), ({ request }) => {
        record(request);
        const at = (indicator: string, position: number) => ({ indicator, label: indicator, position });
        return HttpResponse.json({ collections: [at('d', 3), at('a', 0), at('c', 2), at('b', 1)] });
      }),
      http.get(api('collection/get'), ({ request }) => {
        record(request);
        return HttpResponse.json({ response: { numFound: 0, start: 0, docs: [] } });
      }),
      http.get(api('info/downloads'), ({ request }) => {
        record(request);
        return HttpResponse.json({ max_assets: 500 });
      }),
    );
    void askFirstAnswers('#/', boot);
    await expect.poll(() => asked.length).toBe(5);
    expect(asked.map((a) => a.split(' ').slice(0, 2).join(' '))).toEqual([
      'POST /assetportal/api/session/get',
      'GET /assetportal/api/collection?operation=list',
      // In the collections' order.
      'GET /assetportal/api/collection/get?collection=a&rows=20',
      'GET /assetportal/api/collection/get?collection=b&rows=20',
      'GET /assetportal/api/collection/get?collection=c&rows=20',
    ]);
    expect(asked.slice(1).every((a) => a.endsWith('Bearer guest-token'))).toBe(true);
    asked = [];
    void askFirstAnswers('#/asset/42', boot);
    await expect.poll(() => asked.length).toBe(4);
    expect(asked).toContain('GET /assetportal/api/info/downloads en Bearer guest-token');
    // A portal whose dashboard leads to the search asks for no collections.
    asked = [];
    void askFirstAnswers('#/', {
      ...boot,
      config: { ...boot.config, global: { ...boot.config.global, hide_dashboard: true } },
    });
    await expect.poll(() => asked.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toHaveLength(1);
  });

  it('asks nothing without the boot data, nor for a single sign-on login (its session call carries the code)', async () => {
    portal();
    void askFirstAnswers('#/asset/42', null);
    void askFirstAnswers('#/login?code=abc', boot);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([]);
  });
});
