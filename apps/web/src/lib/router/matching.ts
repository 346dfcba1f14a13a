import { matchPath } from '@vitrine/contract/paths';

/*
 * The router's paths and matching: splitting and resolving paths, and choosing the routes of a nested
 * route table that show a pathname. Plain functions of their arguments, without React or the browser;
 * the Router (history.ts) ranks its table once and matches every location it goes to.
 *
 * Invariants:
 * - A route table is ranked once, best first: static segments beat parameters, which beat a splat
 *   (react-router's ranking); an index route wins a tie with its parent; equal scores keep the
 *   table's order. The first ranked branch whose pattern matches wins.
 * - Patterns are matched by the contract's `matchPath`, the matcher that also reads the portal's links
 *   (paths.ts): parameters come out decoded, static segments compare without case.
 * - A match list runs from the root to the matched route; every level carries the same parameters,
 *   and its `pathname` is the part of the path its own pattern matched (what relative links of that
 *   level resolve against).
 * - Only routes with a `path` or `index` end a branch; a layout route (neither) is matched only as the
 *   parent of one.
 */

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** Unique per history entry. */
  key: string;
}

export type Params = Record<string, string | undefined>;

/** What matching needs of a route; the React bindings' RouteObject adds what it shows. */
export interface RouteNode<R> {
  /** Absolute (`/search/:query`) or relative to the parent route (`general`); none for a layout. */
  path?: string;
  index?: boolean;
  handle?: unknown;
  children?: R[];
}

export interface RouteMatch<R> {
  id: string;
  route: R;
  params: Params;
  /** The part of the path this route matched. */
  pathname: string;
  handle: unknown;
}

/** A route that can end a match, with its parents: `id` is its place in the table (`0-3-1`). */
export interface Branch<R> {
  chain: { route: R; pattern: string; id: string }[];
  score: number;
}

/** Splits "/a/b?c=d#e" into its parts; a missing pathname is "/". */
export function parsePath(path: string, key: string): Location {
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

function flatten<R extends RouteNode<R>>(
  routes: R[],
  parentPattern: string,
  parents: Branch<R>['chain'],
  out: Branch<R>[],
  prefix: string,
) {
  routes.forEach((route, i) => {
    const pattern = route.index || route.path === undefined ? parentPattern : joinPaths(parentPattern, route.path);
    const chain = [...parents, { route, pattern, id: `${prefix}${i}` }];
    if (route.children?.length) flatten(route.children, pattern, chain, out, `${prefix}${i}-`);
    if (route.index || route.path !== undefined) out.push({ chain, score: scoreOf(pattern, route.index === true) });
  });
}

/** The branches of a route table, best first (the order `matchRoutes` tries them in). */
export function rankRoutes<R extends RouteNode<R>>(routes: R[]): Branch<R>[] {
  const branches: Branch<R>[] = [];
  flatten(routes, '/', [], branches, '');
  return branches.map((b, order) => ({ ...b, order })).sort((a, b) => b.score - a.score || a.order - b.order);
}

/** The routes from the root to the best route for a pathname; none when no route matches. */
export function matchRoutes<R extends RouteNode<R>>(branches: Branch<R>[], pathname: string): RouteMatch<R>[] {
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
