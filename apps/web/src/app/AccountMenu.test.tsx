import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { api, sessionAnswer, sessionHandlers, server } from '../test/msw.ts';
import { renderApp } from '../test/renderApp.tsx';
import { MENU_CLOSE_DELAY, MENU_OPEN_DELAY } from './headerMenu.ts';
import { startTestServer } from '../test/testServer.ts';

startTestServer(server, 'bypass');

/** The account button; the first render loads the page's code, which takes a while on a busy machine. */
const findAccount = (name: string) => screen.findByRole('button', { name }, { timeout: 3000 });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A portal where `who` is logged in; logging out ends it and the next session is a guest's. */
function loggedIn(who: Parameters<typeof sessionAnswer>[0]) {
  let current = sessionAnswer({ session: 'named-token', ...who });
  const calls = { logout: 0 };
  server.use(
    http.post(api('session/get'), () => HttpResponse.json(current)),
    http.get(api('session/logout'), () => {
      calls.logout++;
      current = sessionAnswer();
      return HttpResponse.json({});
    }),
  );
  return calls;
}

describe('account entry in the header (portal-spec §2 "Navigation rules", "Login", §4 "Logout")', () => {
  it('offers a guest "Log in", which leads to the login page', async () => {
    server.use(...sessionHandlers(sessionAnswer()));
    const { router, user } = await renderApp('/bookmark');
    const banner = await screen.findByRole('banner');
    await user.click(await within(banner).findByRole('link', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 3000 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    // On the login page itself the entry would lead nowhere.
    expect(within(banner).queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
  });

  it('shows a logged-in user their name; the keyboard opens the menu, and it logs out', async () => {
    const calls = loggedIn({ user: 'anna' });
    const { router, user } = await renderApp('/bookmark');
    const account = await findAccount('Account of anna');
    expect(account).toHaveTextContent('anna');
    expect(account).toHaveAttribute('aria-haspopup', 'menu');
    account.focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(account).toHaveAttribute('aria-expanded', 'true');
    expect(account).toHaveAttribute('aria-controls', menu.id);
    expect(menu).toHaveTextContent('Logged in as anna');
    expect(within(menu).queryByRole('menuitem', { name: 'Administration' })).not.toBeInTheDocument();
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'My shares' })).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    const logout = within(menu).getByRole('menuitem', { name: 'Log out' });
    await waitFor(() => expect(logout).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Logged out' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/logout'), { timeout: 3000 });
    await waitFor(() => expect(calls.logout).toBe(1));
    expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Log in' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('token-of-the-session');
  });

  it('leads a GUI admin who is an asset user to the admin area and back to the portal', async () => {
    loggedIn({ user: 'ada', isGuiAdmin: true });
    const { router, user } = await renderApp('/bookmark');
    await user.click(await findAccount('Account of ada'));
    await user.click(await screen.findByRole('menuitem', { name: 'Administration' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Administration' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/general'), { timeout: 3000 });
    await user.click(screen.getByRole('button', { name: 'Account of ada' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'Administration' })).not.toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'Portal' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 3000 });
  });

  it('offers a GUI admin without portal access no way into the portal', async () => {
    loggedIn({ user: 'gui', isGuiAdmin: true, isAssetUser: false });
    const { user, router } = await renderApp('/admin/general');
    await user.click(await findAccount('Account of gui'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/general'), { timeout: 3000 });
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Log out']);
  });

  it('speaks German in German', async () => {
    loggedIn({ user: 'ada', isGuiAdmin: true });
    const { user } = await renderApp('/bookmark', { locale: 'de' });
    await user.click(await findAccount('Konto von ada'));
    const menu = await screen.findByRole('menu');
    expect(menu).toHaveTextContent('Angemeldet als ada');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Administration', 'Meine Freigaben', 'Abmelden']);
  });
});

describe('header menus (portal-spec §9: menu open delay 300 ms, close delay 250 ms)', () => {
  it('open when the pointer rests on the button and close after it left', async () => {
    loggedIn({ user: 'anna' });
    const { user } = await renderApp('/bookmark');
    const account = await findAccount('Account of anna');
    await user.hover(account);
    await sleep(MENU_OPEN_DELAY - 150);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    // Upper bounds are generous: a busy machine delays timers, never fires them early.
    const menu = await screen.findByRole('menu', {}, { timeout: 3000 });
    // Opened by the pointer, it leaves the focus where it was and hides nothing from assistive technology.
    expect(account).not.toHaveFocus();
    expect(account.closest('[aria-hidden="true"]')).toBeNull();
    expect(menu).toHaveAccessibleName('Logged in as anna');
    // Moving from the button into the menu keeps it open.
    await user.hover(within(menu).getByRole('menuitem', { name: 'Log out' }));
    await sleep(MENU_CLOSE_DELAY + 100);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.unhover(within(menu).getByRole('menuitem', { name: 'Log out' }));
    await sleep(MENU_CLOSE_DELAY - 150);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument(), { timeout: 3000 });
  });

  it('stay open, now with the focus in them, when the button is clicked after the pointer opened them', async () => {
    loggedIn({ user: 'anna' });
    const { user } = await renderApp('/bookmark');
    const account = await findAccount('Account of anna');
    await user.hover(account);
    await screen.findByRole('menu', {}, { timeout: 3000 });
    await user.click(account);
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'My shares' })).toHaveFocus());
    await sleep(MENU_CLOSE_DELAY + 100);
    expect(screen.getByRole('menu')).toBeInTheDocument();
  });

  it('do not open when the pointer only passes over the button', async () => {
    loggedIn({ user: 'anna' });
    const { user } = await renderApp('/bookmark');
    const account = await findAccount('Account of anna');
    await user.hover(account);
    await sleep(100);
    await user.unhover(account);
    await sleep(MENU_OPEN_DELAY + 100);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});
