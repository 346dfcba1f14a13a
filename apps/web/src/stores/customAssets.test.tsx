import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configFileNames } from '@vitrine/contract/config-defaults';
import { api, server } from '../test/msw.ts';
import { renderApp } from '../test/renderApp.tsx';
import { toast } from '../lib/toast.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const customStyle = () => document.head.querySelector('link[data-vitrine="custom-style"]');

describe("the admin's style sheet (docs/security.md: not on the password screens)", () => {
  it('is loaded on the dashboard, never on the login, reset-password and share-password screens', async () => {
    server.use(
      http.get(api('config'), () =>
        HttpResponse.json(Object.fromEntries(configFileNames.map((n) => [n, n === 'style']))),
      ),
    );
    const { router } = await renderApp('/login');
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(customStyle()).toBeNull();

    await act(() => router.navigate('/'));
    await waitFor(() => expect(customStyle()).not.toBeNull());
    expect(customStyle()?.getAttribute('href')).toBe(api('config/style'));

    // The router takes the fixed parts of a path in any case: '/Login' shows the login screen too.
    const paths = ['/login', '/reset-password?token=abc', '/share/some-token', '/bookmark', '/login?code=x', '/Login'];
    for (const path of paths) {
      await act(() => router.navigate(path));
      const expected = path === '/bookmark';
      await waitFor(() => expect(customStyle() !== null, path).toBe(expected));
    }
  });
});

describe('the favicon (admin-spec §2 "appearance", §3 "Available-files flags")', () => {
  const icons = () => [...document.head.querySelectorAll('link[rel~="icon"]')].map((l) => l.getAttribute('href'));
  const filesWithFavicon = (favicon: boolean) =>
    http.get(api('config'), () =>
      HttpResponse.json(Object.fromEntries(configFileNames.map((n) => [n, n === 'favicon' && favicon]))),
    );
  /** The product's own icon, as index.html links it. */
  function productIcon() {
    const link = document.head.appendChild(document.createElement('link'));
    link.rel = 'icon';
    link.type = 'image/svg+xml';
    link.href = './favicon.svg';
    return link;
  }
  // Before each test: the app's unmount after the one before puts the product's icon back.
  beforeEach(() => {
    for (const l of document.head.querySelectorAll('link[rel~="icon"]')) l.remove();
  });

  it("is the page's one icon link once an admin uploaded one, pointing at the configured favicon", async () => {
    productIcon();
    server.use(filesWithFavicon(true));
    await renderApp('/');
    await waitFor(() => expect(icons()).toEqual([api('config/favicon')]));
  });

  it("leaves the product's own icon without an upload", async () => {
    productIcon();
    server.use(filesWithFavicon(false));
    await renderApp('/');
    expect(await screen.findByText('Find your media', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(icons()).toEqual(['./favicon.svg']);
  });
});

describe('admin-spec §8 "Stylesheet could not be loaded; font could not be loaded"', () => {
  // Notices show one at a time: one left from the test before would stand in front.
  beforeEach(() => toast.clear());
  const files = (name: 'style' | 'custom_font') =>
    http.get(api('config'), () => HttpResponse.json(Object.fromEntries(configFileNames.map((n) => [n, n === name]))));

  it.each([
    ['en', 'The stylesheet could not be loaded.'],
    ['de', 'Das Stylesheet konnte nicht geladen werden.'],
  ])('says so when the admin style sheet fails to load (%s)', async (locale, notice) => {
    server.use(files('style'));
    await renderApp('/', { locale });
    await waitFor(() => expect(customStyle()).not.toBeNull());
    // What the browser fires on a style sheet it could not load.
    act(() => void customStyle()?.dispatchEvent(new Event('error')));
    expect(await screen.findByText(notice)).toBeInTheDocument();
  });

  /**
   * jsdom has no FontFace: this one loads its source as a browser does (through the network, so the
   * test server answers), and fails as a browser's does when the answer is no font.
   */
  class NetworkFontFace {
    constructor(
      readonly family: string,
      private readonly source: string,
    ) {}
    async load(): Promise<this> {
      const url = /url\("(.+)"\)/.exec(this.source)?.[1] ?? '';
      // eslint-disable-next-line no-restricted-globals -- the browser's FontFace loads its source itself, not through the app's client
      const answer = await fetch(new URL(url, location.href));
      if (!answer.ok) throw new DOMException('A network error occurred.', 'NetworkError');
      return this;
    }
  }
  beforeAll(() => {
    (globalThis as { FontFace?: unknown }).FontFace = NetworkFontFace;
  });
  afterAll(() => {
    delete (globalThis as { FontFace?: unknown }).FontFace;
  });

  it.each([
    ['en', 'The font could not be loaded.'],
    ['de', 'Die Schriftart konnte nicht geladen werden.'],
  ])('says so when the admin font fails to load (%s)', async (locale, notice) => {
    const asked: string[] = [];
    server.use(
      files('custom_font'),
      http.get(api('config/custom_font'), ({ request }) => {
        asked.push(new URL(request.url).pathname);
        return HttpResponse.json({ error: 'not_found', message: 'No font.' }, { status: 404 });
      }),
    );
    await renderApp('/', { locale });
    expect(await screen.findByText(notice)).toBeInTheDocument();
    expect(asked).toEqual([api('config/custom_font')]);
  });
});
