import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { TEXTS_VERSION } from '@vitrine/contract/config-migrations';
import { indexField } from '../../test/indexField.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { api } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';
import { server, slow, adminServer } from '../../test/adminServer.tsx';

startTestServer(server, 'error');

describe(
  'admin area (admin-spec §2 "Admin entry guard", §4 "Config versioning and upgrade", §5): languages and texts',
  { timeout: 60_000 },
  () => {
    it('names the language a typed code stands for and offers the name (admin-spec §7 "info/all_languages")', async () => {
      adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/language');
      await user.click(await screen.findByRole('button', { name: 'Add language' }, slow));
      const dialog = screen.getByRole('dialog', { name: 'Add language' });
      await user.type(within(dialog).getByLabelText(/^Code/), 'fr');
      expect(await within(dialog).findByText('This code stands for: French')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Use “French” as the name' }));
      expect(within(dialog).getByLabelText(/^Name/)).toHaveValue('French');
      // A name of its own stays: the offer is gone.
      expect(within(dialog).queryByRole('button', { name: /as the name$/ })).not.toBeInTheDocument();
      await user.clear(within(dialog).getByLabelText(/^Code/));
      await user.type(within(dialog).getByLabelText(/^Code/), 'xq');
      expect(within(dialog).getByText('The server does not know a language with this code.')).toBeInTheDocument();
    });

    it('points out a content language the catalogue has no metadata in (admin-spec §7 "index/content_locales")', async () => {
      adminServer({
        ...defaultGlobalConfig,
        visibleLocales: [...defaultGlobalConfig.visibleLocales, { lang: 'fr', short: 'FR', name: 'Français' }],
      });
      const { user } = await renderApp('/admin/language');
      await screen.findByLabelText('Content language: metadata in de', {}, slow);
      const french = await screen.findByLabelText('Content language: metadata in fr', {}, slow);
      const note = 'The catalogue has no metadata in fr yet: visitors who choose it see the metadata in English.';
      expect(screen.queryByText(note)).not.toBeInTheDocument();
      await user.click(french);
      expect(await screen.findByText(note)).toBeInTheDocument();
      // German is in the catalogue: no note for it.
      expect(screen.queryByText(/no metadata in de/)).not.toBeInTheDocument();
    });

    it('checks a new language with the German messages of admin-spec §5', async () => {
      adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/language', { locale: 'de' });
      await user.click(await screen.findByRole('button', { name: 'Sprache hinzufügen' }, slow));
      const dialog = screen.getByRole('dialog', { name: 'Sprache hinzufügen' });
      await user.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));
      expect(within(dialog).getByText('Es muss ein Name eingetragen werden!')).toBeInTheDocument();
      expect(within(dialog).getByText('Es muss ein Kürzel eingetragen werden!')).toBeInTheDocument();
      await user.type(within(dialog).getByLabelText(/^Kürzel/), 'en');
      expect(within(dialog).getByText('Der Kürzel wird bereits verwendet!')).toBeInTheDocument();
      await user.clear(within(dialog).getByLabelText(/^Kürzel/));
      await user.type(within(dialog).getByLabelText(/^Kürzel/), 'fr');
      await user.type(within(dialog).getByLabelText(/^Name/), 'Französisch');
      await user.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByRole('list', { name: 'Sprachen' })).toHaveTextContent('Französisch (fr)');
      expect(screen.getByText('Es gibt ungespeicherte Änderungen.')).toBeInTheDocument();
    });

    it('toggles content languages and removes languages; the last interface and the last content language stay', async () => {
      const { posted } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/language');
      const german = await screen.findByLabelText('Content language: metadata in de', {}, slow);
      expect(german).toBeChecked();
      await user.click(german);
      expect(german).not.toBeChecked();
      // English is now the only content language: it cannot be switched off or removed.
      expect(screen.getByLabelText('Content language: metadata in en')).toBeDisabled();
      expect(screen.queryByRole('button', { name: 'Remove language en' })).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Remove language de' }));
      expect(screen.getByRole('list', { name: 'Languages' })).not.toHaveTextContent('(de)');
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]?.content_languages).toEqual(['en']);
      expect(posted[0]?.visibleLocales.map((l) => l.lang)).toEqual(['en']);
    });

    it('asks before another edit language or admin tab drops unsaved translations (admin-spec §4)', async () => {
      adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/language');
      await user.type(await screen.findByLabelText('Find a text', {}, slow), 'views.dashboard.title');
      await user.type(await screen.findByLabelText('views.dashboard.title'), ' neu');
      // Another language to edit: asked, and Cancel keeps the edit.
      await user.click(screen.getByRole('combobox', { name: 'Language to translate' }));
      await user.click(await screen.findByRole('option', { name: 'en' }));
      const question = await screen.findByRole('dialog', { name: 'Discard the unsaved changes?' });
      await user.click(within(question).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByLabelText('views.dashboard.title')).toHaveValue('Startseite neu');
      // Another admin tab: asked too (the edit would end with the tab); Stay keeps it.
      const tabs = screen.getByRole('navigation', { name: 'Administration' });
      await user.click(within(tabs).getByRole('link', { name: 'Dashboard' }));
      const leave = await screen.findByRole('dialog', { name: 'There are unsaved changes.' });
      expect(leave).toHaveTextContent('Discard the unsaved changes?');
      await user.click(within(leave).getByRole('button', { name: 'Stay' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByLabelText('views.dashboard.title')).toHaveValue('Startseite neu');
      // Discarded on purpose: the other language's texts show, and nothing is flagged any more.
      await user.click(screen.getByRole('combobox', { name: 'Language to translate' }));
      await user.click(await screen.findByRole('option', { name: 'en' }));
      await user.click(
        within(await screen.findByRole('dialog', { name: 'Discard the unsaved changes?' })).getByRole('button', {
          name: 'Confirm',
        }),
      );
      await user.type(await screen.findByLabelText('Find a text'), 'views.dashboard.title');
      expect(await screen.findByLabelText('views.dashboard.title')).toHaveValue('Home');
      await user.click(within(tabs).getByRole('link', { name: 'Dashboard' }));
      expect(await screen.findByRole('heading', { level: 2, name: 'Dashboard' }, slow)).toBeInTheDocument();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    it('flags a text typed back to the stored one as no change (admin-spec §2 "Admin entry guard": backups)', async () => {
      adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/language');
      await user.type(await screen.findByLabelText('Find a text', {}, slow), 'views.dashboard.title');
      const text = await screen.findByLabelText('views.dashboard.title');
      await user.type(text, ' neu');
      expect(screen.getByText('There are unsaved changes.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save translations' })).toBeEnabled();
      await user.type(text, '{Backspace>4}');
      expect(text).toHaveValue('Startseite');
      expect(screen.queryByText('There are unsaved changes.')).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save translations' })).toBeDisabled();
      // Nothing to lose: another language to edit is taken without a question.
      await user.click(screen.getByRole('combobox', { name: 'Language to translate' }));
      await user.click(await screen.findByRole('option', { name: 'en' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: 'Language to translate' })).toHaveTextContent('en');
    });

    it('flags an unsaved custom page and keeps each language\'s draft across the language tabs (admin-spec §2 "Admin entry guard", §4)', async () => {
      adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/editor');
      const heading = await screen.findByLabelText('Heading', {}, slow);
      expect(screen.queryByText('There are unsaved changes.')).not.toBeInTheDocument();
      await user.type(heading, ' und Kontakt');
      expect(screen.getByText('There are unsaved changes.')).toBeInTheDocument();
      // Another language's tab drops nothing: no question, and the draft is there on the way back.
      await user.click(screen.getByRole('tab', { name: 'EN (no page yet)' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(await screen.findByLabelText('Heading')).toHaveValue('');
      expect(screen.getByText('There are unsaved changes.')).toBeInTheDocument();
      await user.click(screen.getByRole('tab', { name: 'DE' }));
      expect(await screen.findByLabelText('Heading')).toHaveValue('Impressum und Kontakt');
      // Typed back to the stored heading: nothing is flagged.
      await user.type(screen.getByLabelText('Heading'), '{Backspace>12}');
      expect(screen.getByLabelText('Heading')).toHaveValue('Impressum');
      expect(screen.queryByText('There are unsaved changes.')).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save page' })).toBeDisabled();
      // An unsaved page still holds the admin in the section when they leave for another one.
      await user.type(screen.getByLabelText('Heading'), '!');
      const tabs = screen.getByRole('navigation', { name: 'Administration' });
      await user.click(within(tabs).getByRole('link', { name: 'Dashboard' }));
      expect(await screen.findByRole('dialog', { name: 'There are unsaved changes.' })).toBeInTheDocument();
    });

    it('starts a new language from the texts of a chosen template and says so (admin-spec §3 "Language", §4)', async () => {
      const { postedTexts } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/language');
      await user.click(await screen.findByRole('button', { name: 'Add language' }, slow));
      const dialog = screen.getByRole('dialog', { name: 'Add language' });
      await user.type(within(dialog).getByLabelText(/^Name/), 'Français');
      await user.type(within(dialog).getByLabelText(/^Code/), 'fr');
      await user.click(within(dialog).getByRole('combobox', { name: 'Start from the texts of' }));
      await user.click(await screen.findByRole('option', { name: 'en (en)' }));
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      await waitFor(() => expect(postedTexts).toHaveLength(1));
      expect(postedTexts[0]?.lang).toBe('fr');
      expect(postedTexts[0]?.texts).toMatchObject({
        views: { dashboard: { title: 'Home' } },
        metadata: { source_template: 'en', version: TEXTS_VERSION },
      });
      // Notices show one at a time: the entry notice stands in front for up to 5 s.
      expect(await screen.findByText('Language updated', {}, { timeout: 8000 })).toBeInTheDocument();
    });

    it('adds a text key in the add-translation dialog: checked, shown under its key, saved with the set (admin-spec §2 "Modals", §5)', async () => {
      const { postedTexts } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/language');
      await user.click(await screen.findByRole('button', { name: 'Add translation' }, slow));
      const dialog = await screen.findByRole('dialog', { name: 'Add translation' });
      // No key, then a key the set has already: refused with the messages of §5, the dialog stays.
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      expect(within(dialog).getByText('The key must not be empty!')).toBeInTheDocument();
      const key = within(dialog).getByLabelText(/^Text key/);
      await user.type(key, 'views.dashboard.title');
      expect(within(dialog).getByText('The key is already used!')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      expect(screen.getByRole('dialog', { name: 'Add translation' })).toBeInTheDocument();
      // A new key with its text: the dialog closes and the list shows the key, found by the filter.
      await user.clear(key);
      await user.type(key, 'views.footer.greeting');
      await user.type(within(dialog).getByLabelText(/^Text$/), 'Willkommen im Archiv');
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByLabelText('Find a text')).toHaveValue('views.footer.greeting');
      expect(screen.getByLabelText('views.footer.greeting')).toHaveValue('Willkommen im Archiv');
      expect(screen.getByText('There are unsaved changes.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Save translations' }));
      await waitFor(() => expect(postedTexts).toHaveLength(1));
      expect(postedTexts[0]?.lang).toBe('de');
      const texts = postedTexts[0]?.texts as {
        views: { footer?: { greeting?: string }; dashboard: { title: string } };
      };
      expect(texts.views.footer?.greeting).toBe('Willkommen im Archiv');
      // The set's other texts are saved with it.
      expect(texts.views.dashboard.title).toBe('Startseite');
    });

    it('offers a label per language for every index field, metadata.<field>, the English label beside it (admin-spec "Translation set")', async () => {
      const { postedTexts } = adminServer(defaultGlobalConfig);
      server.use(
        http.get(api('index/fields'), () =>
          HttpResponse.json({
            visible_fields: [indexField('keywords', 'Keywords'), indexField('category', 'Category')],
          }),
        ),
      );
      const { user } = await renderApp('/admin/language');
      await user.type(await screen.findByLabelText('Find a text', {}, slow), 'metadata.keywords');
      const field = await screen.findByLabelText('metadata.keywords');
      expect(field).toHaveValue('');
      expect(screen.getByText('EN: Keywords')).toBeInTheDocument();
      await user.type(field, 'Stichwörter');
      await user.click(screen.getByRole('button', { name: 'Save translations' }));
      await waitFor(() => expect(postedTexts).toHaveLength(1));
      const texts = postedTexts[0]?.texts as { metadata: Record<string, string> };
      expect(texts.metadata.keywords).toBe('Stichwörter');
      // Only what was typed is saved: the other fields' labels stay the index fields' own.
      expect(texts.metadata.category).toBeUndefined();
    });

    it("shows the server's reason when it refuses the translations (the reset mail's {link})", async () => {
      adminServer(defaultGlobalConfig);
      const reason =
        'The password-reset mail: views.login.reset.mail_body may contain no address but {link} (found "https://").';
      server.use(
        http.post(api('config/translations'), () =>
          HttpResponse.json(
            {
              error: 'validation',
              message: reason,
              details: [{ path: 'body.views.login.reset.mail_body', message: 'x' }],
            },
            { status: 400 },
          ),
        ),
      );
      const { user } = await renderApp('/admin/language');
      await user.type(await screen.findByLabelText('Find a text', {}, slow), 'views.login.reset.mail_body');
      const field = await screen.findByLabelText('views.login.reset.mail_body');
      await user.clear(field);
      await user.type(field, 'Write to https://evil.example');
      await user.click(screen.getByRole('button', { name: 'Save translations' }));
      // Other notices (the configuration's state) may be on screen too: the refusal is its own alert.
      const alert = (await screen.findByText(/The translations could not be saved\./)).closest('[role="alert"]');
      expect(alert).not.toBeNull();
      expect(alert).toHaveTextContent(reason);
    });
  },
);
