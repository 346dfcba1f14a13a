import { renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, sessionAnswer } from '../test/sessionServer.ts';
import { getSessionToken } from '../lib/apiClient.ts';
import { login, resetSessionState, useSession } from './session.ts';

/** The server's answer to a password: 'right' logs anna in, 'forbidden' is refused with 403, else 500. */
const server = setupServer(
  http.post(api('session/get'), async ({ request }) => {
    const { pass } = (await request.json()) as { pass?: string };
    if (pass === 'right') return HttpResponse.json(sessionAnswer({ session: 'anna-token', user: 'anna' }));
    if (pass === 'forbidden') return HttpResponse.json({ error: 'forbidden', message: 'No access' }, { status: 403 });
    return HttpResponse.json({ error: 'internal', message: 'Something failed' }, { status: 500 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => resetSessionState());
afterAll(() => server.close());

describe('portal-spec §4 "Login": a refused login leaves nobody logged in', () => {
  it.each([
    ['403 sets unauthorized', 'forbidden', 'forbidden'],
    ['any other failure does the same', 'broken', 'failed'],
  ] as const)('%s: user, token and stored user are cleared', async (_title, pass, reason) => {
    const { result } = renderHook(() => useSession());
    expect(await login('anna', 'right')).toMatchObject({ ok: true });
    await waitFor(() => expect(result.current.status).toBe('success'));
    expect(getSessionToken()).toBe('anna-token');
    expect(Object.keys(localStorage)).toContain('user');

    expect(await login('anna', pass)).toEqual({ ok: false, reason });
    await waitFor(() => expect(result.current.status).toBe('unauthorized'));
    expect(result.current.session).toBeNull();
    expect(getSessionToken()).toBeNull();
    expect(Object.keys(localStorage)).not.toContain('user');
  });
});
