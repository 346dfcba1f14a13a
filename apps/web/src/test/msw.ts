import { http, HttpResponse, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { API_BASE_PATH } from '@vitrine/contract/endpoints';
import { configFileNames, defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { fillConfigDefaults } from '@vitrine/contract/global-config';
import type { Session } from '@vitrine/contract/session';
import { defaultTranslations } from '@vitrine/contract/translations';

export const api = (path: string) => `${API_BASE_PATH}${path}`;

/**
 * The translation sets of English, German and one language an admin added (`lang`, holding `texts`),
 * as config/translations answers them; with `renderApp(…, { remoteTexts: true })`.
 */
export function addedLanguageHandler(lang: string, texts: Record<string, unknown>): RequestHandler {
  return http.get(api('config/translations'), ({ request }) => {
    const asked = new URL(request.url).searchParams.get('lang');
    if (!asked) return HttpResponse.json({ locales: ['de', 'en', lang] });
    if (asked === lang) return HttpResponse.json(texts);
    return HttpResponse.json(defaultTranslations[asked as 'en' | 'de']);
  });
}

/** The config calls as a server with nothing uploaded answers them, the config filled from `stored`. */
export function configHandlers(stored: Record<string, unknown> = {}): RequestHandler[] {
  return [
    http.get(api('config/global'), () => HttpResponse.json(fillConfigDefaults(stored))),
    http.get(api('config'), () => HttpResponse.json(Object.fromEntries(configFileNames.map((n) => [n, false])))),
    http.get(api('config/translations'), ({ request }) => {
      const lang = new URL(request.url).searchParams.get('lang');
      if (!lang) return HttpResponse.json({ locales: ['de', 'en'] });
      const set = (defaultTranslations as Record<string, unknown>)[lang];
      return set ? HttpResponse.json(set) : HttpResponse.json({ error: 'not_found', message: 'none' }, { status: 404 });
    }),
  ];
}

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

/** session/get, the version check and the right to share as a fresh portal answers them (no share links). */
export function sessionHandlers(session: Session = sessionAnswer()): RequestHandler[] {
  return [
    http.post(api('session/get'), () => HttpResponse.json(session)),
    http.get(api('info/check_version'), () => HttpResponse.json({ version: '7.0.6' })),
    // The admin entry check confirms whatever session a test's session/get answers; tests of the
    // check answer otherwise.
    http.get(api('session/check'), () => HttpResponse.json({ isGuiAdmin: true, sessionValid: true })),
    http.get(api('share/settings'), () => HttpResponse.json({ mayCreate: false, maxAssets: 1000, downloadSets: [] })),
  ];
}

/** A network for component tests: unhandled calls fail the test that made them. */
export const server = setupServer(...sessionHandlers(), ...configHandlers());

export { defaultGlobalConfig };
