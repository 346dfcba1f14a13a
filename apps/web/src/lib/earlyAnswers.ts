import type { BootData } from '@vitrine/contract/boot';
import { assetsCall, getSessionCall, previewCall } from '@vitrine/contract/endpoints';
import { readRoutePath } from '@vitrine/contract/paths';
import { askEarly, getSessionToken } from './apiClient.ts';
import { pickLocale } from './locale.ts';
import { preloadPicture } from './pictures.ts';

/**
 * Asks, as the app's code starts (app/firstScreen.ts), for what its first screen waits on: the
 * session (stores/session.ts asks for it only after the shell's code has run), and on an asset's
 * page, once the session has answered, the asset and its preview with that session's token, then the
 * preview picture. The app's own calls take these answers (apiClient askEarly) when they are the same
 * request: same address, language and session token; any other caller asks again.
 *
 * Nothing is asked without the page's boot data (development, tests), which gives the language the
 * app will pick, nor for a login with a single sign-on code, whose session call carries the code.
 */
export function askFirstAnswers(hash: string, boot: BootData | null): void {
  const route = readRoutePath(hash.slice(1) || '/');
  if (!boot || !route || (route.page === 'login' && route.code)) return;
  // The language the app's calls will send (stores/i18n.ts picks it the same way from the boot data).
  const lang = pickLocale(boot.locales);
  const session = askEarly(getSessionCall, {}, { lang, token: getSessionToken() });
  if (route.page !== 'asset' || !route.id) return;
  const id = route.id;
  void session.then((answer) => {
    if (!answer) return;
    const asker = { lang, token: answer.session };
    void askEarly(assetsCall, { query: { assetid: id } }, asker);
    void askEarly(previewCall, { query: { id, target: 'view', page: 0 } }, asker).then((preview) => {
      if (preview?.url) preloadPicture({ src: preview.url, srcSet: '', sizes: '', fetchPriority: 'high' });
    });
  });
}
