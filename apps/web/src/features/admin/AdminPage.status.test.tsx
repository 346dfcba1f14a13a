import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import type { MessageSet } from '@vitrine/contract/config';
import { defaultTranslations } from '@vitrine/contract/translations';
import { renderApp } from '../../test/renderApp.tsx';
import { api } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';
import { adminServer, closeEntryNotice, failure, server, slow } from '../../test/adminServer.tsx';
import { configStatus, customPageStatus, translationsStatus, type Load } from './status.ts';

startTestServer(server, 'error');

/** An answer held back until the test lets it go, so each status can be seen while it lasts. */
function gate() {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const statusOf = (element: HTMLElement) => ({
  status: element.dataset.status,
  busy: element.getAttribute('aria-busy'),
});

const notAsked: Load = { isPending: true, isError: false, fetchStatus: 'idle' };
const asked: Load = { isPending: true, isError: false, fetchStatus: 'fetching' };
const answered: Load = { isPending: false, isError: false, fetchStatus: 'idle' };
const failed: Load = { isPending: false, isError: true, fetchStatus: 'idle' };

describe('admin-spec §4 "Status values"', { timeout: 60_000 }, () => {
  it('names each resource’s status with exactly the spec’s values', () => {
    expect([notAsked, asked, answered, failed].map((l) => configStatus(l, false))).toEqual([
      'initial',
      'loading',
      'success',
      'unavailable',
    ]);
    expect(configStatus(answered, true)).toBe('saving');
    // Unavailable config stays unavailable (admin-spec §4 "Other transitions").
    expect(configStatus(failed, true)).toBe('unavailable');
    expect(
      [
        [notAsked, answered],
        [asked, answered],
        [answered, answered],
      ].map((loads) => translationsStatus(loads, false)),
    ).toEqual(['initial', 'loading', 'success']);
    expect(translationsStatus([answered, answered], true)).toBe('saving');
    expect([notAsked, asked, answered].map(customPageStatus)).toEqual(['initial', 'loading', 'success']);
  });

  it('Config: loading, then success; saving, then success with the saved notice', async () => {
    adminServer(defaultGlobalConfig);
    const load = gate();
    const post = gate();
    server.use(
      http.get(api('config/global/stored'), async () => {
        await load.opened;
        return HttpResponse.json({ config: defaultGlobalConfig });
      }),
      http.post(api('config/global'), async ({ request }) => {
        await post.opened;
        return HttpResponse.json(await request.json());
      }),
    );
    const { user } = await renderApp('/admin/general');
    const section = await screen.findByRole('region', { name: 'General' }, slow);
    expect(statusOf(section)).toEqual({ status: 'loading', busy: 'true' });
    load.open();
    await waitFor(() => expect(statusOf(section)).toEqual({ status: 'success', busy: 'false' }));
    await closeEntryNotice(user);
    const title = screen.getByLabelText(/^Website title/);
    await user.type(title, ' archive');
    await user.click(screen.getByRole('button', { name: 'Save configuration' }));
    expect(statusOf(section)).toEqual({ status: 'saving', busy: 'true' });
    expect(within(section).getByRole('status')).toHaveTextContent('Saving…');
    expect(screen.getByRole('button', { name: 'Save configuration' })).toBeDisabled();
    post.open();
    expect(await screen.findByText('Configuration saved')).toBeInTheDocument();
    await waitFor(() => expect(statusOf(section)).toEqual({ status: 'success', busy: 'false' }));
  });

  it('Config: saving, then an error notice, and back to success with the edit kept', async () => {
    adminServer(defaultGlobalConfig);
    const post = gate();
    server.use(
      http.post(api('config/global'), async () => {
        await post.opened;
        return failure();
      }),
    );
    const { user } = await renderApp('/admin/general', { locale: 'de' });
    const section = await screen.findByRole('region', { name: 'Allgemein' }, slow);
    await waitFor(() => expect(statusOf(section).status).toBe('success'));
    // The entry's upgrade check says "up to date" in a notice of its own first (admin-spec §4 step 6).
    await closeEntryNotice(user, 'de');
    await user.type(screen.getByLabelText(/^Titel der Website/), '!');
    await user.click(screen.getByRole('button', { name: 'Konfiguration speichern' }));
    expect(statusOf(section)).toEqual({ status: 'saving', busy: 'true' });
    expect(within(section).getByRole('status')).toHaveTextContent('Wird gespeichert…');
    post.open();
    expect(await screen.findByText('Fehler beim Speichern der Konfiguration')).toBeInTheDocument();
    await waitFor(() => expect(statusOf(section)).toEqual({ status: 'success', busy: 'false' }));
    expect(screen.getByText('Es gibt ungespeicherte Änderungen.')).toBeInTheDocument();
  });

  it('admin-spec §8 "Config saved": the German success notice reads "Konfiguration gespeichert"', async () => {
    adminServer(defaultGlobalConfig);
    const { user } = await renderApp('/admin/general', { locale: 'de' });
    const section = await screen.findByRole('region', { name: 'Allgemein' }, slow);
    await waitFor(() => expect(statusOf(section).status).toBe('success'));
    // The entry's "up to date" notice comes first and would hide the save's notice behind it.
    await closeEntryNotice(user, 'de');
    await user.type(screen.getByLabelText(/^Titel der Website/), '!');
    await user.click(screen.getByRole('button', { name: 'Konfiguration speichern' }));
    expect(await screen.findByText('Konfiguration gespeichert', { selector: '.MuiSnackbar-root *' })).toBeVisible();
    expect(screen.queryByText('Configuration saved')).not.toBeInTheDocument();
  });

  it('Config: unavailable, with the error notice, and it stays unavailable', async () => {
    adminServer(defaultGlobalConfig);
    server.use(http.get(api('config/global/stored'), failure));
    await renderApp('/admin/appearance');
    const section = await screen.findByRole('region', { name: 'Appearance' }, slow);
    await waitFor(() => expect(statusOf(section)).toEqual({ status: 'unavailable', busy: 'false' }));
    expect(
      screen.getByText('The configuration could not be loaded.', { selector: '.MuiSnackbar-root *' }),
    ).toBeVisible();
    await new Promise((r) => setTimeout(r, 200));
    expect(statusOf(section).status).toBe('unavailable');
    expect(screen.queryByRole('button', { name: 'Save configuration' })).not.toBeInTheDocument();
  });

  it('Translations: loading, then success; saving, then success with the saved notice', async () => {
    adminServer(defaultGlobalConfig);
    const load = gate();
    const post = gate();
    const english: MessageSet = defaultTranslations.en;
    server.use(
      http.get(api('config/translations'), async ({ request }) => {
        const lang = new URL(request.url).searchParams.get('lang');
        if (!lang) return HttpResponse.json({ locales: ['de', 'en'] });
        if (lang === 'de') await load.opened;
        return HttpResponse.json(lang === 'de' ? { global: { yes: 'Ja' } } : english);
      }),
      http.post(api('config/translations'), async () => {
        await post.opened;
        return HttpResponse.json({ ok: true });
      }),
    );
    const { user } = await renderApp('/admin/language');
    const texts = await screen.findByRole('group', { name: 'Texts of DE' }, slow);
    expect(statusOf(texts)).toEqual({ status: 'loading', busy: 'true' });
    load.open();
    await waitFor(() => expect(statusOf(texts)).toEqual({ status: 'success', busy: 'false' }));
    await closeEntryNotice(user);
    await user.type(within(texts).getByLabelText('Find a text'), 'global.yes');
    await user.type(within(texts).getByLabelText('global.yes'), '!');
    await user.click(within(texts).getByRole('button', { name: 'Save translations' }));
    expect(statusOf(texts)).toEqual({ status: 'saving', busy: 'true' });
    expect(within(texts).getByRole('status')).toHaveTextContent('Saving…');
    post.open();
    expect(await screen.findByText('Translations saved')).toBeInTheDocument();
    await waitFor(() => expect(statusOf(texts)).toEqual({ status: 'success', busy: 'false' }));
  });

  it('Custom page: loading, then success', async () => {
    adminServer(defaultGlobalConfig);
    const load = gate();
    server.use(
      http.get(api('config/custom_html'), async ({ request }) => {
        const lang = new URL(request.url).searchParams.get('lang');
        if (!lang) return HttpResponse.json({ locales: ['de'] });
        await load.opened;
        return HttpResponse.json({ heading: 'Impressum', html: '<p>Hafenstraße 1</p>' });
      }),
    );
    await renderApp('/admin/editor');
    const panel = await screen.findByRole('tabpanel', {}, slow);
    expect(statusOf(panel)).toEqual({ status: 'loading', busy: 'true' });
    expect(within(panel).getByText('Loading…')).toBeInTheDocument();
    load.open();
    await waitFor(() => expect(statusOf(panel)).toEqual({ status: 'success', busy: 'false' }));
    expect(within(panel).getByLabelText('Heading')).toHaveValue('Impressum');
  });
});
