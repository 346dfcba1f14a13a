import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ESCAPED_AT } from '@vitrine/contract/at-signs';
import { defaultTranslations } from '@vitrine/contract/translations';
import { api, server } from '../test/msw.ts';
import type { BootData } from '@vitrine/contract/boot';
import { carryBootData, removeBootData } from '../test/bootData.ts';
import { apiHeaders } from '../lib/apiClient.ts';
import { createI18n } from './i18n.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The server's German and English sets, the German views holding only the dashboard title `title`. */
function serveGermanTitle(title: string) {
  server.use(
    http.get(api('config/translations'), ({ request }) => {
      const lang = new URL(request.url).searchParams.get('lang');
      if (!lang) return HttpResponse.json({ locales: ['de', 'en'] });
      const set = defaultTranslations[lang as 'de' | 'en'];
      return HttpResponse.json(lang === 'de' ? { ...set, views: { dashboard: { title } } } : set);
    }),
  );
}

describe('interface texts from the server (admin-spec §3 "Translation set")', () => {
  it('uses the texts an admin edited, in the stored language', async () => {
    localStorage.setItem('locale', 'de');
    serveGermanTitle('Übersicht');
    const i18n = await createI18n({ remote: true });
    expect(i18n.language).toBe('de');
    expect(i18n.t('views.dashboard.title')).toBe('Übersicht');
    // Keys missing in German come from the English fallback.
    expect(i18n.t('views.search.title')).toBe('Search');
  });

  it('shows an escaped at-sign of a migrated text as \'@\' (admin-spec §4 "Config versioning and upgrade")', async () => {
    localStorage.setItem('locale', 'de');
    serveGermanTitle(`Kontakt: info${ESCAPED_AT}example.org`);
    const i18n = await createI18n({ remote: true });
    expect(i18n.t('views.dashboard.title')).toBe('Kontakt: info@example.org');
    // A bare at-sign, here in an interpolated value of an English fallback text, stays as it is.
    expect(i18n.t('views.asset.page', { page: '@1', count: 2 })).toBe('Page @1 of 2');
  });

  it('picks among the languages the server offers, after the stored locale the browser language', async () => {
    localStorage.setItem('locale', 'fr');
    server.use(
      http.get(api('config/translations'), ({ request }) => {
        const lang = new URL(request.url).searchParams.get('lang');
        if (!lang) return HttpResponse.json({ locales: ['de', 'en', 'fr'] });
        return HttpResponse.json(
          lang === 'fr' ? { views: { dashboard: { title: 'Accueil' } } } : defaultTranslations.en,
        );
      }),
    );
    const i18n = await createI18n({ remote: true });
    expect(i18n.language).toBe('fr');
    expect(i18n.t('views.dashboard.title')).toBe('Accueil');
  });

  it('asks the server in the set\'s content language after an interface language that is not one (admin-spec §3 "Translation set")', async () => {
    localStorage.setItem('locale', 'fr');
    server.use(
      http.get(api('config/translations'), ({ request }) => {
        const lang = new URL(request.url).searchParams.get('lang');
        if (!lang) return HttpResponse.json({ locales: ['de', 'en', 'fr'] });
        return HttpResponse.json(lang === 'fr' ? { metadata: { content_language: 'en' } } : defaultTranslations.en);
      }),
    );
    await createI18n({ remote: true });
    expect(apiHeaders()['Accept-Language']).toBe('fr, en;q=0.9');
  });

  it('falls back to the bundled texts when the server cannot answer', async () => {
    localStorage.setItem('locale', 'en');
    server.use(http.get(api('config/translations'), () => HttpResponse.json({}, { status: 500 })));
    const i18n = await createI18n({ remote: true });
    expect(i18n.language).toBe('en');
    expect(i18n.t('toast.login.unauthorized')).toBe('Account has no authorization');
  });
});

describe("texts the portal's page carries (config/app-page.ts)", () => {
  afterEach(removeBootData);

  /** The page's boot data, as the server writes it. */
  const carry = (data: Omit<BootData, 'config' | 'files'>) =>
    carryBootData({ config: {} as BootData['config'], files: {} as BootData['files'], ...data });

  it('paints with the carried texts without asking the server', async () => {
    localStorage.setItem('locale', 'de');
    // No handler: any call to the server fails the test (onUnhandledRequest: 'error').
    carry({
      locales: ['de', 'en'],
      messages: {
        de: { views: { dashboard: { title: 'Übersicht' } } },
        en: defaultTranslations.en,
      },
    });
    const i18n = await createI18n({ remote: true });
    expect(i18n.language).toBe('de');
    expect(i18n.t('views.dashboard.title')).toBe('Übersicht');
    expect(i18n.t('views.search.title')).toBe('Search');
  });

  it('loads a language the page does not carry (a choice stored in the browser)', async () => {
    localStorage.setItem('locale', 'de');
    serveGermanTitle('Startseite');
    carry({ locales: ['de', 'en'], messages: { en: defaultTranslations.en } });
    const i18n = await createI18n({ remote: true });
    expect(i18n.t('views.dashboard.title')).toBe('Startseite');
  });
});
