import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configFileNames } from '@vitrine/contract/config-defaults';
import { api, server } from '../test/msw.ts';
import { renderApp } from '../test/renderApp.tsx';

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
