import type { BootData } from '@vitrine/contract/boot';
import { assetsCall, getSessionCall, previewCall } from '@vitrine/contract/endpoints';
import { readRoutePath } from '@vitrine/contract/paths';
import { askEarly, getSessionToken, type Asker } from './apiClient.ts';
import { pickLocale } from './locale.ts';
import { preloadPicture } from './pictures.ts';

/**
 * Asks, as the app's code starts (app/firstScreen.ts), for what its first screen waits on: the
 * session (stores/session.ts asks for it only after the shell's code has run), and on an asset's
 * page, once the session has answered, the asset and its preview with that session's token, then the
 * preview picture. Answers who asks once the session has answered (its language and token), for
 * further early calls (the search page's, app/firstScreen.ts), or undefined when nothing was asked or
 * the session call failed. The app's own calls take these answers (apiClient askEarly) when they are the same
 * request: same address, language and session token; any other caller asks again.
 *
 * Nothing is asked without the page's boot data (development, tests), which gives the language the
 * app will pick, nor for a login with a single sign-on code, whose session call carries the code.
 */
export function askFirstAnswers(hash: string, boot: BootData | null): Promise<Asker | undefined> | undefined {
  const route = readRoutePath(hash.slice(1) || '/');
  if (!boot || !route || (route.page === 'login' && route.code)) return undefined;
  // The language the app's calls will send (stores/i18n.ts picks it the same way from the boot data).
  const lang = pickLocale(boot.locales);
  const session = askEarly(getSessionCall, {}, { lang, token: getSessionToken() }).then((answer) =>
    answer ? { lang, token: answer.session } : undefined,
  );
  if (route.page !== 'asset' || !route.id) return session;
  const id = route.id;
  void session.then((asker) => {
    if (!asker) return;
    void askEarly(assetsCall, { query: { assetid: id } }, asker);
    void askEarly(previewCall, { query: { id, target: 'view', page: 0 } }, asker).then((preview) => {
      if (preview?.url) preloadPicture({ src: preview.url, srcSet: '', sizes: '', fetchPriority: 'high' });
    });
  });
  return session;
}
