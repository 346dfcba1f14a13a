import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ESCAPED_AT } from '@vitrine/contract/at-signs';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { TEXTS_VERSION } from '@vitrine/contract/config-migrations';
import { renderApp } from '../../test/renderApp.tsx';
import { api } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';
import { server, slow, adminServer } from '../../test/adminServer.tsx';

startTestServer(server, 'error');

describe(
  'admin area (admin-spec §2 "Admin entry guard", §4 "Config versioning and upgrade", §5): entry and versions',
  { timeout: 60_000 },
  () => {
    it('lists the sections in the sidebar order of admin-spec §1', async () => {
      adminServer(defaultGlobalConfig);
      await renderApp('/admin/general');
      const tabs = await screen.findByRole('navigation', { name: 'Administration' }, slow);
      expect(
        within(tabs)
          .getAllByRole('link')
          .map((link) => [link.textContent, link.getAttribute('href')]),
      ).toEqual([
        ['Appearance', '/admin/appearance'],
        ['Dashboard', '/admin/dashboard'],
        ['General', '/admin/general'],
        ['Language settings', '/admin/language'],
        ['Search settings', '/admin/search'],
        ['Login', '/admin/login'],
        ['Own pages', '/admin/editor'],
        // Issue #51: after the sections of admin-spec §1.
        ['Statistics', '/admin/statistics'],
        // Issue #50.
        ['People', '/admin/people'],
        ['Groups', '/admin/groups'],
      ]);
    });

    it('offers to adopt the changes of an older stored config and saves it migrated', async () => {
      const { posted } = adminServer({ version: '5.2.1', global: { website_title: 'Archiv' }, themes: { colors: {} } });
      const { user } = await renderApp('/admin/general');
      const dialog = await screen.findByRole('dialog', { name: 'Please confirm' }, slow);
      expect(dialog).toHaveTextContent('The portal was updated.');
      await user.click(within(dialog).getByRole('button', { name: 'Adopt changes' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]?.version).toBe('7.0.6');
      expect(posted[0]?.global.website_title).toBe('Archiv');
      expect(posted[0]?.themes.options.map((t) => t.key)).toContain('classic');
      expect(posted[0]?.themes).not.toHaveProperty('colors');
    });

    it('offers to adopt the changes of an older stored text set and saves it migrated, the config untouched', async () => {
      const { posted, postedTexts } = adminServer(defaultGlobalConfig, {
        de: { metadata: { version: '5.2.1' }, views: { dashboard: { title: 'Kontakt: info@example.org' } } },
        fr: { metadata: { version: TEXTS_VERSION }, views: { dashboard: { title: 'Accueil' } } },
      });
      const { user } = await renderApp('/admin/general');
      const dialog = await screen.findByRole('dialog', { name: 'Please confirm' }, slow);
      expect(dialog).toHaveTextContent('The portal was updated.');
      await user.click(within(dialog).getByRole('button', { name: 'Adopt changes' }));
      await waitFor(() => expect(postedTexts).toHaveLength(1));
      expect(postedTexts[0]?.lang).toBe('de');
      expect(postedTexts[0]?.texts).toMatchObject({
        metadata: { version: TEXTS_VERSION },
        views: { dashboard: { title: `Kontakt: info${ESCAPED_AT}example.org` } },
      });
      expect(await screen.findByText('Translations saved')).toBeInTheDocument();
      expect(posted).toHaveLength(0);
    });

    it('offers the factory settings when the server has neither config nor texts, and stores both (admin-spec §4 step 6)', async () => {
      const { posted, postedTexts } = adminServer(null, {});
      const { user } = await renderApp('/admin/general');
      const dialog = await screen.findByRole('dialog', { name: 'Please confirm' }, slow);
      expect(dialog).toHaveTextContent('The server has no configuration yet.');
      await user.click(within(dialog).getByRole('button', { name: 'Reset to factory settings' }));
      await waitFor(() => expect(postedTexts.map((p) => p.lang).sort()).toEqual(['de', 'en']));
      expect(posted).toHaveLength(1);
      expect(posted[0]?.global.website_title).toBe(defaultGlobalConfig.global.website_title);
      expect(postedTexts.find((p) => p.lang === 'de')?.texts).toMatchObject({
        metadata: { version: TEXTS_VERSION },
        views: { dashboard: { title: 'Startseite' } },
      });
    });

    it('offers the factory texts when only the texts are missing; the stored config stays (admin-spec §4 step 6)', async () => {
      const config = { ...defaultGlobalConfig, global: { ...defaultGlobalConfig.global, website_title: 'Archiv' } };
      const { posted, postedTexts } = adminServer(config, {});
      const { user } = await renderApp('/admin/general');
      const dialog = await screen.findByRole('dialog', { name: 'Please confirm' }, slow);
      expect(dialog).toHaveTextContent('The server has no texts of its own yet');
      await user.click(within(dialog).getByRole('button', { name: 'Reset to factory settings' }));
      await waitFor(() => expect(postedTexts).toHaveLength(2));
      expect(await screen.findByText('Translations saved')).toBeInTheDocument();
      expect(posted).toHaveLength(0);
      expect(screen.getByLabelText(/^Website title/)).toHaveValue('Archiv');
    });

    it('stores nothing when the admin declines the factory texts', async () => {
      const { posted, postedTexts } = adminServer(defaultGlobalConfig, {});
      const { user } = await renderApp('/admin/general');
      const dialog = await screen.findByRole('dialog', { name: 'Please confirm' }, slow);
      await user.click(within(dialog).getByRole('button', { name: 'No' }));
      await waitFor(() => expect(dialog).not.toBeInTheDocument());
      expect(posted).toHaveLength(0);
      expect(postedTexts).toHaveLength(0);
    });

    it('with config and texts up to date asks nothing and says so', async () => {
      const { posted, postedTexts } = adminServer(defaultGlobalConfig, {
        fr: { metadata: { version: TEXTS_VERSION }, views: { dashboard: { title: 'Accueil' } } },
      });
      await renderApp('/admin/general');
      expect(await screen.findByText('The configuration is up to date.', {}, slow)).toBeInTheDocument();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect([posted, postedTexts]).toEqual([[], []]);
    });

    it('loads on entry what every section needs: versions, custom page locales, texts and pages (admin-spec §2 "Admin entry guard")', async () => {
      adminServer(defaultGlobalConfig);
      const asked: string[] = [];
      server.events.on('request:start', ({ request }) => {
        asked.push(new URL(request.url).pathname + new URL(request.url).search);
      });
      const { user } = await renderApp('/admin/general');
      expect(await screen.findByText('Portal 7.0.6 · server 7.0.6', {}, slow)).toBeInTheDocument();
      // Each configured language's texts and custom page, before any section asks for them.
      await waitFor(() =>
        expect(asked).toEqual(
          expect.arrayContaining([
            api('config/custom_html'),
            api('config/custom_html?lang=de'),
            api('config/translations?lang=de'),
            api('config/translations?lang=en'),
            api('collection/dam'),
            api('index/fields'),
          ]),
        ),
      );
      // English has no page: it is not asked for (the 404 would be logged by the browser).
      expect(asked).not.toContain(api('config/custom_html?lang=en'));
      server.events.removeAllListeners();
      await user.click(screen.getByRole('link', { name: 'Own pages' }));
      expect(await screen.findByRole('tab', { name: 'DE' })).toBeInTheDocument();
      expect(screen.getByRole('tab', { name: 'EN (no page yet)' })).toBeInTheDocument();
      expect(screen.getByLabelText('Heading')).toHaveValue('Impressum');
    });

    it('warns when the server runs another version than the portal (portal-spec §6)', async () => {
      adminServer(defaultGlobalConfig);
      server.use(http.get(api('info/check_version'), () => HttpResponse.json({ version: '6.2.0' })));
      await renderApp('/admin/general');
      expect(await screen.findByText('Portal 7.0.6 · server 6.2.0', {}, slow)).toBeInTheDocument();
      expect(screen.getByText('Backend version 6.2.0 and frontend version 7.0.6 differ.')).toBeInTheDocument();
    });
  },
);
