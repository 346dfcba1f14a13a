import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Session } from '@vitrine/contract/session';
import { api, sessionAnswer, server } from '../test/msw.ts';
import { renderApp } from '../test/renderApp.tsx';
import { startTestServer } from '../test/testServer.ts';

// Whether the upload page's code was loaded: it is for editors only (issue #49).
const loaded = vi.hoisted(() => ({ count: 0 }));
vi.mock('../features/upload/UploadPage.tsx', () => {
  loaded.count++;
  return { UploadPage: () => <h1>Upload page</h1> };
});

startTestServer(server, 'bypass');

function as(session: Partial<Session>) {
  server.use(http.post(api('session/get'), () => HttpResponse.json(sessionAnswer(session))));
}

describe('the upload route (issue #49)', () => {
  it('is nothing for a user who is not an editor: no menu entry, the address leads home, its code never loads', async () => {
    as({ user: 'ulf', isEditor: false });
    const { router, user } = await renderApp('/upload');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await user.click(await screen.findByRole('button', { name: 'Account of ulf' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Log out' })).toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Upload' })).not.toBeInTheDocument();
    expect(loaded.count).toBe(0);
  });

  it('sends a guest to log in, without loading its code, and an editor who logs in comes back to it', async () => {
    as({ user: null });
    const { router, user } = await renderApp('/upload');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(loaded.count).toBe(0);
    server.use(
      http.post(api('session/get'), async ({ request }) => {
        const body = (await request.json().catch(() => ({}))) as { user?: string };
        return HttpResponse.json(sessionAnswer(body.user ? { user: body.user, isEditor: true } : {}));
      }),
    );
    await user.type(await screen.findByLabelText(/^Username/), 'eve');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
    expect(await screen.findByRole('heading', { name: 'Upload page' })).toBeInTheDocument();
  });

  it('loads the page for an editor', async () => {
    as({ user: 'eve', isEditor: true });
    await renderApp('/upload');
    expect(await screen.findByRole('heading', { name: 'Upload page' })).toBeInTheDocument();
    expect(loaded.count).toBeGreaterThan(0);
  });
});
