import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configFileNames } from '@vitrine/contract/config-defaults';
import { fillConfigDefaults } from '@vitrine/contract/global-config';
import { renderApp } from '../../test/renderApp.tsx';
import { REDIRECT_HINT_MS, ssoNavigation } from './LoginPage.tsx';
import { configHandlers } from '../../test/msw.ts';
import { api, createSessionServer, sessionAnswer } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';

const server = createSessionServer();
startTestServer(server, 'error');
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

async function renderLogin(path = '/login', { locale = 'en', heading = 'Log in' } = {}) {
  const app = await renderApp(path, { locale });
  await screen.findByRole('heading', { level: 1, name: heading });
  return app;
}

/** Answers credentials: the right password logs `who` in, anything else is what `wrong` says. */
function credentials(who: Parameters<typeof sessionAnswer>[0], wrong: { status: number; body: object }) {
  server.use(
    http.post(api('session/get'), async ({ request }) => {
      const text = await request.text();
      const body = (text ? JSON.parse(text) : {}) as { pass?: string };
      if (!body.pass) return HttpResponse.json(sessionAnswer());
      if (body.pass === 'right') return HttpResponse.json(sessionAnswer({ session: 'new-token', ...who }));
      return HttpResponse.json(wrong.body, { status: wrong.status });
    }),
  );
}

const wrongAnswer = {
  status: 401,
  body: { error: 'wrong_credentials', message: 'Incorrect username or password' },
};

describe('login page (portal-spec §2 "Login", §4 "Login", §5 "Validation rules", §8 "Login")', () => {
  it('requires username and password with the global required text', async () => {
    const { user } = await renderLogin();
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    await user.type(screen.getByLabelText(/^Username/), 'anna');
    expect(screen.getAllByText('This field is required.')).toHaveLength(1);
  });

  it('shows the wrong-credentials toast for a wrong password', async () => {
    credentials({ user: 'anna' }, wrongAnswer);
    const { user, router } = await renderLogin();
    await user.type(screen.getByLabelText(/^Username/), 'anna');
    await user.type(screen.getByLabelText(/^Password/), 'nope');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect username or password');
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it.each([
    [1, 'one minute'],
    [14, '14 minutes'],
  ])('shows the blocked message with %s remaining minute(s)', async (minutes, text) => {
    credentials({}, { status: 401, body: { error: 'login_blocked', message: 'blocked', retryAfterMinutes: minutes } });
    const { user } = await renderLogin();
    await user.type(screen.getByLabelText(/^Username/), 'anna');
    await user.type(screen.getByLabelText(/^Password/), 'right?');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `You have had too many failed login attempts. No further login attempts possible for ${text}.`,
    );
  });

  it.each([
    ['an asset user', { user: 'anna' }, '/'],
    ['a GUI admin who is not an asset user', { user: 'ada', isAssetUser: false, isGuiAdmin: true }, '/admin/general'],
    ['a GUI admin who is also an asset user', { user: 'ada', isGuiAdmin: true }, '/admin/general'],
  ])('lands %s where the navigation rules say', async (_who, who, target) => {
    credentials(who, wrongAnswer);
    const { user, router } = await renderLogin();
    await user.type(screen.getByLabelText(/^Username/), 'anna');
    await user.type(screen.getByLabelText(/^Password/), 'right');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(target));
    expect(localStorage.getItem('token')).toBe('new-token');
  });

  it('warns an admin when the backend version differs in major or minor', async () => {
    credentials({ user: 'ada', isGuiAdmin: true }, wrongAnswer);
    server.use(http.get(api('info/check_version'), () => HttpResponse.json({ version: '7.1.0' })));
    const { user } = await renderLogin();
    await user.type(screen.getByLabelText(/^Username/), 'ada');
    await user.type(screen.getByLabelText(/^Password/), 'right');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    // The admin area it lands on may show its own notices beside the toast.
    await waitFor(() =>
      expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes('The server runs version 7.1.0'))).toBe(
        true,
      ),
    );
  });

  it('tells a user without rights so and shows the no-permission page', async () => {
    credentials({ user: 'nobody', isAssetUser: false }, wrongAnswer);
    const { user } = await renderLogin();
    await user.type(screen.getByLabelText(/^Username/), 'nobody');
    await user.type(screen.getByLabelText(/^Password/), 'right');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Account has no authorization');
    expect(await screen.findByRole('heading', { level: 1, name: 'No permission' })).toBeInTheDocument();
  });

  it('removes the reload counter of the interceptor', async () => {
    localStorage.setItem('reload', '1');
    await renderLogin();
    // An effect of the first screen, which runs after its deferred render has been painted.
    await waitFor(() => expect(localStorage.getItem('reload')).toBeNull());
  });

  it('reads the login settings from the one global config: no reset button by default, one config call', async () => {
    let calls = 0;
    server.use(
      http.get(api('config/global'), () => {
        calls++;
        return HttpResponse.json(fillConfigDefaults({}));
      }),
    );
    await renderLogin();
    await waitFor(() => expect(calls).toBe(1));
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reset password' })).not.toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toBe(1);
  });

  describe('branding (admin-spec §3 "login", portal-spec §9)', () => {
    // Handlers listed first answer first, so these go before configHandlers.
    const uploaded = (...names: string[]) =>
      http.get(api('config'), () =>
        HttpResponse.json(Object.fromEntries(configFileNames.map((n) => [n, names.includes(n)]))),
      );
    const paperOf = (el: HTMLElement) => el.closest('.MuiPaper-root') as HTMLElement;

    it('shows the uploaded logo and background with the configured sizes, heading case and text alignment', async () => {
      server.use(
        uploaded('loginLogo', 'loginHero'),
        ...configHandlers({
          login: {
            logoImage: { height: '12rem' },
            box: { max_width: '30rem' },
            headers: { transform: 'uppercase' },
            infoText: { alignment: 'right' },
          },
        }),
      );
      await renderLogin();
      const logo = await screen.findByRole('img', { name: 'Logo of Vitrine' });
      expect(logo).toHaveAttribute('src', '/assetportal/api/config/loginLogo');
      expect(getComputedStyle(logo).height).toBe('12rem');
      expect(getComputedStyle(screen.getByTestId('login-background')).backgroundImage).toBe(
        'url("/assetportal/api/config/loginHero")',
      );
      const heading = screen.getByRole('heading', { level: 1, name: 'Log in' });
      expect(getComputedStyle(heading).textTransform).toBe('uppercase');
      expect(getComputedStyle(paperOf(heading)).maxWidth).toBe('30rem');
      expect(getComputedStyle(screen.getByText(/^Welcome!/)).textAlign).toBe('right');
    });

    it('uses the defaults: logo 8rem high, box 40rem wide, no background without an upload', async () => {
      server.use(uploaded('loginLogo'));
      await renderLogin();
      expect(getComputedStyle(await screen.findByRole('img', { name: 'Logo of Vitrine' })).height).toBe('8rem');
      const heading = screen.getByRole('heading', { level: 1, name: 'Log in' });
      expect(getComputedStyle(paperOf(heading)).maxWidth).toBe('40rem');
      expect(getComputedStyle(screen.getByTestId('login-background')).backgroundImage).toBe('');
    });

    it('honours visibleLogos per screen: hidden on login, shown on logout', async () => {
      const visibleLogos = ['login', 'logout'].map((key) => ({
        key,
        translation: `admin.appearance.logos.${key}`,
        visible: key === 'logout',
      }));
      server.use(uploaded('loginLogo'), ...configHandlers({ visibleLogos }));
      const { router } = await renderLogin();
      await waitFor(() => expect(screen.getByRole('banner')).toBeInTheDocument());
      await new Promise((r) => setTimeout(r, 100));
      expect(screen.queryByRole('img', { name: 'Logo of Vitrine' })).not.toBeInTheDocument();
      await act(() => router.navigate('/logout'));
      expect(await screen.findByRole('img', { name: 'Logo of Vitrine' })).toBeInTheDocument();
    });
  });

  it('sends a reset link from the dialog: username required, submit disabled until valid, Enter submits', async () => {
    let sent: unknown;
    server.use(
      ...configHandlers({ login: { show_passwordReset: true } }),
      http.post(api('user/forgot-password'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ ok: true });
      }),
    );
    const { user } = await renderLogin();
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset password' });
    const submit = within(dialog).getByRole('button', { name: 'Send link' });
    expect(submit).toBeDisabled();
    const field = within(dialog).getByLabelText(/^Username/);
    await user.click(field);
    await user.tab();
    expect(within(dialog).getByText('Please enter a username.')).toBeInTheDocument();
    await user.type(field, 'anna{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('a link to set a new password is on its way');
    // The server writes the mail from its translations; the request carries the name only.
    expect(sent).toEqual({ user: 'anna' });
  });

  it('portal-spec §2 "Login" "A password-reset dialog (max width 500)": the dialog is at most 500 px wide', async () => {
    server.use(...configHandlers({ login: { show_passwordReset: true } }));
    const { user } = await renderLogin();
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset password' });
    // The dialog's own default would be 600 px (the "sm" breakpoint).
    expect(getComputedStyle(dialog).maxWidth).toBe('500px');
  });

  it.each([
    {
      locale: 'en',
      heading: 'Log in',
      reset: 'Reset password',
      username: /^Username/,
      send: 'Send link',
      failed: 'The password could not be reset. Please try again later.',
    },
    {
      locale: 'de',
      heading: 'Anmelden',
      reset: 'Passwort zurücksetzen',
      username: /^Benutzername/,
      send: 'Link senden',
      failed: 'Das Passwort konnte nicht zurückgesetzt werden. Bitte versuchen Sie es später erneut.',
    },
  ])(
    '§8 "Login" reset failed: says so as an error and keeps the dialog for another try ($locale)',
    async ({ locale, heading, reset, username, send, failed }) => {
      const asked: unknown[] = [];
      server.use(
        ...configHandlers({ login: { show_passwordReset: true } }),
        http.post(api('user/forgot-password'), async ({ request }) => {
          asked.push(await request.json());
          return HttpResponse.json({ error: 'internal', message: 'The mail server is down.' }, { status: 500 });
        }),
      );
      const { user } = await renderLogin('/login', { locale, heading });
      await user.click(screen.getByRole('button', { name: reset }));
      const dialog = await screen.findByRole('dialog', { name: reset });
      await user.type(within(dialog).getByLabelText(username), 'anna{Enter}');
      const notice = (await screen.findByText(failed)).closest('[role]');
      expect(notice).toHaveAttribute('role', 'alert');
      expect(notice).toHaveClass('MuiAlert-colorError');
      // The server's own words are not shown (portal-spec §8); the name stays for another try.
      expect(screen.queryByText('The mail server is down.')).toBeNull();
      expect(within(dialog).getByLabelText(username)).toHaveValue('anna');
      expect(within(dialog).getByRole('button', { name: send })).toBeEnabled();
      expect(asked).toEqual([{ user: 'anna' }]);
    },
  );

  it('§4 "Auth" verifying: while the credentials are checked, the log-in button shows it is busy and the others wait', async () => {
    let answer: () => void = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      ...configHandlers({ login: { show_passwordReset: true } }),
      http.post(api('session/get'), async ({ request }) => {
        const text = await request.text();
        const body = (text ? JSON.parse(text) : {}) as { pass?: string };
        const login = [
          { name: 'native', url: api('session/get') },
          { name: 'saml', url: '/assetportal/api/sso/saml/login' },
        ];
        if (!body.pass) return HttpResponse.json(sessionAnswer({ login }));
        await held;
        return HttpResponse.json(wrongAnswer.body, { status: wrongAnswer.status });
      }),
    );
    const { user } = await renderLogin();
    const reset = await screen.findByRole('button', { name: 'Reset password' });
    await user.type(screen.getByLabelText(/^Username/), 'anna');
    await user.type(screen.getByLabelText(/^Password/), 'nope');
    const logIn = screen.getByRole('button', { name: 'Log in' });
    expect(logIn).toBeEnabled();
    await user.click(logIn);
    await waitFor(() => expect(logIn).toBeDisabled());
    expect(within(logIn).getByRole('progressbar')).toBeInTheDocument();
    expect(reset).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Log in with SAML' })).toHaveAttribute('aria-disabled', 'true');

    answer();
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect username or password');
    await waitFor(() => expect(logIn).toBeEnabled());
    expect(within(logIn).queryByRole('progressbar')).toBeNull();
    expect(reset).toBeEnabled();
  });

  it('offers a button per external login method', async () => {
    server.use(
      http.post(api('session/get'), () =>
        HttpResponse.json(
          sessionAnswer({
            login: [
              { name: 'native', url: api('session/get') },
              { name: 'saml', url: '/assetportal/api/sso/saml/login' },
            ],
          }),
        ),
      ),
    );
    await renderLogin();
    expect(await screen.findByRole('link', { name: 'Log in with SAML' })).toHaveAttribute(
      'href',
      '/assetportal/api/sso/saml/login',
    );
  });

  it('exchanges the one-time code of ?code= in the request body for a session and lands where the navigation rules say', async () => {
    let body: unknown;
    let query = '';
    server.use(
      http.post(api('session/get'), async ({ request }) => {
        body = await request.json();
        query = new URL(request.url).search;
        return HttpResponse.json(sessionAnswer({ user: 'alice', session: 'sso-session' }));
      }),
    );
    const { router } = await renderApp('/login?code=one-time-code');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(body).toEqual({ code: 'one-time-code' });
    expect(query).toBe('');
    expect(router.state.location.search).toBe('');
    expect(localStorage.getItem('token')).toBe('sso-session');
  });

  it('warns an admin coming back from single sign-on when the backend version differs (portal-spec §6)', async () => {
    server.use(
      http.post(api('session/get'), () =>
        HttpResponse.json(sessionAnswer({ user: 'ada', isGuiAdmin: true, session: 'sso-session' })),
      ),
      http.get(api('info/check_version'), () => HttpResponse.json({ version: '7.1.0' })),
    );
    await renderApp('/login?code=one-time-code');
    await waitFor(() =>
      expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes('The server runs version 7.1.0'))).toBe(
        true,
      ),
    );
  });

  describe('single sign-on only (portal-spec §2 "Login", §9)', () => {
    const samlOnly = () =>
      server.use(
        http.post(api('session/get'), () =>
          HttpResponse.json(sessionAnswer({ login: [{ name: 'saml', url: '/assetportal/api/sso/saml/login' }] })),
        ),
      );

    it('stays on the page when the query parameter stay is absent', async () => {
      samlOnly();
      const assign = vi.spyOn(ssoNavigation, 'assign').mockImplementation(() => undefined);
      await renderLogin();
      expect(await screen.findByRole('link', { name: 'Log in with SAML' })).toBeInTheDocument();
      expect(screen.queryByRole('textbox', { name: /^Username/ })).not.toBeInTheDocument();
      expect(assign).not.toHaveBeenCalled();
    });

    it.each(['false', ''])(
      'redirects when stay is explicitly falsy (%j), with the fallback link after 5 s',
      async (stay) => {
        // The page's clock runs on as the real one does, and the test moves it on by the 5 s rather
        // than waiting them out.
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
        samlOnly();
        const assign = vi.spyOn(ssoNavigation, 'assign').mockImplementation(() => undefined);
        await renderLogin(`/login?stay=${stay}`);
        expect(await screen.findByText(/redirected to the login page of your organisation/)).toBeInTheDocument();
        expect(assign).toHaveBeenCalledWith('/assetportal/api/sso/saml/login');
        const started = Date.now();
        expect(screen.queryByRole('link', { name: /Continue to the login page/ })).not.toBeInTheDocument();
        act(() => {
          vi.advanceTimersByTime(REDIRECT_HINT_MS);
        });
        const fallback = await screen.findByRole('link', { name: /Continue to the login page/ }, { timeout: 2000 });
        expect(Date.now() - started).toBeGreaterThanOrEqual(REDIRECT_HINT_MS - 500);
        expect(fallback).toHaveAttribute('href', '/assetportal/api/sso/saml/login');
      },
      15_000,
    );
  });

  it('says so when a single sign-on login failed', async () => {
    await renderLogin('/login?sso=failed');
    expect(await screen.findByRole('alert')).toHaveTextContent('The login with your organisation did not succeed');
  });

  it('says an account is disabled when the server refuses it so (issue #50)', async () => {
    credentials(
      {},
      {
        status: 403,
        body: {
          error: 'account_disabled',
          message: 'This account is disabled. Please ask an administrator to enable it.',
        },
      },
    );
    const { user, router } = await renderLogin();
    await user.type(screen.getByLabelText(/^Username/), 'anna');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This account is disabled. Ask an administrator.');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('says so in German too', async () => {
    credentials({}, { status: 403, body: { error: 'account_disabled', message: 'disabled' } });
    const { user } = await renderApp('/login', { locale: 'de' });
    await user.type(await screen.findByLabelText(/^Benutzername/), 'anna');
    await user.type(screen.getByLabelText(/^Passwort/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Dieses Konto ist deaktiviert. Bitte wenden Sie sich an die Administration.',
    );
  });

  it('says an account is disabled when single sign-on comes back with sso=disabled', async () => {
    await renderLogin('/login?sso=disabled');
    expect(await screen.findByRole('alert')).toHaveTextContent('This account is disabled. Ask an administrator.');
  });

  it('says so in German after single sign-on', async () => {
    await renderApp('/login?sso=disabled', { locale: 'de' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Dieses Konto ist deaktiviert. Bitte wenden Sie sich an die Administration.',
    );
  });

  it('warns when there is no registration form for the language', async () => {
    server.use(
      ...configHandlers({ login: { register: { show_button: true, links: { de: 'https://example.org/de' } } } }),
    );
    const { user } = await renderLogin();
    await user.click(await screen.findByRole('button', { name: 'Request access' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No registration form was found for your language');
  });
});
