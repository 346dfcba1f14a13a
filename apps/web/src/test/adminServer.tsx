// What the admin area's tests share: the session server of an admin, the admin calls of entry and helpers.
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect } from 'vitest';
import type { MessageSet } from '@vitrine/contract/config';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { TEXTS_VERSION } from '@vitrine/contract/config-migrations';
import type { GlobalConfig, PreSearch } from '@vitrine/contract/global-config';
import type { IndexField } from '@vitrine/contract/search';
import { renderApp } from './renderApp.tsx';
import { api, createSessionServer, sessionAnswer } from './sessionServer.ts';

export const server = createSessionServer(sessionAnswer({ user: 'ada', isGuiAdmin: true }));

/** The admin area is a lazily loaded chunk: its first render waits for the import. */
export const slow = { timeout: 15_000 };

/** A server failure as the API answers it. */
export const failure = () => HttpResponse.json({ error: 'internal', message: 'Failed.' }, { status: 500 });

/**
 * Closes the notice of entry ("up to date"): notices show one at a time, and it would stand in front
 * of the one a test waits for.
 */
export async function closeEntryNotice(
  user: { click: (element: Element) => Promise<void> },
  locale: 'en' | 'de' = 'en',
) {
  const { text, close } = entryNotice[locale];
  const notice = (await screen.findByText(text, {}, slow)).closest('[role="alert"]');
  await user.click(within(notice as HTMLElement).getByRole('button', { name: close }));
  await waitFor(() => expect(screen.queryByText(text)).not.toBeInTheDocument());
}

const entryNotice = {
  en: { text: 'The configuration is up to date.', close: 'Close' },
  de: { text: 'Die Konfiguration ist aktuell.', close: 'Schließen' },
};

/** A field of the index as index/fields answers it. */
export const indexField = (field_name: string, over: Partial<IndexField> = {}): IndexField => ({
  field_name,
  default_labels: { en: field_name },
  is_facet: false,
  range_facet: false,
  multi_valued: false,
  origin: 'xmp',
  type: 'string',
  options: {},
  ...over,
});

/** index/fields answers these fields. */
export const withIndexFields = (...fields: IndexField[]) =>
  server.use(http.get(api('index/fields'), () => HttpResponse.json({ visible_fields: fields })));

/** The default config with these pre-searches on the dashboard. */
export const withPreSearches = (data: PreSearch[]) => ({
  ...defaultGlobalConfig,
  dashboard: {
    ...defaultGlobalConfig.dashboard,
    collections: { ...defaultGlobalConfig.dashboard.collections, data },
  },
});

/**
 * The admin calls of entry, with `stored` as the server's config and `storedTexts` as its translation
 * sets; answers the configs and text sets posted.
 */
export function adminServer(
  stored: Record<string, unknown> | null,
  // A server with texts of its own, up to date: no question on entry.
  storedTexts: Record<string, MessageSet> = { en: { metadata: { version: TEXTS_VERSION } } },
) {
  const posted: GlobalConfig[] = [];
  const postedTexts: { lang: string | null; texts: MessageSet }[] = [];
  server.use(
    http.get(api('config/global/stored'), () => HttpResponse.json({ config: stored })),
    http.get(api('config/translations/stored'), () => HttpResponse.json({ translations: storedTexts })),
    http.post(api('config/translations'), async ({ request }) => {
      postedTexts.push({
        lang: new URL(request.url).searchParams.get('lang'),
        texts: (await request.json()) as MessageSet,
      });
      return HttpResponse.json({ ok: true });
    }),
    http.get(api('index/fields'), () => HttpResponse.json({ visible_fields: [] })),
    http.get(api('collection/dam'), () =>
      HttpResponse.json({
        collections: [
          { id: 3, name: 'Spring campaign' },
          { id: 7, name: 'Archive' },
          { id: 9, name: 'Harbour' },
        ],
      }),
    ),
    http.get(api('config/history'), () => HttpResponse.json({ versions: [] })),
    http.get(api('index/content_locales'), () => HttpResponse.json({ locales: ['de', 'en'] })),
    http.get(api('info/all_languages'), ({ request }) => {
      const german = new URL(request.url).searchParams.get('lang') === 'de';
      return HttpResponse.json({
        languages: [
          { code: 'de', name: german ? 'Deutsch' : 'German', ui: true, content: true },
          { code: 'en', name: german ? 'Englisch' : 'English', ui: true, content: true },
          { code: 'fr', name: german ? 'Französisch' : 'French', ui: false, content: false },
        ],
      });
    }),
    http.get(api('config/custom_html'), ({ request }) => {
      const lang = new URL(request.url).searchParams.get('lang');
      if (!lang) return HttpResponse.json({ locales: ['de'] });
      if (lang === 'de') return HttpResponse.json({ heading: 'Impressum', html: '<p>Hafenstraße 1</p>' });
      return HttpResponse.json({ error: 'not_found', message: 'No page.' }, { status: 404 });
    }),
    http.post(api('config/global'), async ({ request }) => {
      const config = (await request.json()) as GlobalConfig;
      posted.push(config);
      return HttpResponse.json(config);
    }),
  );
  return { posted, postedTexts };
}

/** The admin area at `route` on a server whose POST to `path` fails, the entry notice closed. */
export async function withFailingPost(path: string, route: string) {
  adminServer(defaultGlobalConfig);
  server.use(http.post(api(path), failure));
  const rendered = await renderApp(route);
  await closeEntryNotice(rendered.user);
  return rendered;
}
