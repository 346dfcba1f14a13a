import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from '../lib/router.tsx';
import { configFileNames } from '@vitrine/contract/config-defaults';
import { toast } from '../lib/toast.ts';
import { api, configHandlers, server } from '../test/msw.ts';
import { renderApp } from '../test/renderApp.tsx';
import { AppShell } from './AppShell.tsx';
import { createI18n } from '../stores/i18n.ts';
import { createQueryClient, Providers } from './Providers.tsx';
import { routes } from './routes.tsx';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => {
  server.resetHandlers();
  act(() => toast.clear());
  vi.useRealTimers();
});
afterAll(() => server.close());

describe('portal shell (portal-spec §2 "Navigation rules")', () => {
  it("ends the page's first paint of another screen on any screen it does not stand for (decisions 0242, 0244)", async () => {
    for (const page of ['dashboard', 'search', 'asset']) {
      const firstPaint = document.body.appendChild(document.createElement('div'));
      firstPaint.id = 'vt-first-paint';
      firstPaint.dataset.page = page;
      await renderApp('/bookmark');
      expect(await screen.findByRole('heading', { level: 1, name: 'Bookmarks' })).toBeInTheDocument();
      expect(document.getElementById('vt-first-paint')).toBeNull();
      cleanup();
    }
  });

  it("ends the page's first paint of its screen after five seconds, whatever that screen waits for (decision 0244)", async () => {
    // The page's clock runs on as the real one does, and the test moves it on by the seconds
    // rather than waiting them out.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    // The asset's answer never comes.
    server.use(http.get(api('assets'), () => new Promise<Response>(() => undefined)));
    const firstPaint = document.body.appendChild(document.createElement('div'));
    firstPaint.id = 'vt-first-paint';
    firstPaint.dataset.page = 'asset';
    await renderApp('/asset/42');
    expect(await screen.findByRole('button', { name: 'Back' }, { timeout: 10_000 })).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(4000);
    });
    expect(document.getElementById('vt-first-paint')).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    await waitFor(() => expect(document.getElementById('vt-first-paint')).toBeNull(), { timeout: 3000 });
  });

  it('titles the page with the configured website title, separator and page title', async () => {
    server.use(...configHandlers({ global: { website_title: 'Archiv' } }));
    await renderApp('/bookmark');
    await waitFor(() => expect(document.title).toBe('Archiv | Bookmarks'));
    expect(screen.getByRole('banner')).toHaveTextContent('Archiv');
  });

  it('switches the interface language, stores it and tells the server for a logged-in session', async () => {
    const locales: string[] = [];
    server.use(
      http.get(api('session/set_locale'), ({ request }) => {
        const locale = new URL(request.url).searchParams.get('locale') ?? '';
        locales.push(locale);
        return HttpResponse.json({ locale });
      }),
    );
    localStorage.setItem('token', 'a-session-token');
    await renderApp('/bookmark', { locale: 'de' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Merkliste' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /^Sprache/ }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'English' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Bookmarks' })).toBeInTheDocument();
    expect(localStorage.getItem('locale')).toBe('en');
    expect(locales).toEqual(['en']);
    expect(await screen.findByRole('alert')).toHaveTextContent('Language updated');
    expect(document.documentElement.lang).toBe('en');
  });

  it('reports a failed locale change on the server', async () => {
    server.use(http.get(api('session/set_locale'), () => HttpResponse.json({}, { status: 500 })));
    localStorage.setItem('token', 'a-session-token');
    await renderApp('/bookmark', { locale: 'de' });
    await userEvent.click(await screen.findByRole('button', { name: /^Sprache/ }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'English' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The language could not be changed.');
  });

  it('offers only the configured interface languages', async () => {
    server.use(...configHandlers({ visibleLocales: [{ lang: 'en', short: 'EN' }] }));
    await renderApp('/bookmark');
    await userEvent.click(await screen.findByRole('button', { name: /^Language: EN/ }));
    expect((await screen.findAllByRole('menuitemradio')).map((i) => i.textContent)).toEqual(['English']);
  });

  it('shows the unavailable notice when the config cannot be loaded and keeps it', async () => {
    let calls = 0;
    server.use(
      http.get(api('config/global'), () => {
        calls++;
        return HttpResponse.json({ error: 'internal', message: 'x' }, { status: 500 });
      }),
    );
    await renderApp('/bookmark');
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
        'The configuration could not be loaded. The portal runs with its default settings.',
        'The configuration could not be loaded.',
      ]),
    );
    // The portal still works with the defaults.
    expect(screen.getByRole('contentinfo')).toHaveTextContent('Imprint');
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toBe(1);
  });

  it('places footer entries per language: internal links as routes, external ones in a new tab', async () => {
    server.use(
      ...configHandlers({
        footer: {
          entries: [
            {
              translation: 'global.footer.privacy',
              is_linkable: true,
              position: 1,
              links: {
                en: { linkDirection: 'External', link: 'https://example.org/privacy', column: 'Left' },
                de: { linkDirection: 'Internal', link: '/custom', column: 'Left' },
              },
            },
            {
              translation: 'global.footer.imprint',
              is_linkable: true,
              position: 0,
              links: { en: { linkDirection: 'Internal', link: '/custom', column: 'Right' } },
            },
            {
              translation: 'global.footer.terms',
              is_linkable: true,
              position: 2,
              links: { en: { linkDirection: 'Internal', link: '/custom', column: 'None' } },
            },
          ],
        },
      }),
    );
    const { router } = await renderApp('/bookmark');
    const footer = await screen.findByRole('contentinfo');
    await waitFor(() => expect(within(footer).getByRole('link', { name: 'Privacy' })).toBeInTheDocument());
    const privacy = within(footer).getByRole('link', { name: 'Privacy' });
    expect(privacy).toHaveAttribute('href', 'https://example.org/privacy');
    expect(privacy).toHaveAttribute('target', '_blank');
    expect(within(footer).queryByText('Terms of use')).not.toBeInTheDocument();
    await userEvent.click(within(footer).getByRole('link', { name: 'Imprint' }));
    // The screen's code loads first, which takes a while on a busy machine.
    await waitFor(() => expect(router.state.location.pathname).toBe('/custom'), { timeout: 3000 });
  });

  it("shows an entry's own text in the visitor's language, else its translation", async () => {
    server.use(
      ...configHandlers({
        footer: {
          entries: [
            {
              translation: '',
              labels: { en: 'Press', de: 'Presse' },
              is_linkable: true,
              position: 0,
              links: { en: { linkDirection: 'External', link: 'https://press.example.org', column: 'Left' } },
            },
            {
              translation: 'global.footer.imprint',
              labels: { en: ' ', de: 'Impressum des Hauses' },
              is_linkable: false,
              position: 1,
              links: { en: { linkDirection: 'Internal', link: '', column: 'Right' } },
            },
          ],
        },
      }),
    );
    await renderApp('/bookmark');
    const footer = await screen.findByRole('contentinfo');
    await waitFor(() => expect(within(footer).getByRole('link', { name: 'Press' })).toBeInTheDocument());
    expect(within(footer).getByRole('link', { name: 'Press' })).toHaveAttribute('href', 'https://press.example.org');
    // A text of blanks is no text: the translation shows.
    expect(within(footer).getByText('Imprint')).toBeInTheDocument();
  });

  it('shows the uploaded header logo on the screens visibleLogos allows, the website title elsewhere', async () => {
    server.use(
      http.get(api('config'), () =>
        HttpResponse.json(Object.fromEntries(configFileNames.map((n) => [n, n === 'logo']))),
      ),
      ...configHandlers({
        visibleLogos: [{ key: 'bookmark', translation: 'admin.appearance.logos.bookmark', visible: false }],
      }),
    );
    const { router } = await renderApp('/custom');
    const banner = await screen.findByRole('banner');
    expect(await within(banner).findByRole('img', { name: 'Logo of Vitrine' })).toHaveAttribute(
      'src',
      '/assetportal/api/config/logo',
    );
    await act(() => router.navigate('/bookmark'));
    await screen.findByRole('heading', { level: 1, name: 'Bookmarks' }, { timeout: 3000 });
    expect(within(banner).queryByRole('img', { name: 'Logo of Vitrine' })).not.toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: 'Vitrine' })).toBeInTheDocument();
  });

  it('announces the page it navigated to', async () => {
    await renderApp('/bookmark');
    await waitFor(() => expect(screen.getByText('Navigated to Vitrine | Bookmarks')).toBeInTheDocument(), {
      timeout: 2000,
    });
  });
});

describe('page-loading flag (portal-spec §2 "Navigation rules")', () => {
  it('shows while the next screen loads, over the screen that is still shown', async () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const router = createMemoryRouter(
      [
        {
          element: <AppShell />,
          children: [
            { path: '/', element: <p>first screen</p> },
            {
              path: '/next',
              lazy: async () => {
                await gate;
                return { element: <p>next screen</p> };
              },
            },
          ],
        },
      ],
      { initialEntries: ['/'] },
    );
    localStorage.setItem('locale', 'en');
    render(
      <Providers i18n={await createI18n()} queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </Providers>,
    );
    await screen.findByText('first screen', {}, { timeout: 3000 });
    const banner = screen.getByRole('banner');
    expect(within(banner).queryByRole('progressbar')).not.toBeInTheDocument();
    act(() => void router.navigate('/next'));
    expect(await within(banner).findByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('first screen')).toBeInTheDocument();
    act(() => release());
    expect(await screen.findByText('next screen')).toBeInTheDocument();
    expect(within(banner).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('applies to every screen: the route table loads screens through the router', () => {
    const screens = (routes[0]?.children ?? []).filter((r) => r.path !== '*' && r.element === undefined);
    expect(screens.map((r) => r.path)).toEqual([
      '/',
      '/login',
      '/logout',
      '/reset-password',
      '/search/:query',
      '/asset/:id',
      '/bookmark',
      '/shares',
      '/share/:token',
      '/custom',
      // The editors' bin and duplicates report (the upload page is its own element: it loads its code
      // only for editors).
      '/bin',
      '/duplicates',
      '/admin',
    ]);
    for (const r of screens) expect(typeof r.lazy).toBe('function');
  });
});

describe('icon-button tooltips (portal-spec §9)', () => {
  it('show on top, multiline, at most 275 px wide, instead of title attributes', async () => {
    const { user } = await renderApp('/bookmark');
    const theme = await screen.findByRole('button', { name: 'Theme' });
    expect(theme).not.toHaveAttribute('title');
    // The button sits in the header, with room above it for the tooltip.
    vi.spyOn(theme, 'getBoundingClientRect').mockReturnValue(new DOMRect(600, 60, 40, 40));
    await user.hover(theme);
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent('Theme');
    expect(tooltip).toHaveAttribute('data-placement', 'top');
    expect(getComputedStyle(tooltip).maxWidth).toBe('275px');
    expect(getComputedStyle(tooltip).whiteSpace).toBe('pre-line');
    // The pointer may move onto the tooltip (WCAG 1.4.13 hoverable); Escape dismisses it.
    await user.unhover(theme);
    await user.hover(tooltip);
    await sleep(300);
    expect(screen.getByRole('tooltip')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    // It fades out first; on a busy machine that takes longer than waitFor's default second.
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument(), { timeout: 5000 });
    await user.unhover(tooltip);
    // The rail's entries name themselves the same way.
    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    const rail = screen.getByRole('navigation', { name: 'Main navigation' });
    const search = within(rail).getByRole('link', { name: 'Search' });
    expect(search).not.toHaveAttribute('title');
    await user.hover(search);
    await waitFor(() => expect(screen.getByRole('tooltip')).toHaveTextContent('Search'));
  });
});

describe('hash anchors (portal-spec §2 "Navigation rules")', () => {
  it('scroll below the header: 76 px elsewhere, 212 px on search; no anchor scrolls to the top', async () => {
    const scroll = vi.spyOn(window, 'scrollTo');
    const calls = scroll.mock.calls as unknown as [number, number][];
    try {
      const { router } = await renderApp('/bookmark');
      await screen.findByRole('heading', { level: 1, name: 'Bookmarks' });
      // A screen is drawn in a deferred render, whose effects run after the browser painted it.
      await waitFor(() => expect(calls.at(-1)).toEqual([0, 0]));
      await act(() => router.navigate('/bookmark#main'));
      await waitFor(() => expect(calls.at(-1)).toEqual([0, -76]));
      await act(() => router.navigate('/search/*#main'));
      await screen.findByRole('heading', { level: 1, name: 'Search' });
      await waitFor(() => expect(calls.at(-1)).toEqual([0, -212]));
    } finally {
      scroll.mockRestore();
    }
  });
});
