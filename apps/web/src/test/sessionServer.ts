import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { API_BASE_PATH } from '@vitrine/contract/call';
import type { Session } from '@vitrine/contract/session';

export const api = (path: string) => `${API_BASE_PATH}${path}`;

/** A session answer as the server gives it; a guest asset user unless told otherwise. */
export const sessionAnswer = (over: Partial<Session> = {}): Session => ({
  user: null,
  isAssetUser: true,
  isGuiAdmin: false,
  workspace: null,
  session: 'token-of-the-session',
  login: [{ name: 'native', url: api('session/get') }],
  ...over,
});

/** An msw server answering session/get (and the login config) like a fresh portal does. */
export function createSessionServer(session: Session = sessionAnswer()) {
  return setupServer(
    http.post(api('session/get'), () => HttpResponse.json(session)),
    http.get(api('config/global'), () => HttpResponse.json({})),
    http.get(api('info/check_version'), () => HttpResponse.json({ version: '7.0.6' })),
  );
}
