import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { renderApp } from '../../test/renderApp.tsx';
import { api } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';
import { server, adminServer, failure, slow } from '../../test/adminServer.tsx';

startTestServer(server, 'error');

/** The custom-page calls: what was posted per language; the languages in `refuse` are refused. */
function pageServer(refuse: readonly string[] = []) {
  const posted: { lang: string | null; heading: string }[] = [];
  server.use(
    http.post(api('config/custom_html'), async ({ request }) => {
      const lang = new URL(request.url).searchParams.get('lang');
      if (lang && refuse.includes(lang)) return failure();
      posted.push({ lang, heading: ((await request.json()) as { heading: string }).heading });
      return HttpResponse.json({ ok: true });
    }),
  );
  return posted;
}

/**
 * Closes the notice of entry ("up to date") in the admin's language: notices show one at a time, and
 * it would stand in front of the one a test waits for.
 */
async function closeEntryNotice(user: { click: (element: Element) => Promise<void> }, locale: 'en' | 'de') {
  const text = locale === 'de' ? 'Die Konfiguration ist aktuell.' : 'The configuration is up to date.';
  const notice = (await screen.findByText(text, {}, slow)).closest('[role="alert"]') as HTMLElement;
  await user.click(within(notice).getByRole('button', { name: locale === 'de' ? 'Schließen' : 'Close' }));
  await waitFor(() => expect(screen.queryByText(text)).not.toBeInTheDocument());
}

/** The editor with the German page's heading changed, and with `english` as a new English page when given. */
async function editPages(locale: 'en' | 'de', english?: string) {
  const { user } = await renderApp('/admin/editor', { locale });
  await closeEntryNotice(user, locale);
  const headingLabel = locale === 'de' ? 'Überschrift' : 'Heading';
  await user.type(await screen.findByLabelText(headingLabel, {}, slow), ' und Kontakt');
  if (english !== undefined) {
    await user.click(screen.getByRole('tab', { name: locale === 'de' ? 'EN (noch keine Seite)' : 'EN (no page yet)' }));
    await user.type(await screen.findByLabelText(headingLabel), english);
  }
  return user;
}

describe('admin-spec §8 "Custom page saved or failed (singular and plural forms)"', { timeout: 60_000 }, () => {
  it('says "Page saved" for one page', async () => {
    adminServer(defaultGlobalConfig);
    const posted = pageServer();
    const user = await editPages('en');
    await user.click(screen.getByRole('button', { name: 'Save page' }));
    expect(await screen.findByText('Page saved')).toBeInTheDocument();
    expect(posted).toEqual([{ lang: 'de', heading: 'Impressum und Kontakt' }]);
    await waitFor(() => expect(screen.queryByText('There are unsaved changes.')).not.toBeInTheDocument());
  });

  it('saves the changed pages of two languages at once and says "Pages saved"', async () => {
    adminServer(defaultGlobalConfig);
    const posted = pageServer();
    const user = await editPages('en', 'Imprint');
    await user.click(screen.getByRole('button', { name: 'Save pages' }));
    expect(await screen.findByText('Pages saved')).toBeInTheDocument();
    expect(posted.sort((a, b) => String(a.lang).localeCompare(String(b.lang)))).toEqual([
      { lang: 'de', heading: 'Impressum und Kontakt' },
      { lang: 'en', heading: 'Imprint' },
    ]);
    await waitFor(() => expect(screen.queryByText('There are unsaved changes.')).not.toBeInTheDocument());
    // The English page exists now: its tab no longer says otherwise.
    expect(screen.getByRole('tab', { name: 'EN' })).toBeInTheDocument();
  });

  it('in German: "Seiten gespeichert" for two pages', async () => {
    adminServer(defaultGlobalConfig);
    pageServer();
    const user = await editPages('de', 'Imprint');
    await user.click(screen.getByRole('button', { name: 'Seiten speichern' }));
    expect(await screen.findByText('Seiten gespeichert')).toBeInTheDocument();
  });

  it('says "The pages could not be saved." when both are refused, and keeps both drafts', async () => {
    adminServer(defaultGlobalConfig);
    pageServer(['de', 'en']);
    const user = await editPages('en', 'Imprint');
    await user.click(screen.getByRole('button', { name: 'Save pages' }));
    expect(await screen.findByText('The pages could not be saved.')).toBeInTheDocument();
    expect(screen.getByText('There are unsaved changes.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save pages' })).toBeEnabled();
  });

  it('says "The page could not be saved." when one of two is refused, and keeps only its draft', async () => {
    adminServer(defaultGlobalConfig);
    const posted = pageServer(['en']);
    const user = await editPages('en', 'Imprint');
    await user.click(screen.getByRole('button', { name: 'Save pages' }));
    expect(await screen.findByText('The page could not be saved.')).toBeInTheDocument();
    expect(posted).toEqual([{ lang: 'de', heading: 'Impressum und Kontakt' }]);
    // The English draft is left to save again, by itself.
    expect(await screen.findByRole('button', { name: 'Save page' })).toBeEnabled();
    expect(screen.getByLabelText('Heading')).toHaveValue('Imprint');
  });

  it('in German: "Die Seiten konnten nicht gespeichert werden." when both are refused', async () => {
    adminServer(defaultGlobalConfig);
    pageServer(['de', 'en']);
    const user = await editPages('de', 'Imprint');
    await user.click(screen.getByRole('button', { name: 'Seiten speichern' }));
    expect(await screen.findByText('Die Seiten konnten nicht gespeichert werden.')).toBeInTheDocument();
  });
});
