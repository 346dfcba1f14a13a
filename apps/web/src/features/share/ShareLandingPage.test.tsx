import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, sessionAnswer, server } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { startTestServer } from '../../test/testServer.ts';

startTestServer(server, 'bypass');

const TOKEN = 'a'.repeat(43);
const visit = { title: 'Press kit', assetIds: ['7'], downloadSets: [0], expiresAt: null };

/** share/open as the server answers it for a link with the password `open sesame`. */
function linkWithPassword() {
  const tried: (string | undefined)[] = [];
  server.use(
    http.post(api('share/open'), async ({ request }) => {
      const body = (await request.json()) as { token: string; password?: string };
      tried.push(body.password);
      if (body.token !== TOKEN) return HttpResponse.json({ error: 'not_found', message: 'no' }, { status: 404 });
      if (!body.password) {
        return HttpResponse.json({ error: 'share_password_required', message: 'p' }, { status: 401 });
      }
      if (body.password !== 'open sesame') {
        return HttpResponse.json({ error: 'wrong_share_password', message: 'w' }, { status: 401 });
      }
      return HttpResponse.json({ session: sessionAnswer({ session: 'visitor-token' }), share: visit });
    }),
  );
  return tried;
}

describe('share link landing (docs/security.md "Share links")', () => {
  it('asks for the password, says when it is wrong, then opens the shared assets with the link’s session', async () => {
    const tried = linkWithPassword();
    const { user, router } = await renderApp(`/share/${TOKEN}`);
    const field = await screen.findByLabelText('Password', {}, { timeout: 10_000 });
    expect(field).toHaveFocus();
    await user.type(field, 'guess{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('The password is not correct.');
    await user.clear(field);
    await user.type(field, 'open sesame');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/*'), { timeout: 3000 });
    expect(localStorage.getItem('token')).toBe('visitor-token');
    expect(tried).toEqual([undefined, 'guess', 'open sesame']);
  });

  it('says so, without a login detour, when the link is revoked, expired or unknown', async () => {
    linkWithPassword();
    const { router } = await renderApp(`/share/${'b'.repeat(43)}`);
    expect(await screen.findByText(/This share link cannot be opened/, {}, { timeout: 3000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/share/${'b'.repeat(43)}`);
  });
});
