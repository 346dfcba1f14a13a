import { renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readRoutePath } from '@vitrine/contract/paths';
import { FRONTEND_VERSION } from '@vitrine/contract/version';
import { api, sessionAnswer } from '../test/sessionServer.ts';
import {
  guardTarget,
  landingPath,
  resetSessionState,
  startSession,
  useSession,
  versionWarning,
  type SessionState,
} from './session.ts';

const state = (over: Partial<SessionState['session']> & object = {}, status: SessionState['status'] = 'success') => ({
  status,
  session: sessionAnswer(over),
  loginMethods: [],
  sharedIds: [],
});

describe('after login (portal-spec §2 "Navigation rules")', () => {
  it('sends asset users to /, or to the shared ids they first opened', () => {
    expect(landingPath(sessionAnswer({ user: 'a' }), [])).toBe('/');
    expect(landingPath(sessionAnswer({ user: 'a' }), ['4', '9'])).toBe('/search/*?id=4,9');
  });

  it('keeps shared ids whole on the way through the login, whatever they hold', () => {
    const ids = ['4', 'a&id=9', 'b#c', 'd/e?f'];
    expect(readRoutePath(landingPath(sessionAnswer({ user: 'a' }), ids))).toMatchObject({ page: 'search', ids });
  });

  it('sends GUI admins without portal access to /admin/general', () => {
    expect(landingPath(sessionAnswer({ isAssetUser: false, isGuiAdmin: true }), ['4'])).toBe('/admin/general');
  });

  it('sends GUI admins who are also asset users to /admin/general, unless they opened a share link', () => {
    expect(landingPath(sessionAnswer({ user: 'ada', isGuiAdmin: true }), [])).toBe('/admin/general');
    expect(landingPath(sessionAnswer({ user: 'ada', isGuiAdmin: true }), ['7'])).toBe('/search/*?id=7');
  });
});

describe('guard (portal-spec §2 "Navigation rules")', () => {
  it('never redirects routes with global access', () => {
    for (const path of ['/login', '/logout', '/reset-password', '/share/x7', '/LOGIN']) {
      expect(guardTarget(path, state({ isAssetUser: false }, 'unauthorized'))).toBeUndefined();
    }
  });

  it('sends an unauthorized status to login even when the last answer had rights', () => {
    expect(guardTarget('/', state({}, 'unauthorized'))).toBe('/login');
  });

  it('lets an admin who is also an asset user anywhere', () => {
    const s = state({ isGuiAdmin: true });
    expect(guardTarget('/search/*', s)).toBeUndefined();
    expect(guardTarget('/admin/login', s)).toBeUndefined();
  });

  it('lets only editors upload: a guest goes to login, a user without the right back or home (issue #49)', () => {
    expect(guardTarget('/upload', state({ user: 'eve', isEditor: true }))).toBeUndefined();
    expect(guardTarget('/upload', state())).toBe('/login');
    expect(guardTarget('/upload', state({ user: 'ulf' }), '/bookmark')).toBe('/bookmark');
    expect(guardTarget('/upload', state({ user: 'ulf', isEditor: false }))).toBe('/');
  });
});

describe('version warning (portal-spec §6)', () => {
  it('warns on a major or minor difference only', () => {
    expect(versionWarning('7.0.9')).toBe(false);
    expect(versionWarning('7.1.0')).toBe(true);
    expect(versionWarning('8.0.6')).toBe(true);
    expect(versionWarning(undefined)).toBe(false);
  });
});

describe('the session loaded as the app starts (before its first render)', () => {
  const calls: { code?: unknown }[] = [];
  const server = setupServer(
    http.post(api('session/get'), async ({ request }) => {
      const text = await request.text();
      calls.push(text ? (JSON.parse(text) as { code?: unknown }) : {});
      return HttpResponse.json(sessionAnswer());
    }),
    http.get(api('info/check_version'), () => HttpResponse.json({ version: FRONTEND_VERSION })),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    calls.length = 0;
    resetSessionState();
  });
  afterAll(() => server.close());

  it('asks once, however often it is started, and keeps the shared ids of the address', async () => {
    const { result } = renderHook(() => useSession());
    void startSession('/search/*', '?id=4,9');
    void startSession('/search/*', '?id=4,9');
    await waitFor(() => expect(result.current.status).toBe('success'));
    expect(calls).toHaveLength(1);
    expect(result.current.sharedIds).toEqual(['4', '9']);
  });

  it("hands a login address's single sign-on code over", async () => {
    const { result } = renderHook(() => useSession());
    void startSession('/login', '?code=abc123');
    await waitFor(() => expect(result.current.status).toBe('success'));
    expect(calls).toEqual([{ code: 'abc123' }]);
  });
});
