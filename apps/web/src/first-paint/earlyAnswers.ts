import type { BootData } from '@vitrine/contract/boot';
import type { CallAnswer } from '@vitrine/contract/call';
import type { assetsCall as assets, searchCall as search } from '@vitrine/contract/search';
import type { previewCall as preview } from '@vitrine/contract/download';
import type { getSessionCall as session } from '@vitrine/contract/session';
import {
  assetsCall,
  downloadInfoCall,
  getCollectionCall,
  getSessionCall,
  listCollectionsCall,
  previewCall,
  searchCall,
} from '@vitrine/contract/endpoints';
import { landingPage, readRoutePath } from '@vitrine/contract/paths';
import { COLLECTION_ROWS, FIRST_ROWS_ASKED, inOrder } from '../features/dashboard/collectionCalls.ts';
import { firstSearch, type FirstSearch } from '../features/search/request.ts';
import { acceptLanguage, askEarly, getSessionToken, type Asker } from '../lib/apiClient.ts';
import { pickLocale } from '../lib/locale.ts';
import { preloadPicture } from '../lib/pictures.ts';

export type SessionAnswer = CallAnswer<typeof session>;
export type AssetsAnswer = CallAnswer<typeof assets>;
export type PreviewAnswer = CallAnswer<typeof preview>;
export type SearchAnswer = CallAnswer<typeof search>;

/** What the first screen waits on, asked before the app's code runs; each undefined when its call failed. */
export interface FirstAnswers {
  /** The session, and who asks once it has answered (its language and token). */
  session: Promise<{ answer: SessionAnswer; asker: Asker } | undefined>;
  /** On an asset's page: the asset and its preview, asked with the session's token. */
  asset?: Promise<[AssetsAnswer | undefined, PreviewAnswer | undefined]>;
  /** On the search page: its first search, as the page will start it, and that search's first page. */
  search?: { first: FirstSearch; answer: Promise<SearchAnswer | undefined> };
}

/**
 * Asks, as the page starts (the page's first-paint script, src/first-paint), for what its first
 * screen waits on: the session, and once it has answered, with that session's token, on an asset's
 * page the asset and its preview (then the preview picture), on the search page its first results
 * (features/search/request.ts builds the request the page will make). The app's own calls take these
 * answers (apiClient askEarly) when they are the same request: same address, language and session
 * token; any other caller asks again. The first paint draws from them too.
 *
 * Nothing is asked without the page's boot data (development, tests), which gives the language the
 * app will pick, nor for a login with a single sign-on code, whose session call carries the code.
 */
export function askFirstAnswers(
  hash: string,
  boot: BootData | null,
  win: Pick<Window, 'innerWidth' | 'innerHeight' | 'matchMedia'> = window,
): FirstAnswers | undefined {
  const route = readRoutePath(hash.slice(1) || '/');
  if (!boot || !route || (route.page === 'login' && route.code)) return undefined;
  // The language the app's calls will send (stores/i18n.ts picks it the same way from the boot data).
  const ui = pickLocale(boot.locales);
  const set = boot.messages[ui] as { metadata?: { content_language?: unknown } } | undefined;
  const lang = acceptLanguage(ui, set?.metadata?.content_language);
  const session = askEarly(getSessionCall, {}, { lang, token: getSessionToken() }).then((answer) =>
    answer ? { answer, asker: { lang, token: answer.session } } : undefined,
  );
  const answers: FirstAnswers = { session };
  // The download options every page with downloads reads (conversion limits), with the session's token.
  if (route.page === 'asset' || route.page === 'search')
    void session.then((asked) => asked && askEarly(downloadInfoCall, {}, asked.asker));
  // The dashboard's collections and the first rows' posters, which its first screen shows.
  if (route.page === 'dashboard' && landingPage('dashboard', boot.config.global) === 'dashboard') {
    void session.then(async (asked) => {
      const list = asked && (await askEarly(listCollectionsCall, { query: { operation: 'list' } }, asked.asker));
      if (!asked || !list || boot.config.dashboard.collections.show_as_tiles) return;
      const first = inOrder(list.collections).slice(0, FIRST_ROWS_ASKED);
      for (const c of first)
        void askEarly(getCollectionCall, { query: { collection: c.indicator, rows: COLLECTION_ROWS } }, asked.asker);
    });
  }
  if (route.page === 'asset' && route.id) {
    const id = route.id;
    answers.asset = session.then(async (asked) => {
      if (!asked) return [undefined, undefined];
      const preview = askEarly(previewCall, { query: { id, target: 'view', page: 0 } }, asked.asker).then((p) => {
        if (p?.url) preloadPicture({ src: p.url, srcSet: '', sizes: '', fetchPriority: 'high' });
        return p;
      });
      return Promise.all([askEarly(assetsCall, { query: { assetid: id } }, asked.asker), preview]);
    });
  }
  // Visitors without an account may search when the page carried the index fields.
  const first = route.page === 'search' ? firstSearch(boot, hash, win) : undefined;
  if (first) {
    const { query } = first;
    answers.search = { first, answer: session.then((asked) => asked && askEarly(searchCall, { query }, asked.asker)) };
  }
  return answers;
}
