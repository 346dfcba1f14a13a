import { http, HttpResponse, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { configFileNames } from '@vitrine/contract/config';
import { defaultGlobalConfig, fillConfigDefaults } from '@vitrine/contract/global-config';
import { defaultTranslations } from '@vitrine/contract/translations';

export const api = (path: string) => `${API_BASE_PATH}${path}`;

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

/** A network for component tests: unhandled calls fail the test that made them. */
export const server = setupServer(...configHandlers());

export { defaultGlobalConfig };
