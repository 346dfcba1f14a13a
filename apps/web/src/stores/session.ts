import { useSyncExternalStore } from 'react';
import { checkSessionCall, checkVersionCall, getSessionCall, logoutCall } from '@vitrine/contract/endpoints';
import type { Session } from '@vitrine/contract/session';
import { pageOf, readRoutePath, readSearchQuery, routePath } from '@vitrine/contract/paths';
import { FRONTEND_VERSION, versionsMismatch } from '@vitrine/contract/version';
import { ApiError, callApi, getSessionToken, onSessionLost, setSessionToken } from '../lib/apiClient.ts';

/** Auth status values of portal-spec §4. */
export type AuthStatus = 'initial' | 'loading' | 'verifying' | 'success' | 'unauthorized';

export interface SessionState {
  status: AuthStatus;
  /** The session answer; null before the first answer and after a failure. */
  session: Session | null;
  /** The login methods of the last session answer; kept when a login fails. */
  loginMethods: Session['login'];
  /** Asset ids of a share link the portal was first opened with (portal-spec §2 "Navigation rules"). */
  sharedIds: string[];
}

export type LoginOutcome =
  | { ok: true; session: Session; backendVersion?: string }
  | { ok: false; reason: 'wrong' | 'blocked' | 'disabled' | 'forbidden' | 'failed'; minutes?: number };

const USER_KEY = 'user';

const initialState: SessionState = { status: 'initial', session: null, loginMethods: [], sharedIds: [] };
let state = initialState;
const listeners = new Set<() => void>();

function set(next: Partial<SessionState>): void {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

const hasRights = (s: Session) => s.isAssetUser || s.isGuiAdmin;

const callerListeners = new Set<() => void>();

/**
 * Calls `listener` whenever the caller changes (a login, a logout, a share link's session taking
 * over): what was fetched for the one before (hidden assets, bookmarks, rights) no longer holds.
 * The first session of a page load is no change.
 */
export function onCallerChange(listener: () => void): () => void {
  callerListeners.add(listener);
  return () => callerListeners.delete(listener);
}

/** Who the answers in the cache were fetched for: a session's user and token, '' for none yet. */
let caller: string | undefined;

function callerChanged(next: Session | null): void {
  const now = next ? JSON.stringify([next.user, next.session]) : '';
  const before = caller;
  caller = now;
  if (before === undefined || before === now) return;
  for (const l of callerListeners) l();
}

function store(session: Session): void {
  callerChanged(session);
  setSessionToken(session.session);
  localStorage.setItem(USER_KEY, JSON.stringify({ ...session, session: undefined }));
  set({ session, loginMethods: session.login, status: hasRights(session) ? 'success' : 'unauthorized' });
}

function clear(): void {
  callerChanged(null);
  setSessionToken(null);
  localStorage.removeItem(USER_KEY);
  set({ session: null, status: 'unauthorized' });
}

onSessionLost(clear);

/** Takes over the session of a share link a visitor opened (features/share/ShareLandingPage). */
export function enterShare(session: Session): void {
  store(session);
}

/** Keeps the `id` parameter of the first address (its query string) as cached shared ids. */
export function captureSharedIds(search: string): void {
  const { ids } = readSearchQuery(undefined, new URLSearchParams(search));
  if (ids.length > 0) set({ sharedIds: ids });
}

/**
 * Loads the session once for the address the visitor arrives at (portal-spec §2): shared ids in the
 * address are kept and a login address's single sign-on code is handed over. The app calls it before
 * its first render, so that the call runs while the first screen draws; the navigation guard calls it
 * as well (a reset session, component tests).
 */
export function startSession(pathname: string, search: string): Promise<void> {
  if (state.status !== 'initial') return Promise.resolve();
  captureSharedIds(search);
  const route = readRoutePath(`${pathname}${search}`);
  return loadSession(route?.page === 'login' ? route.code : undefined);
}

/**
 * Asks the server for the session: the stored token is reused while valid, otherwise the server opens
 * a guest session; `ssoCode`, the one-time code a single sign-on login came back with, is exchanged
 * in the request body for a session of its own.
 */
export async function loadSession(ssoCode?: string): Promise<void> {
  set({ status: 'loading' });
  try {
    store(await callApi(getSessionCall, ssoCode ? { body: { code: ssoCode } } : {}));
  } catch {
    clear();
  }
}

/** The session token the admin entry was last checked for. */
let checkedAdminSession: string | null | undefined;

/**
 * Entering the admin area asks the server whether the session is still valid and a GUI admin's
 * (admin-spec §2 "Admin entry guard"): the session loaded at the start may have expired or lost its
 * rights since. If not, the session is loaded again, and the navigation guard sends the visitor away.
 */
export async function checkAdminEntry(): Promise<void> {
  // Once per session: the session loaded again after a refusal is the server's own answer.
  const token = getSessionToken();
  if (token === checkedAdminSession) return;
  checkedAdminSession = token;
  const answer = await callApi(checkSessionCall).catch(() => undefined);
  if (answer && (!answer.sessionValid || !answer.isGuiAdmin)) {
    await loadSession();
    checkedAdminSession = getSessionToken();
  }
}

/** Logs in with credentials (portal-spec §4 "Login"); empty credentials reuse the session. */
export async function login(user: string, pass: string): Promise<LoginOutcome> {
  set({ status: 'verifying' });
  try {
    const session = await callApi(getSessionCall, { body: user || pass ? { user, pass } : {} });
    store(session);
    if (!session.isGuiAdmin) return { ok: true, session };
    return { ok: true, session, backendVersion: await backendVersionFor(session) };
  } catch (err) {
    clear();
    if (!(err instanceof ApiError)) return { ok: false, reason: 'failed' };
    if (err.body?.error === 'login_blocked') {
      return { ok: false, reason: 'blocked', minutes: err.body.retryAfterMinutes ?? 1 };
    }
    if (err.body?.error === 'account_disabled') return { ok: false, reason: 'disabled' };
    if (err.status === 401) return { ok: false, reason: 'wrong' };
    if (err.status === 403) return { ok: false, reason: 'forbidden' };
    return { ok: false, reason: 'failed' };
  }
}

/** The backend's version, asked for GUI admins only: they are warned of a mismatch at login (portal-spec §6). */
export async function backendVersionFor(session: Session): Promise<string | undefined> {
  if (!session.isGuiAdmin) return undefined;
  const { version } = await callApi(checkVersionCall).catch(() => ({ version: undefined }));
  return version;
}

/** Admins are warned when the backend's major or minor version differs (portal-spec §6). */
export const versionWarning = (backend: string | undefined) =>
  backend !== undefined && versionsMismatch(backend, FRONTEND_VERSION);

/** Ends the session on the server, forgets it here, then opens a fresh guest session (portal-spec §4 "Logout"). */
export async function logout(): Promise<void> {
  await callApi(logoutCall).catch(() => undefined);
  clear();
  await loadSession();
}

/**
 * Where a fresh login lands (portal-spec §2 "Navigation rules", admin-spec §2): GUI admins go to the
 * admin area, also when they are asset users; asset users to /. A share link the portal was opened
 * with wins for anyone who may use the portal, so following it survives the login.
 */
/**
 * A shared address a guest was sent to log in for (an asset or `/search/*?id=` they may not see):
 * kept for this tab, so that the login, also through single sign-on, comes back to it.
 */
const RETURN_KEY = 'vitrine.loginReturn';

/** Where the admin area starts (admin-spec §2). */
export const ADMIN_START = routePath({ page: 'admin', section: 'general' });

export function returnAfterLogin(path: string): void {
  sessionStorage.setItem(RETURN_KEY, path);
}

/** The portal's start: the dashboard, or the search page when the dashboard is hidden. */
export const startPath = (hideDashboard: boolean) => routePath({ page: hideDashboard ? 'search' : 'dashboard' });

/** Where a login lands: the shared address it was asked for, the shared ids, the admin area or home. */
export function landingPath(session: Session, sharedIds: string[]): string {
  const back = sessionStorage.getItem(RETURN_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  if (session.isAssetUser && back?.startsWith('/')) return back;
  if (session.isAssetUser && sharedIds.length) return routePath({ page: 'search', ids: sharedIds });
  if (session.isGuiAdmin) return ADMIN_START;
  return routePath({ page: 'dashboard' });
}

/**
 * Where the navigation rules send a visit to `path`, or undefined when it may stay. Routes with
 * global access (login, logout, reset-password) are never redirected.
 */
export function guardTarget(path: string, s: SessionState, from?: string): string | undefined {
  if (globalAccess(path)) return undefined;
  if (s.status === 'unauthorized' || !s.session || !hasRights(s.session)) return routePath({ page: 'login' });
  const admin = pageOf(path) === 'admin';
  // A refused entry: the page the visitor came from, or on a first load the dashboard (admin-spec §2).
  if (admin && !s.session.isGuiAdmin) return from ?? routePath({ page: 'dashboard' });
  // Uploads are for editors (issue #49): a guest logs in first, anyone else finds no such page.
  if (pageOf(path) === 'upload' && !s.session.isEditor) {
    return s.session.user ? (from ?? routePath({ page: 'dashboard' })) : routePath({ page: 'login' });
  }
  if (!admin && s.session.isGuiAdmin && !s.session.isAssetUser) return ADMIN_START;
  return undefined;
}

const globalPages: readonly (string | undefined)[] = ['login', 'logout', 'resetPassword', 'share'];
export const globalAccess = (path: string) => globalPages.includes(pageOf(path));

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, () => state);
}

/** Test support: back to the state of a fresh page. */
export function resetSessionState(): void {
  state = initialState;
  caller = undefined;
  checkedAdminSession = undefined;
}
