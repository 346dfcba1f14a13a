import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashHistory, memoryHistory, Router, routerReady, type LoadableRoute } from './history.ts';

interface Route extends LoadableRoute<Route> {
  name?: string;
}

const table = (extra: Route[] = []): Route[] => [
  {
    name: 'shell',
    children: [
      { path: '/', name: 'home' },
      { path: '/a', name: 'a' },
      { path: '/b', name: 'b' },
      { path: '/admin', name: 'admin', children: [{ path: 'general', name: 'general' }] },
      ...extra,
    ],
  },
];

const memoryRouter = (entries?: string[], routes = table()) => new Router(routes, memoryHistory(entries));
const shown = (router: Router<Route>) => {
  const { location, matches } = router.state;
  return `${location.pathname}${location.search}${location.hash} ${matches.map((m) => m.route.name).join('>')}`;
};
/** A promise and the function that settles it. */
function gate<T = void>() {
  let release: (value: T) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const promise = new Promise<T>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  return { promise, release, fail };
}

describe('navigation over a memory history', () => {
  it('pushes, replaces and moves back and forth through the entries', async () => {
    const router = memoryRouter();
    expect(router.state.initialized).toBe(true);
    expect(shown(router)).toBe('/ shell>home');
    await router.navigate('/a?x=1#top');
    expect(shown(router)).toBe('/a?x=1#top shell>a');
    await router.navigate('/b', { replace: true });
    expect(shown(router)).toBe('/b shell>b');
    await router.navigate(-1);
    expect(shown(router)).toBe('/ shell>home');
    await router.navigate(1);
    expect(shown(router)).toBe('/b shell>b');
    // Moves past either end stay at the end.
    await router.navigate(5);
    expect(shown(router)).toBe('/b shell>b');
    await router.navigate(-5);
    expect(shown(router)).toBe('/ shell>home');
  });

  it('drops the entries ahead when it pushes after going back', async () => {
    const router = memoryRouter(['/', '/a', '/b']);
    await router.navigate(-2);
    expect(shown(router)).toBe('/ shell>home');
    await router.navigate('/admin/general');
    await router.navigate(1);
    expect(shown(router)).toBe('/admin/general shell>admin>general');
    await router.navigate(-1);
    expect(shown(router)).toBe('/ shell>home');
  });

  it('resolves a relative path against the current location and gives every location its own key', async () => {
    const router = memoryRouter(['/admin']);
    const first = router.state.location.key;
    await router.navigate('general');
    expect(shown(router)).toBe('/admin/general shell>admin>general');
    // Relative to the location's pathname (the React bindings resolve against the route instead).
    await router.navigate('..', { replace: true });
    expect(shown(router)).toBe('/admin shell>admin');
    await router.navigate(-1);
    expect(new Set([first, router.state.location.key]).size).toBe(2);
  });

  it('gives its listeners a new state for every change, until they unsubscribe', async () => {
    const router = memoryRouter();
    const states: unknown[] = [];
    const unsubscribe = router.subscribe(() => states.push(router.getState()));
    const before = router.getState();
    await router.navigate('/a');
    expect(states).toHaveLength(1);
    expect(states[0]).not.toBe(before);
    unsubscribe();
    await router.navigate('/b');
    expect(states).toHaveLength(1);
  });
});

describe('blockers (admin-spec §2 unsaved changes)', () => {
  const leavingAdmin = vi.fn(
    ({ nextLocation }: { nextLocation: { pathname: string } }) => !nextLocation.pathname.startsWith('/admin'),
  );
  afterEach(() => leavingAdmin.mockClear());

  it('hold a push or a replace until the visitor stays (reset) or leaves (proceed)', async () => {
    const router = memoryRouter(['/admin']);
    router.addBlocker('guard', leavingAdmin);
    await router.navigate('general');
    expect(shown(router)).toBe('/admin/general shell>admin>general');
    expect(router.blocker('guard').state).toBe('unblocked');

    await router.navigate('/a');
    expect(leavingAdmin).toHaveBeenLastCalledWith({
      currentLocation: expect.objectContaining({ pathname: '/admin/general' }),
      nextLocation: expect.objectContaining({ pathname: '/a' }),
    });
    expect(router.blocker('guard').state).toBe('blocked');
    expect(shown(router)).toBe('/admin/general shell>admin>general');
    router.blocker('guard').reset?.();
    expect(router.blocker('guard').state).toBe('unblocked');
    expect(shown(router)).toBe('/admin/general shell>admin>general');

    await router.navigate('/b', { replace: true });
    router.blocker('guard').proceed?.();
    expect(router.blocker('guard').state).toBe('unblocked');
    expect(shown(router)).toBe('/b shell>b');
    // The entry was replaced: back leads to /admin.
    await router.navigate(-1);
    expect(shown(router)).toBe('/admin shell>admin');
  });

  it('hold the back button, putting the history back until the visitor leaves', async () => {
    const router = memoryRouter(['/', '/admin']);
    router.addBlocker('guard', leavingAdmin);
    await router.navigate(-1);
    expect(router.blocker('guard').state).toBe('blocked');
    expect(shown(router)).toBe('/admin shell>admin');
    // Staying, then pressing back again, asks again; leaving then goes back without asking twice.
    router.blocker('guard').reset?.();
    await router.navigate(-1);
    expect(leavingAdmin).toHaveBeenCalledTimes(2);
    router.blocker('guard').proceed?.();
    expect(shown(router)).toBe('/ shell>home');
    expect(leavingAdmin).toHaveBeenCalledTimes(2);
    await router.navigate(1);
    expect(shown(router)).toBe('/admin shell>admin');
  });

  it('gives a new state when a blocker holds or lets go, and ask nothing once removed', async () => {
    const router = memoryRouter(['/admin']);
    router.addBlocker('guard', leavingAdmin);
    const listener = vi.fn();
    router.subscribe(listener);
    await router.navigate('/a');
    expect(listener).toHaveBeenCalledTimes(1);
    router.blocker('guard').reset?.();
    expect(listener).toHaveBeenCalledTimes(2);
    router.removeBlocker('guard');
    expect(router.blocker('guard')).toEqual({ state: 'unblocked' });
    await router.navigate('/a');
    expect(shown(router)).toBe('/a shell>a');
    expect(leavingAdmin).toHaveBeenCalledTimes(1);
  });
});

describe('screens loaded on demand', () => {
  it('keeps the location while the next route loads, with a loading state naming where it goes', async () => {
    const code = gate<{ name: string }>();
    const lazy = vi.fn(() => code.promise);
    const router = memoryRouter(['/'], table([{ path: '/slow', lazy }]));
    const going = router.navigate('/slow?x=1');
    expect(router.state.navigation).toMatchObject({
      state: 'loading',
      location: { pathname: '/slow', search: '?x=1' },
    });
    expect(shown(router)).toBe('/ shell>home');
    code.release({ name: 'slow' });
    await going;
    expect(router.state.navigation).toEqual({ state: 'idle' });
    expect(router.state.location).toMatchObject({ pathname: '/slow', search: '?x=1' });
    // What `lazy` gave is merged into the route; the code loads once.
    const route = router.state.matches[1]?.route;
    expect(route && router.content(route)).toMatchObject({ path: '/slow', name: 'slow' });
    await router.navigate('/');
    await router.navigate('/slow');
    expect(lazy).toHaveBeenCalledTimes(1);
    expect(router.state.navigation.state).toBe('idle');
  });

  it('is not initialized until the first location has loaded', async () => {
    const code = gate<{ name: string }>();
    const router = memoryRouter(['/first'], table([{ path: '/first', lazy: () => code.promise }]));
    expect(router.state).toMatchObject({ initialized: false, navigation: { state: 'loading' } });
    code.release({ name: 'first' });
    await vi.waitFor(() => expect(router.state.initialized).toBe(true));
    expect(router.state.location.pathname).toBe('/first');
  });

  it('is ready once its first route has loaded, and at once after that (the first render waits for it)', async () => {
    const code = gate<{ name: string }>();
    const router = memoryRouter(['/first'], table([{ path: '/first', lazy: () => code.promise }]));
    let ready = false;
    void routerReady(router).then(() => (ready = true));
    await Promise.resolve();
    expect(ready).toBe(false);
    code.release({ name: 'first' });
    await vi.waitFor(() => expect(ready).toBe(true));
    await expect(routerReady(router)).resolves.toBeUndefined();
  });

  it('shows only the last of two quick navigations', async () => {
    const code = gate<{ name: string }>();
    const router = memoryRouter(['/'], table([{ path: '/slow', lazy: () => code.promise }]));
    const slow = router.navigate('/slow');
    await router.navigate('/a');
    code.release({ name: 'slow' });
    await slow;
    expect(shown(router)).toBe('/a shell>a');
    await router.navigate(-1);
    expect(shown(router)).toBe('/ shell>home');
  });

  it('names the route whose code failed, and tries again on the next visit', async () => {
    let fail = true;
    const router = memoryRouter(
      ['/'],
      table([
        {
          path: '/flaky',
          lazy: async () => {
            if (fail) throw new Error('chunk gone');
            return { name: 'flaky' };
          },
        },
      ]),
    );
    await router.navigate('/flaky');
    expect(router.state).toMatchObject({ location: { pathname: '/flaky' }, errorAt: 1 });
    fail = false;
    await router.navigate('/');
    expect(router.state.errorAt).toBeUndefined();
    await router.navigate('/flaky');
    expect(router.state.errorAt).toBeUndefined();
    const route = router.state.matches[1]?.route;
    expect(route && router.content(route).name).toBe('flaky');
  });
});

describe('hash history (portal-spec §2: routes after #)', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('starts at #/ without a hash, writes routes after # and follows the browser back', async () => {
    window.history.replaceState(null, '', '/');
    const router = new Router(table([{ path: '/search/:query', name: 'search' }]), hashHistory(window));
    expect(window.location.hash).toBe('#/');
    expect(router.createHref('/search/beach?q=1')).toBe('#/search/beach?q=1');
    await router.navigate('/search/beach?q=1');
    expect(window.location.hash).toBe('#/search/beach?q=1');
    await router.navigate('/search/sea', { replace: true });
    expect(window.location.hash).toBe('#/search/sea');
    window.history.back();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(shown(router)).toBe('/ shell>home');
  });

  it('takes an address typed by hand as a new entry', async () => {
    window.history.replaceState(null, '', '/#/search/a');
    const router = new Router(table([{ path: '/search/:query', name: 'search' }]), hashHistory(window));
    expect(router.state.location.pathname).toBe('/search/a');
    window.location.hash = '#/search/b';
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/search/b'));
    expect(router.state.matches[1]?.params).toEqual({ query: 'b' });
    expect(window.history.state).toEqual({ idx: 1 });
  });
});
