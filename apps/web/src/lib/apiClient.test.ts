import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkSessionCall, convertSetsCall, getSessionCall } from '@vitrine/contract/endpoints';
import { api, createSessionServer } from '../test/sessionServer.ts';
import {
  ApiError,
  arrivedEarly,
  askEarly,
  callApi,
  earlyAnswersEnded,
  page,
  RELOAD_KEY,
  setRequestLanguage,
  setSessionToken,
} from './apiClient.ts';

const server = createSessionServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  window.location.hash = '';
  vi.restoreAllMocks();
});
afterAll(() => server.close());

const answer = (status: number) => () => HttpResponse.json({ error: 'x', message: 'x' }, { status });

describe('interceptor (portal-spec §7 "Calls")', () => {
  it('sends the session token and the XSRF cookie back as headers', async () => {
    let seen: Headers | undefined;
    server.use(
      http.get(api('session/check'), ({ request }) => {
        seen = request.headers;
        return HttpResponse.json({ isGuiAdmin: false, sessionValid: true });
      }),
    );
    setSessionToken('abc');
    document.cookie = 'XSRF-TOKEN=xyz';
    await callApi(checkSessionCall);
    expect(seen?.get('authorization')).toBe('Bearer abc');
    expect(seen?.get('x-xsrf-token')).toBe('xyz');
  });

  it('sends the interface language as Accept-Language, and sets no time limit of its own (admin-spec §7)', async () => {
    const seen: (string | null)[] = [];
    let signalled: boolean | undefined;
    server.use(
      http.get(api('session/check'), ({ request }) => {
        seen.push(request.headers.get('accept-language'));
        signalled = request.signal.aborted;
        return HttpResponse.json({ isGuiAdmin: false, sessionValid: true });
      }),
    );
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    const timer = vi.spyOn(window, 'setTimeout');
    setRequestLanguage('en');
    await callApi(checkSessionCall);
    setRequestLanguage('de');
    await callApi(checkSessionCall);
    expect(seen).toEqual(['en', 'de']);
    expect(signalled).toBe(false);
    // No timer and no timeout signal: a slow answer is waited for (admin-spec §7 "no default timeout").
    expect(timeout).not.toHaveBeenCalled();
    expect(timer).not.toHaveBeenCalled();
  });

  it('sends a 401 to login', async () => {
    server.use(http.get(api('session/check'), answer(401)));
    await expect(callApi(checkSessionCall)).rejects.toBeInstanceOf(ApiError);
    expect(window.location.hash).toBe('#/login');
  });

  it('reloads once on a 403, then goes to login on the next', async () => {
    const reload = vi.spyOn(page, 'reload').mockImplementation(() => undefined);
    server.use(http.get(api('session/check'), answer(403)));
    await expect(callApi(checkSessionCall)).rejects.toBeInstanceOf(ApiError);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(RELOAD_KEY)).toBe('1');
    await expect(callApi(checkSessionCall)).rejects.toBeInstanceOf(ApiError);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(window.location.hash).toBe('#/login');
    expect(localStorage.getItem(RELOAD_KEY)).toBeNull();
  });

  it('leaves 401 and 403 of the login call, and 403 of convert sets, to the caller', async () => {
    const reload = vi.spyOn(page, 'reload').mockImplementation(() => undefined);
    server.use(http.post(api('session/get'), answer(401)), http.get(api('session/csets'), answer(403)));
    await expect(callApi(getSessionCall, { body: { user: 'a', pass: 'b' } })).rejects.toMatchObject({ status: 401 });
    await expect(callApi(convertSetsCall, { query: { asset_id: '1' } })).rejects.toMatchObject({ status: 403 });
    expect(reload).not.toHaveBeenCalled();
    expect(window.location.hash).toBe('');
  });
});

describe('answers (the server validates them with the contract; the browser does not parse again)', () => {
  it('hands over an answer as the server sent it', async () => {
    server.use(http.get(api('session/check'), () => HttpResponse.json({ isGuiAdmin: true, sessionValid: true })));
    await expect(callApi(checkSessionCall)).resolves.toEqual({ isGuiAdmin: true, sessionValid: true });
  });

  it('keeps the error body of an error answer, and none when the answer is not one', async () => {
    const body = { error: 'validation', message: 'bad', details: [{ path: 'rows', message: 'too big' }] };
    server.use(http.get(api('session/check'), () => HttpResponse.json(body, { status: 400 })));
    await expect(callApi(checkSessionCall)).rejects.toMatchObject({ status: 400, body, message: 'bad' });
    server.use(http.get(api('session/check'), () => HttpResponse.text('upstream down', { status: 502 })));
    await expect(callApi(checkSessionCall)).rejects.toMatchObject({ status: 502, body: undefined });
  });
});

describe('answers asked early (decision 0244: the first render waits for them)', () => {
  const asker = { lang: 'en', token: 'early' };
  /** A session check whose answer comes when `release` is called. */
  function heldCheck(): () => void {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get(api('session/check'), async () => {
        await held;
        return HttpResponse.json({ isGuiAdmin: false, sessionValid: true });
      }),
    );
    return release;
  }

  it('ends once every call asked early has ended, one asked on an earlier answer included', async () => {
    const release = heldCheck();
    let asked = false;
    void askEarly(getSessionCall, {}, asker).then(() => {
      asked = true;
      void askEarly(checkSessionCall, {}, asker);
    });
    let ended = false;
    const waiting = earlyAnswersEnded(5_000).then(() => (ended = true));
    await vi.waitFor(() => expect(asked).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The session has come, the check asked on it has not.
    expect(ended).toBe(false);
    release();
    await waiting;
    expect(ended).toBe(true);
    // The answers are still there for the app's calls to take.
    setRequestLanguage('en');
    setSessionToken('early');
    expect(arrivedEarly(checkSessionCall, {})).toEqual({ isGuiAdmin: false, sessionValid: true });
  });

  it('waits no longer than it is told when a call does not end', async () => {
    const release = heldCheck();
    void askEarly(checkSessionCall, {}, { lang: 'en', token: 'hung' });
    const started = performance.now();
    await earlyAnswersEnded(100);
    expect(performance.now() - started).toBeLessThan(2_000);
    release();
  });
});
