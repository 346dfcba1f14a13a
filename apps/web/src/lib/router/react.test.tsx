import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHashRouter,
  createMemoryRouter,
  Link,
  Navigate,
  NavLink,
  Outlet,
  RouterProvider,
  useBlocker,
  useLocation,
  useMatches,
  useNavigation,
  useParams,
  useSearchParams,
  type RouteObject,
} from './react.tsx';

function Where() {
  const { pathname, search, hash } = useLocation();
  const params = useParams();
  const [query] = useSearchParams();
  const navigation = useNavigation();
  const titles = useMatches()
    .map((m) => (m.handle as { title?: string } | undefined)?.title)
    .filter(Boolean);
  return (
    <p data-testid="where">
      {JSON.stringify({ pathname, search, hash, params, q: query.get('q'), nav: navigation.state, titles })}
    </p>
  );
}

const where = () => JSON.parse(screen.getByTestId('where').textContent ?? '{}') as Record<string, unknown>;

function Layout() {
  return (
    <div>
      <Where />
      <nav>
        <NavLink to="/admin/general">General</NavLink>
        <NavLink to="/admin/search">Search settings</NavLink>
        <Link to="/search/beach?q=1">Beach</Link>
      </nav>
      <main>
        <Outlet />
      </main>
    </div>
  );
}

const table = (extra: RouteObject[] = []): RouteObject[] => [
  {
    element: <Layout />,
    hydrateFallbackElement: <p>starting</p>,
    children: [
      { path: '/', element: <h1>home</h1>, handle: { title: 'Home' } },
      { path: '/search', element: <Navigate to="/" replace /> },
      { path: '/search/:query', element: <h1>search</h1>, handle: { title: 'Search' } },
      {
        path: '/admin',
        element: (
          <section>
            <h1>admin</h1>
            <Outlet />
          </section>
        ),
        handle: { title: 'Admin' },
        children: [
          { index: true, element: <Navigate to="general" replace /> },
          { path: 'general', element: <h2>general</h2>, handle: { title: 'General' } },
          { path: 'search', element: <h2>search settings</h2> },
        ],
      },
      ...extra,
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

afterEach(() => window.history.replaceState(null, '', '/'));

describe('matching (portal-spec §2 "Screens and routes")', () => {
  it('prefers static parts over parameters, decodes parameters and falls back to the catch-all route', async () => {
    const router = createMemoryRouter(table(), { initialEntries: ['/search/caf%C3%A9%20au%20lait?q=x#r'] });
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('heading', { name: 'search' })).toBeInTheDocument();
    expect(where()).toMatchObject({
      pathname: '/search/caf%C3%A9%20au%20lait',
      params: { query: 'café au lait' },
      q: 'x',
      hash: '#r',
      titles: ['Search'],
    });
    await act(() => router.navigate('/search'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await act(() => router.navigate('/no/such/page'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.getByRole('heading', { name: 'home' })).toBeInTheDocument();
  });

  it('redirects an index route relative to its parent and nests children in the outlet', async () => {
    const router = createMemoryRouter(table(), { initialEntries: ['/admin'] });
    render(<RouterProvider router={router} />);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/general'));
    expect(screen.getByRole('heading', { name: 'admin' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'general' })).toBeInTheDocument();
    expect(where().titles).toEqual(['Admin', 'General']);
    expect(screen.getByRole('link', { name: 'General' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'General' })).toHaveClass('active');
    expect(screen.getByRole('link', { name: 'Search settings' })).not.toHaveAttribute('aria-current');
  });
});

describe('links', () => {
  it('navigate in place on a plain click and leave modified clicks to the browser', async () => {
    const router = createMemoryRouter(table());
    render(<RouterProvider router={router} />);
    const link = screen.getByRole('link', { name: 'Beach' });
    expect(link).toHaveAttribute('href', '/search/beach?q=1');
    // A ctrl-click opens a new tab: the page stays.
    expect(fireEvent.click(link, { ctrlKey: true })).toBe(true);
    expect(router.state.location.pathname).toBe('/');
    expect(fireEvent.click(link)).toBe(false);
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/beach'));
    expect(router.state.location.search).toBe('?q=1');
  });

  it('resolve relative paths against the route they are drawn in, not the location', async () => {
    const router = createMemoryRouter(
      table([
        {
          path: '/shelf',
          element: (
            <>
              <Link to="books">Books</Link>
              <Outlet />
            </>
          ),
          children: [{ path: 'books/:id', element: <Link to="..">Up</Link> }],
        },
      ]),
      { initialEntries: ['/shelf/books/7'] },
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('link', { name: 'Books' })).toHaveAttribute('href', '/shelf/books');
    expect(screen.getByRole('link', { name: 'Up' })).toHaveAttribute('href', '/shelf/books');
  });

  it("carry the hash router's href, after #", () => {
    window.history.replaceState(null, '', '/');
    render(<RouterProvider router={createHashRouter(table())} />);
    expect(screen.getByRole('link', { name: 'Beach' })).toHaveAttribute('href', '#/search/beach?q=1');
  });
});

describe('screens loaded on demand', () => {
  it('keeps the page while the next screen loads, with a loading state naming where it goes', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const router = createMemoryRouter(
      table([
        {
          path: '/slow',
          lazy: async () => {
            await gate;
            return { element: <h1>slow screen</h1> };
          },
        },
      ]),
    );
    render(<RouterProvider router={router} />);
    act(() => void router.navigate('/slow?x=1'));
    await waitFor(() => expect(where().nav).toBe('loading'));
    expect(router.state.navigation.location?.pathname).toBe('/slow');
    expect(router.state.navigation.location?.search).toBe('?x=1');
    expect(screen.getByRole('heading', { name: 'home' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    await act(async () => release());
    expect(await screen.findByRole('heading', { name: 'slow screen' })).toBeInTheDocument();
    expect(where().nav).toBe('idle');
    expect(router.state.navigation.location).toBeUndefined();
  });

  it('shows the fallback until the first screen has loaded', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const routes = table([{ path: '/first', lazy: () => gate.then(() => ({ element: <h1>first</h1> })) }]);
    const router = createMemoryRouter(routes, { initialEntries: ['/first'] });
    render(<RouterProvider router={router} />);
    expect(screen.getByText('starting')).toBeInTheDocument();
    await act(async () => release());
    expect(await screen.findByRole('heading', { name: 'first' })).toBeInTheDocument();
  });

  it('shows the error element when a screen cannot be loaded, and loads it on the next visit', async () => {
    let fail = true;
    const router = createMemoryRouter(
      table([
        {
          path: '/flaky',
          lazy: async () => {
            if (fail) throw new Error('chunk gone');
            return { element: <h1>flaky screen</h1> };
          },
          errorElement: <p role="alert">could not load</p>,
        },
      ]),
    );
    render(<RouterProvider router={router} />);
    await act(() => router.navigate('/flaky'));
    expect(screen.getByRole('alert')).toHaveTextContent('could not load');
    // The shell around it stays.
    expect(screen.getByRole('navigation')).toBeInTheDocument();
    fail = false;
    await act(() => router.navigate('/'));
    await act(() => router.navigate('/flaky'));
    expect(screen.getByRole('heading', { name: 'flaky screen' })).toBeInTheDocument();
  });
});

function Guard() {
  const blocker = useBlocker(({ nextLocation }) => !nextLocation.pathname.startsWith('/admin'));
  return blocker.state === 'blocked' ? (
    <div role="dialog" aria-label="Unsaved changes">
      <button onClick={() => blocker.reset?.()}>Stay</button>
      <button onClick={() => blocker.proceed?.()}>Leave</button>
    </div>
  ) : null;
}

describe('blockers (admin-spec §2 unsaved changes)', () => {
  const guarded = () =>
    table([{ path: '/guarded', element: <Guard /> }]).map((root) => ({
      ...root,
      children: root.children?.map((r) =>
        r.path === '/admin'
          ? {
              ...r,
              element: (
                <>
                  <Guard />
                  <Outlet />
                </>
              ),
            }
          : r,
      ),
    }));

  it('hold a navigation until the visitor chooses to stay or leave', async () => {
    const router = createMemoryRouter(guarded(), { initialEntries: ['/admin/general'] });
    render(<RouterProvider router={router} />);
    // Within the admin area nothing is asked.
    await act(() => router.navigate('/admin/search'));
    expect(router.state.location.pathname).toBe('/admin/search');
    await act(() => router.navigate('/search/x'));
    expect(screen.getByRole('dialog', { name: 'Unsaved changes' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/search');
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/search');
    await act(() => router.navigate('/search/x'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Leave' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/x'));
  });

  it('hold the back button too, and go back when the visitor leaves', async () => {
    const router = createMemoryRouter(guarded(), { initialEntries: ['/', '/admin/general'] });
    render(<RouterProvider router={router} />);
    await act(() => router.navigate(-1));
    expect(screen.getByRole('dialog', { name: 'Unsaved changes' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/general');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Leave' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
