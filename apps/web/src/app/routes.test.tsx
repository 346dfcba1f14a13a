import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, createSessionServer, sessionAnswer } from '../test/sessionServer.ts';
import { renderApp } from '../test/renderApp.tsx';
import { startTestServer } from '../test/testServer.ts';

const server = createSessionServer();
startTestServer(server, 'error');

const renderAt = async (path: string) => (await renderApp(path)).router;

/** The search page over an empty catalogue. */
const emptySearch = [
  http.get(api('index/fields'), () => HttpResponse.json({ visible_fields: [] })),
  http.get(api('search'), () =>
    HttpResponse.json({
      response: { docs: [], numFound: 0, start: 0 },
      facetCounts: { facetFields: {}, facetRanges: {} },
    }),
  ),
];

/** What entering the admin area loads (admin-spec §2), as a server with nothing stored answers it. */
const adminEntry = [
  http.get(api('config/global/stored'), () => HttpResponse.json({ config: null })),
  http.get(api('config/translations/stored'), () => HttpResponse.json({ translations: {} })),
  http.get(api('config/history'), () => HttpResponse.json({ versions: [] })),
  http.get(api('config/custom_html'), () => HttpResponse.json({ locales: [] })),
  http.get(api('index/fields'), () => HttpResponse.json({ visible_fields: [] })),
  http.get(api('index/content_locales'), () => HttpResponse.json({ locales: ['de', 'en'] })),
  http.get(api('collection/dam'), () => HttpResponse.json({ collections: [] })),
];

describe('route table (portal-spec §2 "Screens and routes")', () => {
  it('renders the search screen for /search/{query}', async () => {
    server.use(...emptySearch);
    await renderAt('/search/*');
    // The search page is a larger lazy chunk than the others.
    expect(await screen.findByRole('heading', { level: 1, name: 'Search' }, { timeout: 10_000 })).toBeInTheDocument();
  }, 15_000);

  it.each(['/search', '/asset', '/no/such/page'])('redirects %s to the dashboard', async (path) => {
    const router = await renderAt(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
  });

  it('opens /admin on the general section (admin-spec §2)', async () => {
    server.use(
      http.post(api('session/get'), () => HttpResponse.json(sessionAnswer({ user: 'ada', isGuiAdmin: true }))),
      ...adminEntry,
    );
    const router = await renderAt('/admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/general'));
    // Nothing is stored, so the factory settings are offered in a dialog over the section (§4).
    expect(await screen.findByRole('dialog', { name: 'Please confirm' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'General', hidden: true })).toBeInTheDocument();
  });

  it('sets the page title from website title, separator and page title', async () => {
    await renderAt('/bookmark');
    await screen.findByRole('heading', { level: 1, name: 'Bookmarks' });
    await waitFor(() => expect(document.title).toBe('Vitrine | Bookmarks'));
  });
});

describe('navigation rules (portal-spec §2 "Navigation rules", admin-spec §2 "Admin entry guard")', () => {
  it('sends a visitor without rights to login', async () => {
    server.use(http.post(api('session/get'), () => HttpResponse.json(sessionAnswer({ isAssetUser: false }))));
    const router = await renderAt('/bookmark');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
  });

  it('sends a non-admin loading an admin URL to the dashboard', async () => {
    const router = await renderAt('/admin/search');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('keeps a non-admin who goes to /admin from another page where they were (admin-spec §2 "Admin entry guard")', async () => {
    server.use(...emptySearch);
    const router = await renderAt('/search/tulip');
    expect(await screen.findByRole('heading', { level: 1, name: /Search/ }, { timeout: 10_000 })).toBeInTheDocument();
    await router.navigate('/admin/search');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/tulip'));
    expect(await screen.findByRole('heading', { level: 1, name: /Search/ })).toBeInTheDocument();
  }, 15_000);

  it('asks the server on entering the admin area; an admin session no longer valid is sent away (admin-spec §2 "Admin entry guard")', async () => {
    const admin = sessionAnswer({ user: 'ada', isGuiAdmin: true });
    let sessions = 0;
    server.use(
      // The first answer is the admin's; the session then expires on the server.
      http.post(api('session/get'), () => HttpResponse.json(sessions++ === 0 ? admin : sessionAnswer())),
      http.get(api('session/check'), () => HttpResponse.json({ isGuiAdmin: false, sessionValid: false })),
      ...adminEntry,
      // The dashboard the visitor is sent to.
      http.get(api('collection'), () => HttpResponse.json({ collections: [] })),
      http.get(api('info/downloads'), () => HttpResponse.json({ max_assets: -1 })),
    );
    const router = await renderAt('/admin/general');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sessions).toBe(2);
  });

  it('sends a GUI admin who is not an asset user from a portal page to /admin/general', async () => {
    const admin = sessionAnswer({ user: 'ada', isAssetUser: false, isGuiAdmin: true });
    server.use(
      http.post(api('session/get'), () => HttpResponse.json(admin)),
      ...adminEntry,
    );
    const router = await renderAt('/search/*');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/general'));
  });

  it('lets anyone see the logout page, even without a session', async () => {
    server.use(http.post(api('session/get'), () => HttpResponse.json(sessionAnswer({ isAssetUser: false }))));
    await renderAt('/logout');
    expect(await screen.findByRole('heading', { level: 1, name: 'Logged out' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reload the portal and log in again' })).toBeInTheDocument();
  });

  it('shows the no-permission page on /logout?permission', async () => {
    await renderAt('/logout?permission');
    expect(await screen.findByRole('heading', { level: 1, name: 'No permission' })).toBeInTheDocument();
  });
});
