import {
  createContext,
  useCallback,
  useContext,
  useDeferredValue,
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
import { readRoutePath, type PortalPage, type PortalRoute } from '@vitrine/contract/paths';
import {
  hashHistory,
  memoryHistory,
  Router,
  type Blocker,
  type BlockerFunction,
  type LoadableRoute,
  type NavigateOptions,
  type Navigation,
  type RouterState,
} from './history.ts';
import { parsePath, resolvePath, type Location, type Params, type RouteMatch } from './matching.ts';

/*
 * The router's React bindings: the route table's type (what each route shows), the routers over it,
 * `RouterProvider` drawing the matched routes nested through `Outlet`, the hooks the screens read
 * the router with, and `Navigate`, `Link` and `NavLink`. All it exports is the router's public API
 * (lib/router.tsx re-exports it whole); what only it uses stays unexported.
 *
 * Invariants:
 * - Components read the router's state through `useSyncExternalStore`, so a screen draws the state
 *   the router holds, never a mix of two. A store's update is drawn in one blocking task; the first
 *   screen is drawn from a deferred copy of the state instead, in a render React splits into short
 *   tasks (the search page's first screen was one task of 800 ms on a phone).
 * - Each matched route is drawn inside its own `RouteContext`: relative paths (`useNavigate`,
 *   `Link`, `Navigate`) resolve against the pathname its pattern matched, and `Outlet` shows the
 *   next route down.
 * - Until the first location's code has loaded, only the root's `hydrateFallbackElement` shows; a
 *   route whose code failed shows the nearest `errorElement` at or above it, with its parents around.
 * - A link is a real `<a href>` (the router's href: after `#` for the hash router); only a plain
 *   left click on a link to a route of the portal navigates in place.
 */

/** What a route's `lazy` resolves to. */
export interface RouteContent {
  element?: ReactNode;
  Component?: ComponentType;
}

export interface RouteObject extends RouteContent, LoadableRoute<RouteObject> {
  /** Loads the route's element or component the first time the route is visited. */
  lazy?: () => Promise<RouteContent>;
  /** Shown instead of everything until the first route's code has loaded (on the root route). */
  hydrateFallbackElement?: ReactNode;
  /** Shown in place of the route when its code could not be loaded. */
  errorElement?: ReactNode;
}
export type NonIndexRouteObject = RouteObject & { index?: false };

/** The router of the portal: routes live after `#` in the address (portal-spec §2). */
export function createHashRouter(routes: RouteObject[], win: Window = window): Router<RouteObject> {
  return new Router(routes, hashHistory(win));
}

/** A router over a list of entries in memory, for tests. */
export function createMemoryRouter(
  routes: RouteObject[],
  options: { initialEntries?: string[] } = {},
): Router<RouteObject> {
  return new Router(routes, memoryHistory(options.initialEntries));
}

const RouterContext = createContext<Router<RouteObject> | null>(null);
const StateContext = createContext<RouterState<RouteObject> | null>(null);

interface RouteLevel {
  /** The pathname relative links of this route resolve against. */
  base: string;
  outlet: ReactNode;
}
const RouteContext = createContext<RouteLevel>({ base: '/', outlet: null });

function useRouter(): Router<RouteObject> {
  const router = useContext(RouterContext);
  if (!router) throw new Error('This component needs a RouterProvider above it');
  return router;
}

function useRouterState(): RouterState<RouteObject> {
  const state = useContext(StateContext);
  if (!state) throw new Error('This component needs a RouterProvider above it');
  return state;
}

function renderMatches(
  router: Router<RouteObject>,
  state: RouterState<RouteObject>,
  boundary: number | undefined,
  i: number,
): ReactNode {
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
function errorBoundaryOf(state: RouterState<RouteObject>): number | undefined {
  if (state.errorAt === undefined) return undefined;
  for (let i = state.errorAt; i >= 0; i--) if (state.matches[i]?.route.errorElement !== undefined) return i;
  return state.errorAt;
}

export function RouterProvider({ router }: { router: Router<RouteObject> }) {
  const current = useSyncExternalStore(router.subscribe, router.getState);
  // The first screen is drawn from a deferred copy of the state, in a render React splits into short
  // tasks; later navigations are drawn at once, so a click never shows the old screen meanwhile.
  const deferred = useDeferredValue(current);
  const state = current.initialized && !deferred.initialized ? deferred : current;
  // Memoised on the state drawn: the store's blocking update leaves the fallback as it is.
  const screen = useMemo(
    () =>
      state.initialized
        ? renderMatches(router, state, errorBoundaryOf(state), 0)
        : (router.routes.find((r) => r.hydrateFallbackElement !== undefined)?.hydrateFallbackElement ?? null),
    [router, state],
  );
  return (
    <RouterContext.Provider value={router}>
      <StateContext.Provider value={state}>{screen}</StateContext.Provider>
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

export function useMatches(): Pick<RouteMatch<RouteObject>, 'id' | 'pathname' | 'params' | 'handle'>[] {
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
