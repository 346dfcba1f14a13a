import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { matchPath, readRoutePath, type PortalPage, type PortalRoute } from '@vitrine/contract/paths';

/*
 * The portal's router: hash routes (portal-spec §2) with nested routes, screens whose code loads on
 * demand, the navigation state while it loads, and blockers for unsaved changes. It keeps the names
 * of the react-router API the screens were written against, but only the part the portal uses, so
 * the first screen's JavaScript stays small.
 */

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** Unique per history entry. */
  key: string;
}

/** What a route's `lazy` resolves to. */
export interface RouteContent {
  element?: ReactNode;
  Component?: ComponentType;
}

export interface RouteObject extends RouteContent {
  /** Absolute (`/search/:query`) or relative to the parent route (`general`); none for a layout. */
  path?: string;
  index?: boolean;
  /** Loads the route's element or component the first time the route is visited. */
  lazy?: () => Promise<RouteContent>;
  handle?: unknown;
  children?: RouteObject[];
  /** Shown instead of everything until the first route's code has loaded (on the root route). */
  hydrateFallbackElement?: ReactNode;
  /** Shown in place of the route when its code could not be loaded. */
  errorElement?: ReactNode;
}
export type NonIndexRouteObject = RouteObject & { index?: false };

export type Params = Record<string, string | undefined>;

export interface RouteMatch {
  id: string;
  route: RouteObject;
  params: Params;
  /** The part of the path this route matched. */
  pathname: string;
  handle: unknown;
}

export interface Navigation {
  state: 'idle' | 'loading';
  /** Where the router is going while a screen's code loads. */
  location?: Location;
}

export interface RouterState {
  location: Location;
  matches: RouteMatch[];
  navigation: Navigation;
  /** False until the first location's code has loaded. */
  initialized: boolean;
  /** The index of the match whose code could not be loaded. */
  errorAt?: number;
}

export interface NavigateOptions {
  replace?: boolean;
}

export type BlockerFunction = (args: { currentLocation: Location; nextLocation: Location }) => boolean;

export interface Blocker {
  state: 'unblocked' | 'blocked';
  /** Goes on to where the visitor wanted to go. */
  proceed?: () => void;
  /** Stays here. */
  reset?: () => void;
}

/** Where locations are kept: the browser's history under `#`, or a list in memory (tests). */
interface HistorySource {
  /** The current path ("/search/x?y#z") and the index of its history entry. */
  read(): { path: string; idx: number };
  write(path: string, idx: number, replace: boolean): void;
  go(delta: number): void;
  listen(onPop: () => void): void;
  href(path: string): string;
}

let keys = 0;
const nextKey = () => `${Date.now().toString(36)}-${(keys++).toString(36)}`;

/** Splits "/a/b?c=d#e" into its parts; a missing pathname is "/". */
export function parsePath(path: string, key = nextKey()): Location {
  let rest = path;
  let hash = '';
  let search = '';
  const h = rest.indexOf('#');
  if (h >= 0) {
    hash = rest.slice(h);
    rest = rest.slice(0, h);
  }
  const q = rest.indexOf('?');
  if (q >= 0) {
    search = rest.slice(q);
    rest = rest.slice(0, q);
  }
  return {
    pathname: rest || '/',
    search: search === '?' ? '' : search,
    hash: hash === '#' ? '' : hash,
    key,
  };
}

const pathOf = (l: Pick<Location, 'pathname' | 'search' | 'hash'>) => `${l.pathname}${l.search}${l.hash}`;

/** Resolves `to` ("general", "../x", "/abs?q") against the pathname of the route it is used in. */
export function resolvePath(to: string, base: string): string {
  if (to.startsWith('/')) return to;
  const { pathname, search, hash } = parsePath(to, '');
  const segments = base.split('/').filter(Boolean);
  if (to.startsWith('?') || to.startsWith('#')) return `${base}${search}${hash}`;
  for (const part of pathname.split('/')) {
    if (part === '..') segments.pop();
    else if (part && part !== '.') segments.push(part);
  }
  return `/${segments.join('/')}${search}${hash}`;
}

/* ---------- matching ---------- */

interface Branch {
  chain: { route: RouteObject; pattern: string; id: string }[];
  score: number;
}

const joinPaths = (parent: string, path: string) =>
  path.startsWith('/') ? path : `${parent.replace(/\/$/, '')}/${path}`;

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

/** The ranking of react-router: static parts beat parameters, which beat a splat; index routes win ties. */
function scoreOf(pattern: string, index: boolean): number {
  const segments = segmentsOf(pattern);
  let score = segments.length + (index ? 2 : 0);
  for (const s of segments) score += s === '*' ? -2 : s.startsWith(':') ? 3 : 10;
  return score;
}

function flatten(
  routes: RouteObject[],
  parentPattern: string,
  parents: Branch['chain'],
  out: Branch[],
  prefix: string,
) {
  routes.forEach((route, i) => {
    const pattern = route.index || route.path === undefined ? parentPattern : joinPaths(parentPattern, route.path);
    const chain = [...parents, { route, pattern, id: `${prefix}${i}` }];
    if (route.children?.length) flatten(route.children, pattern, chain, out, `${prefix}${i}-`);
    if (route.index || route.path !== undefined) out.push({ chain, score: scoreOf(pattern, route.index === true) });
  });
}

/** The routes from the root to the best route for a pathname. */
export function matchRoutes(branches: Branch[], pathname: string): RouteMatch[] {
  const segments = segmentsOf(pathname);
  for (const branch of branches) {
    const leaf = branch.chain[branch.chain.length - 1];
    if (!leaf) continue;
    // The contract's matcher, which also reads the portal's links (paths.ts).
    const params = matchPath(leaf.pattern, pathname);
    if (!params) continue;
    return branch.chain.map(({ route, pattern, id }) => {
      const own = segmentsOf(pattern).filter((s) => s !== '*').length;
      return {
        id,
        route,
        params,
        pathname: `/${segments.slice(0, Math.min(own, segments.length)).join('/')}`,
        handle: route.handle,
      };
    });
  }
  return [];
}

/* ---------- the router ---------- */

interface BlockerEntry {
  should: BlockerFunction;
  state: Blocker;
}

export class Router {
  state: RouterState;
  private readonly branches: Branch[];
  private readonly loaded = new Map<RouteObject, RouteContent>();
  private readonly loading = new Map<RouteObject, Promise<RouteContent>>();
  private readonly listeners = new Set<() => void>();
  private readonly blockers = new Map<string, BlockerEntry>();
  private navigationId = 0;
  private idx: number;
  /** A history move the router made itself (undoing a blocked back/forward): not a navigation. */
  private ignorePops = 0;
  private unblockNextPop = false;

  constructor(
    readonly routes: RouteObject[],
    private readonly history: HistorySource,
  ) {
    const branches: Branch[] = [];
    flatten(routes, '/', [], branches, '');
    this.branches = branches
      .map((b, order) => ({ ...b, order }))
      .sort((a, b) => b.score - a.score || a.order - b.order);
    const { path, idx } = history.read();
    this.idx = idx;
    const location = parsePath(path);
    this.state = { location, matches: [], navigation: { state: 'idle' }, initialized: false };
    history.listen(() => this.onPop());
    void this.go(location, 'pop');
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): RouterState => this.state;

  createHref(to: string): string {
    return this.history.href(to);
  }

  /** The element or component of a route (after its code loaded). */
  content(route: RouteObject): RouteContent {
    return this.loaded.get(route) ?? route;
  }

  /** Goes to an absolute path, or back and forth in the history by a number of entries. */
  navigate(to: string | number, options: NavigateOptions = {}): Promise<void> {
    if (typeof to === 'number') {
      this.history.go(to);
      return Promise.resolve();
    }
    const next = parsePath(resolvePath(to, this.state.location.pathname));
    const proceed = () => this.go(next, options.replace ? 'replace' : 'push');
    return this.blockedBy(next, () => void proceed()) ? Promise.resolve() : proceed();
  }

  /** Registers a blocker; it is asked before every navigation while registered. */
  addBlocker(id: string, should: BlockerFunction): void {
    this.blockers.set(id, { should, state: { state: 'unblocked' } });
  }

  removeBlocker(id: string): void {
    this.blockers.delete(id);
  }

  blocker(id: string): Blocker {
    return this.blockers.get(id)?.state ?? { state: 'unblocked' };
  }

  private setBlocker(entry: BlockerEntry, state: Blocker) {
    entry.state = state;
    // A new snapshot, so that the components using the blocker draw again.
    this.state = { ...this.state };
    this.emit();
  }

  /** True when a blocker holds the navigation; `proceed` runs when the visitor confirms. */
  private blockedBy(next: Location, proceed: () => void): boolean {
    for (const entry of this.blockers.values()) {
      if (!entry.should({ currentLocation: this.state.location, nextLocation: next })) continue;
      this.setBlocker(entry, {
        state: 'blocked',
        proceed: () => {
          this.setBlocker(entry, { state: 'unblocked' });
          proceed();
        },
        reset: () => this.setBlocker(entry, { state: 'unblocked' }),
      });
      return true;
    }
    return false;
  }

  private onPop() {
    if (this.ignorePops > 0) {
      this.ignorePops--;
      return;
    }
    const { path } = this.history.read();
    let { idx } = this.history.read();
    if (!Number.isFinite(idx)) {
      // An address typed by hand: a new entry after the current one.
      idx = this.idx + 1;
      this.history.write(path, idx, true);
    }
    const next = parsePath(path);
    const delta = idx - this.idx;
    const unblock = this.unblockNextPop;
    this.unblockNextPop = false;
    if (!unblock && delta !== 0 && Number.isFinite(delta)) {
      const blocked = this.blockedBy(next, () => {
        this.unblockNextPop = true;
        this.history.go(delta);
      });
      if (blocked) {
        // Back where the visitor was until they confirm.
        this.ignorePops++;
        this.history.go(-delta);
        return;
      }
    }
    this.idx = idx;
    void this.go(next, 'pop');
  }

  /** Loads the code of the routes of `next`, then shows it (and writes the history entry). */
  private async go(next: Location, action: 'push' | 'replace' | 'pop'): Promise<void> {
    const id = ++this.navigationId;
    const matches = matchRoutes(this.branches, next.pathname);
    const pending = matches.filter((m) => m.route.lazy && !this.loaded.has(m.route));
    let errorAt: number | undefined;
    if (pending.length > 0) {
      this.state = { ...this.state, navigation: { state: 'loading', location: next } };
      this.emit();
      const results = await Promise.allSettled(pending.map((m) => this.load(m.route)));
      if (id !== this.navigationId) return;
      const failed = results.findIndex((r) => r.status === 'rejected');
      if (failed >= 0) errorAt = matches.indexOf(pending[failed]);
    }
    if (action !== 'pop') {
      this.idx += action === 'push' ? 1 : 0;
      this.history.write(pathOf(next), this.idx, action === 'replace');
    }
    this.state = { location: next, matches, navigation: { state: 'idle' }, initialized: true, errorAt };
    this.emit();
  }

  private load(route: RouteObject): Promise<RouteContent> {
    let promise = this.loading.get(route);
    if (!promise) {
      const lazy = route.lazy as () => Promise<RouteContent>;
      promise = lazy().then(
        (content) => {
          this.loaded.set(route, { ...route, ...content });
          return content;
        },
        (error: unknown) => {
          // A later visit tries again (the portal may have been upgraded meanwhile).
          this.loading.delete(route);
          throw error;
        },
      );
      this.loading.set(route, promise);
    }
    return promise;
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }
}

interface EntryState {
  idx?: number;
}

/** The router of the portal: routes live after `#` in the address (portal-spec §2). */
export function createHashRouter(routes: RouteObject[], win: Window = window): Router {
  const read = () => ({
    path: win.location.hash.slice(1) || '/',
    idx: (win.history.state as EntryState | null)?.idx ?? Number.NaN,
  });
  const first = read();
  if (!win.location.hash || !Number.isFinite(first.idx)) {
    win.history.replaceState({ idx: 0 } satisfies EntryState, '', `#${first.path}`);
  }
  return new Router(routes, {
    read,
    write: (path, idx, replace) => {
      const state: EntryState = { idx };
      if (replace) win.history.replaceState(state, '', `#${path}`);
      else win.history.pushState(state, '', `#${path}`);
    },
    go: (delta) => win.history.go(delta),
    listen: (onPop) => win.addEventListener('popstate', onPop),
    href: (path) => `#${path}`,
  });
}

/** A router over a list of entries in memory, for tests. */
export function createMemoryRouter(routes: RouteObject[], options: { initialEntries?: string[] } = {}): Router {
  const entries = [...(options.initialEntries ?? ['/'])];
  let index = entries.length - 1;
  let onPop = () => {};
  return new Router(routes, {
    read: () => ({ path: entries[index] ?? '/', idx: index }),
    write: (path, idx, replace) => {
      if (replace) entries[index] = path;
      else {
        index = idx;
        entries.splice(index, entries.length, path);
      }
    },
    go: (delta) => {
      const to = Math.min(Math.max(index + delta, 0), entries.length - 1);
      if (to === index) return;
      index = to;
      onPop();
    },
    listen: (listener) => {
      onPop = listener;
    },
    href: (path) => path,
  });
}

/* ---------- React ---------- */

const RouterContext = createContext<Router | null>(null);
const StateContext = createContext<RouterState | null>(null);

interface RouteLevel {
  /** The pathname relative links of this route resolve against. */
  base: string;
  outlet: ReactNode;
}
const RouteContext = createContext<RouteLevel>({ base: '/', outlet: null });

function useRouter(): Router {
  const router = useContext(RouterContext);
  if (!router) throw new Error('This component needs a RouterProvider above it');
  return router;
}

function useRouterState(): RouterState {
  const state = useContext(StateContext);
  if (!state) throw new Error('This component needs a RouterProvider above it');
  return state;
}

function renderMatches(router: Router, state: RouterState, boundary: number | undefined, i: number): ReactNode {
  const match = state.matches[i];
  if (!match) return null;
  const level: RouteLevel = { base: match.pathname, outlet: null };
  let content: ReactNode;
  if (i === boundary) content = match.route.errorElement ?? null;
  else {
    level.outlet = renderMatches(router, state, boundary, i + 1);
    const { element, Component } = router.content(match.route);
    content = element !== undefined ? element : Component ? <Component /> : level.outlet;
  }
  return <RouteContext.Provider value={level}>{content}</RouteContext.Provider>;
}

/** The route that shows a load error: the deepest one at or above the failed route with an errorElement. */
function errorBoundaryOf(state: RouterState): number | undefined {
  if (state.errorAt === undefined) return undefined;
  for (let i = state.errorAt; i >= 0; i--) if (state.matches[i]?.route.errorElement !== undefined) return i;
  return state.errorAt;
}

export function RouterProvider({ router }: { router: Router }) {
  const state = useSyncExternalStore(router.subscribe, router.getState);
  return (
    <RouterContext.Provider value={router}>
      <StateContext.Provider value={state}>
        {state.initialized
          ? renderMatches(router, state, errorBoundaryOf(state), 0)
          : (router.routes.find((r) => r.hydrateFallbackElement !== undefined)?.hydrateFallbackElement ?? null)}
      </StateContext.Provider>
    </RouterContext.Provider>
  );
}

/** The child route's element, where a layout route shows it. */
export function Outlet() {
  return useContext(RouteContext).outlet;
}

export function useLocation(): Location {
  return useRouterState().location;
}

export function useNavigation(): Navigation {
  return useRouterState().navigation;
}

export function useMatches(): Pick<RouteMatch, 'id' | 'pathname' | 'params' | 'handle'>[] {
  return useRouterState().matches;
}

export function useParams(): Params {
  const { matches } = useRouterState();
  return matches[matches.length - 1]?.params ?? {};
}

/** The route shown, read with the contract's paths, when it is the route of `page`. */
export function usePortalRoute<P extends PortalPage>(page: P): Extract<PortalRoute, { page: P }> | undefined {
  const { pathname, search } = useLocation();
  return useMemo(() => {
    const route = readRoutePath(`${pathname}${search}`);
    return route?.page === page ? (route as Extract<PortalRoute, { page: P }>) : undefined;
  }, [pathname, search, page]);
}

export function useSearchParams(): [URLSearchParams] {
  const { search } = useLocation();
  return [useMemo(() => new URLSearchParams(search), [search])];
}

export type NavigateFunction = (to: string | number, options?: NavigateOptions) => Promise<void>;

/** Navigates from the route it is used in (relative paths resolve against it). */
export function useNavigate(): NavigateFunction {
  const router = useRouter();
  const { base } = useContext(RouteContext);
  return useCallback(
    (to, options) => router.navigate(typeof to === 'number' ? to : resolvePath(to, base), options),
    [router, base],
  );
}

/** Asks `should` before each navigation; the answer's state is 'blocked' while the visitor decides. */
export function useBlocker(should: BlockerFunction): Blocker {
  const router = useRouter();
  const id = useId();
  const latest = useRef(should);
  useLayoutEffect(() => {
    latest.current = should;
  });
  useEffect(() => {
    router.addBlocker(id, (args) => latest.current(args));
    return () => router.removeBlocker(id);
  }, [router, id]);
  useRouterState();
  return router.blocker(id);
}

export function Navigate({ to, replace }: { to: string } & NavigateOptions) {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(to, { replace });
  }, [navigate, to, replace]);
  return null;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  replace?: boolean;
  ref?: Ref<HTMLAnchorElement>;
}

const external = (to: string) => /^[a-z][a-z0-9+.-]*:/i.test(to) || to.startsWith('//');

function useLinkTarget(to: string, replace?: boolean) {
  const router = useRouter();
  const navigate = useNavigate();
  const { base } = useContext(RouteContext);
  const path = external(to) ? to : resolvePath(to, base);
  return {
    path,
    href: external(to) ? to : router.createHref(path),
    /** Navigates in place on a plain click; other clicks (new tab, a modifier) stay the browser's. */
    onClick: (event: MouseEvent<HTMLAnchorElement>) => {
      const target = event.currentTarget.getAttribute('target');
      if (event.defaultPrevented || external(to) || event.button !== 0 || (target && target !== '_self')) return;
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      void navigate(path, { replace });
    },
  };
}

/** A link to a route: a real `<a href>` (opens in a new tab as usual), navigating in place on a plain click. */
export function Link({ to, replace, onClick, ref, ...rest }: LinkProps) {
  const link = useLinkTarget(to, replace);
  return (
    <a
      {...rest}
      ref={ref}
      href={link.href}
      onClick={(event) => {
        onClick?.(event);
        link.onClick(event);
      }}
    />
  );
}

/** A link that is marked `aria-current="page"` and class `active` while its route is shown. */
export function NavLink({ className, ...props }: LinkProps) {
  const { pathname } = useLocation();
  const { base } = useContext(RouteContext);
  const target = parsePath(resolvePath(props.to, base), '').pathname.replace(/\/$/, '') || '/';
  const active = pathname === target || (target !== '/' && pathname.startsWith(`${target}/`));
  return (
    <Link
      {...props}
      className={[className, active ? 'active' : ''].filter(Boolean).join(' ') || undefined}
      aria-current={active ? 'page' : undefined}
    />
  );
}
