import {
  matchRoutes,
  parsePath,
  rankRoutes,
  resolvePath,
  type Branch,
  type Location,
  type RouteMatch,
  type RouteNode,
} from './matching.ts';

/*
 * The router's state and navigation, without React: the `Router` goes to a location (loading the
 * code of its routes first), keeps the history entry and asks the blockers, and its history comes
 * from a source: the browser's history under `#` (hashHistory) or a list in memory (memoryHistory,
 * for tests). The React bindings (react.tsx) subscribe to its state and draw it.
 *
 * Invariants:
 * - `state` is replaced, never changed in place, and listeners hear of every new state; a blocker
 *   changing state gives a new snapshot too, so that the components using it draw again.
 * - A location is shown only once the code of all its routes has loaded (or failed: `errorAt`);
 *   meanwhile `navigation` is 'loading' with the location it goes to. Of two navigations in flight
 *   only the last is shown.
 * - Pushes and replaces write the history entry when the location is shown; back and forward
 *   (`navigate(-1)`, the browser's buttons) have moved the entry already.
 * - `idx` is the index of the current history entry; every entry the router writes carries its
 *   index, so a move back or forward knows its distance. An address typed by hand has none and
 *   becomes a new entry after the current one.
 * - A blocker that holds a back or forward move puts the history back where it was (a move the
 *   router ignores) until the visitor confirms; then the move is made again, unasked.
 * - A route's `lazy` runs once; a failure is forgotten, so that a later visit tries again.
 */

/** A route the router can load: what its `lazy` resolves to is merged into the route. */
export interface LoadableRoute<R> extends RouteNode<R> {
  /** Loads the rest of the route (what it shows) the first time the route is visited. */
  lazy?: () => Promise<Partial<R>>;
}

export interface Navigation {
  state: 'idle' | 'loading';
  /** Where the router is going while a screen's code loads. */
  location?: Location;
}

export interface RouterState<R> {
  location: Location;
  matches: RouteMatch<R>[];
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
  /** Where the visitor wanted to go, while blocked. */
  location?: Location;
  /** Goes on to where the visitor wanted to go. */
  proceed?: () => void;
  /** Stays here. */
  reset?: () => void;
}

/** Where locations are kept: the browser's history under `#`, or a list in memory (tests). */
export interface HistorySource {
  /** The current path ("/search/x?y#z") and the index of its history entry. */
  read(): { path: string; idx: number };
  write(path: string, idx: number, replace: boolean): void;
  go(delta: number): void;
  listen(onPop: () => void): void;
  href(path: string): string;
}

let keys = 0;
/** A location with a key of its own, for a new history entry. */
const locationOf = (path: string) => parsePath(path, `${Date.now().toString(36)}-${(keys++).toString(36)}`);

const pathOf = (l: Pick<Location, 'pathname' | 'search' | 'hash'>) => `${l.pathname}${l.search}${l.hash}`;

interface BlockerEntry {
  should: BlockerFunction;
  state: Blocker;
}

export class Router<R extends LoadableRoute<R>> {
  state: RouterState<R>;
  private readonly branches: Branch<R>[];
  private readonly loaded = new Map<R, R>();
  private readonly loading = new Map<R, Promise<Partial<R>>>();
  private readonly listeners = new Set<() => void>();
  private readonly blockers = new Map<string, BlockerEntry>();
  private navigationId = 0;
  private idx: number;
  /** A history move the router made itself (undoing a blocked back/forward): not a navigation. */
  private ignorePops = 0;
  private unblockNextPop = false;

  constructor(
    readonly routes: R[],
    private readonly history: HistorySource,
  ) {
    this.branches = rankRoutes(routes);
    const { path, idx } = history.read();
    this.idx = idx;
    const location = locationOf(path);
    this.state = { location, matches: [], navigation: { state: 'idle' }, initialized: false };
    history.listen(() => this.onPop());
    void this.go(location, 'pop');
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): RouterState<R> => this.state;

  createHref(to: string): string {
    return this.history.href(to);
  }

  /** A route with what its `lazy` gave it (after its code loaded). */
  content(route: R): R {
    return this.loaded.get(route) ?? route;
  }

  /** Goes to a path (relative ones from the current location), or back and forth by a number of entries. */
  navigate(to: string | number, options: NavigateOptions = {}): Promise<void> {
    if (typeof to === 'number') {
      this.history.go(to);
      return Promise.resolve();
    }
    const next = locationOf(resolvePath(to, this.state.location.pathname));
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
        location: next,
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
    const next = locationOf(path);
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
      if (failed >= 0) errorAt = matches.indexOf(pending[failed]!);
    }
    if (action !== 'pop') {
      this.idx += action === 'push' ? 1 : 0;
      this.history.write(pathOf(next), this.idx, action === 'replace');
    }
    this.state = { location: next, matches, navigation: { state: 'idle' }, initialized: true, errorAt };
    this.emit();
  }

  private load(route: R): Promise<Partial<R>> {
    let promise = this.loading.get(route);
    if (!promise) {
      const lazy = route.lazy as () => Promise<Partial<R>>;
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

/** The browser's history, routes after `#` in the address (portal-spec §2); its first entry gets index 0. */
export function hashHistory(win: Window): HistorySource {
  const read = () => ({
    path: win.location.hash.slice(1) || '/',
    idx: (win.history.state as EntryState | null)?.idx ?? Number.NaN,
  });
  const first = read();
  if (!win.location.hash || !Number.isFinite(first.idx)) {
    win.history.replaceState({ idx: 0 } satisfies EntryState, '', `#${first.path}`);
  }
  return {
    read,
    write: (path, idx, replace) => {
      const state: EntryState = { idx };
      if (replace) win.history.replaceState(state, '', `#${path}`);
      else win.history.pushState(state, '', `#${path}`);
    },
    go: (delta) => win.history.go(delta),
    listen: (onPop) => win.addEventListener('popstate', onPop),
    href: (path) => `#${path}`,
  };
}

/**
 * A history in memory (tests), at the last of `initialEntries`. Moves stop at either end, and
 * happen at once: the listener hears of them before `go` returns.
 */
export function memoryHistory(initialEntries: string[] = ['/']): HistorySource {
  const entries = [...initialEntries];
  let index = entries.length - 1;
  let onPop = () => {};
  return {
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
  };
}

/** Settles once the router has gone to its first location: its route's code loaded (`initialized`). */
export function routerReady<R extends LoadableRoute<R>>(router: Router<R>): Promise<void> {
  return new Promise((resolve) => {
    if (router.getState().initialized) return resolve();
    const stop = router.subscribe(() => {
      if (!router.getState().initialized) return;
      stop();
      resolve();
    });
  });
}
