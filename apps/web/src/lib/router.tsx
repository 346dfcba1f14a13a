/*
 * The portal's router: hash routes (portal-spec §2) with nested routes, screens whose code loads on
 * demand, the navigation state while it loads, and blockers for unsaved changes. It keeps the names
 * of the react-router API the screens were written against, but only the part the portal uses, so
 * the first screen's JavaScript stays small.
 *
 * This file is its one entry: the app imports the router from here, and lint refuses imports of its
 * parts from outside lib. The parts, in lib/router/:
 * - matching.ts: paths (parsePath, resolvePath) and choosing the routes that show a pathname
 *   (ranking the route table, matching with the contract's matcher); no React, no browser.
 * - history.ts: the Router (state, navigation, loading screens' code, blockers) and where it keeps
 *   its history (the browser's, under `#`, or a list in memory); no React.
 * - react.tsx: the route table's type, createHashRouter and createMemoryRouter over it,
 *   RouterProvider, Outlet, the hooks, Navigate, Link and NavLink; all it exports is public.
 */

export { parsePath, resolvePath, type Location, type Params, type RouteMatch } from './router/matching.ts';
export type { Blocker, BlockerFunction, NavigateOptions, Navigation, Router, RouterState } from './router/history.ts';
export { routerReady } from './router/history.ts';
// All the React bindings export is public: the components, hooks and route types the screens use.
export * from './router/react.tsx';
