import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { renderApp } from '../../test/renderApp.tsx';
import { api } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';
import { server, slow, indexField, adminServer } from '../../test/adminServer.tsx';

startTestServer(server, 'error');

describe(
  'admin area (admin-spec §2 "Admin entry guard", §4 "Config versioning and upgrade", §5): general and appearance',
  { timeout: 60_000 },
  () => {
    it('flags unsaved changes against the backup and saves the whole config', async () => {
      const { posted } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/general');
      const title = await screen.findByLabelText(/^Website title/, {}, slow);
      expect(screen.queryByText('There are unsaved changes.')).not.toBeInTheDocument();
      await user.clear(title);
      expect(screen.getByText('This field is required.')).toBeInTheDocument();
      await user.type(title, 'Archiv');
      expect(screen.getByText('There are unsaved changes.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]).toEqual({
        ...defaultGlobalConfig,
        global: { ...defaultGlobalConfig.global, website_title: 'Archiv' },
      });
      await waitFor(() => expect(screen.queryByText('There are unsaved changes.')).not.toBeInTheDocument());
    });

    it.each([
      { locale: 'en', label: 'File sizes in units of', save: 'Save configuration' },
      { locale: 'de', label: 'Dateigrößen in Einheiten von', save: 'Konfiguration speichern' },
    ])('in $locale chooses the base of file sizes (global.file_size_base) and saves it', async (c) => {
      const { posted } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/general', { locale: c.locale });
      const base = await screen.findByRole('combobox', { name: c.label }, slow);
      expect(base).toHaveTextContent('1000 (kB, MB, GB)');
      await user.click(base);
      await user.click(screen.getByRole('option', { name: '1024 (KiB, MiB, GiB)' }));
      await user.click(screen.getByRole('button', { name: c.save }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]?.global.file_size_base).toBe(1024);
    });

    it.each([
      {
        locale: 'en',
        label: 'Thumbnails show their icons only while pointed at or focused',
        save: 'Save configuration',
      },
      {
        locale: 'de',
        label: 'Miniaturen zeigen ihre Symbole nur beim Zeigen oder im Fokus',
        save: 'Konfiguration speichern',
      },
    ])(
      "in $locale switches the thumbnails' icons to hover only (search.thumbnails.icon_hover) and saves it",
      async (c) => {
        const { posted } = adminServer(defaultGlobalConfig);
        const { user } = await renderApp('/admin/appearance', { locale: c.locale });
        const onHover = await screen.findByLabelText(c.label, {}, slow);
        expect(onHover).not.toBeChecked();
        await user.click(onHover);
        expect(onHover).toBeChecked();
        await user.click(screen.getByRole('button', { name: c.save }));
        await waitFor(() => expect(posted).toHaveLength(1));
        expect(posted[0]).toEqual({
          ...defaultGlobalConfig,
          search: {
            ...defaultGlobalConfig.search,
            thumbnails: { ...defaultGlobalConfig.search.thumbnails, icon_hover: true },
          },
        });
      },
    );

    it('edits the footer (admin-spec §3 "Footer link"): texts, links and columns per language, order, new and removed entries', async () => {
      const { posted } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/general');
      const entries = await screen.findByRole('list', { name: 'Footer entries' }, slow);
      expect(
        within(entries)
          .getAllByRole('heading')
          .map((h) => h.textContent),
      ).toEqual([
        'Footer entry: Privacy',
        'Footer entry: Terms of use',
        'Footer entry: Imprint',
        expect.stringMatching(/^Footer entry: © 2020–\d{4} /),
      ]);
      await user.click(screen.getByRole('button', { name: 'Move “Imprint” up' }));
      await user.click(screen.getByRole('button', { name: 'Move “Imprint” up' }));
      expect(screen.getByRole('button', { name: 'Move “Imprint” up' })).toBeDisabled();
      await user.click(screen.getByRole('button', { name: 'Remove “Terms of use”' }));
      await user.click(screen.getByRole('button', { name: 'Add footer entry' }));
      const added = screen.getByRole('listitem', { name: 'Footer entry: New entry' });
      await user.type(within(added).getByLabelText('Text (EN)'), 'Press');
      const link = within(added).getByLabelText('Link (EN)');
      await user.type(link, '/press');
      // A new entry links to another website: a path of the portal is refused there.
      expect(within(added).getByText('An address starts with https://, http:// or mailto:')).toBeInTheDocument();
      await user.clear(link);
      await user.type(link, 'https://press.example.org');
      expect(within(added).queryByText(/An address starts with/)).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      const saved = posted[0]?.footer.entries ?? [];
      expect(saved.map((e) => [e.position, e.translation, e.labels?.en ?? null])).toEqual([
        [0, 'global.footer.imprint', null],
        [1, 'global.footer.privacy', null],
        [2, 'global.footer.copyright', null],
        [3, '', 'Press'],
      ]);
      expect(saved[3]?.links.en).toEqual({
        linkDirection: 'External',
        link: 'https://press.example.org',
        column: 'Center',
      });
    });

    it('sets the fields of the info view and of the asset page: title, columns in order, border width (admin-spec §3 "infoView", "assetInfo")', async () => {
      const { posted } = adminServer({
        ...defaultGlobalConfig,
        assetInfo: { ...defaultGlobalConfig.assetInfo, paramsLeft: [{ field_name: 'gone_field' }] },
      });
      server.use(
        http.get(api('index/fields'), () =>
          HttpResponse.json({
            visible_fields: ['title', 'creator', 'city', 'keywords'].map((name) => indexField(name)),
          }),
        ),
      );
      const { user } = await renderApp('/admin/appearance');
      const left = await screen.findByRole('list', { name: 'Left column of the info view' }, slow);
      expect(left).toHaveTextContent('No field yet');
      for (const name of ['creator', 'city', 'keywords']) {
        await user.click(screen.getByRole('combobox', { name: 'Field for: Left column of the info view' }));
        await user.click(await screen.findByRole('option', { name }));
        await user.click(screen.getByRole('button', { name: 'Add to: Left column of the info view' }));
      }
      await user.click(screen.getByRole('button', { name: 'Move keywords up in: Left column of the info view' }));
      await user.click(screen.getByRole('button', { name: 'Remove creator from: Left column of the info view' }));
      const border = screen.getByLabelText('Border width of the info view (px)');
      await user.clear(border);
      await user.type(border, '4');
      // A field the index no longer has is flagged where it is configured.
      const assetLeft = screen.getByRole('list', { name: 'Left column of the asset page' });
      expect(within(assetLeft).getByText('gone_field')).toBeInTheDocument();
      expect(within(assetLeft).getByText('This field does not exist in the index.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Remove gone_field from: Left column of the asset page' }));
      await user.click(screen.getByRole('combobox', { name: 'Title field of the asset page' }));
      await user.click(await screen.findByRole('option', { name: 'creator' }));
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]?.infoView).toEqual({
        ...defaultGlobalConfig.infoView,
        paramsLeft: [{ field_name: 'keywords' }, { field_name: 'city' }],
        options: { border_width: 4 },
      });
      expect(posted[0]?.assetInfo).toEqual({ ...defaultGlobalConfig.assetInfo, paramsLeft: [], title: 'creator' });
    });

    it('edits the list view, thumbnails, bookmark cards, poster heights, alt fallback and themes (admin-spec §3)', async () => {
      const { posted } = adminServer({
        ...defaultGlobalConfig,
        accessibility: { assets: { alt: 'title', alt_fallback: { field_name: 'gone_field', options: {} } } },
      });
      server.use(
        http.get(api('index/fields'), () =>
          HttpResponse.json({ visible_fields: ['title', 'creator', 'city'].map((name) => indexField(name)) }),
        ),
      );
      const { user } = await renderApp('/admin/appearance');
      // A fallback field the index no longer has is flagged.
      expect(
        await screen.findByText('The field gone_field does not exist in the index.', {}, slow),
      ).toBeInTheDocument();
      await user.click(screen.getByRole('combobox', { name: 'Alternative text fallback field' }));
      await user.click(await screen.findByRole('option', { name: 'creator' }));
      expect(screen.queryByText(/does not exist in the index/)).not.toBeInTheDocument();
      const number = async (label: string, value: string) => {
        const input = screen.getByLabelText(label);
        await user.clear(input);
        await user.type(input, value);
      };
      await number('Poster minimum height (px)', '90');
      await number('Poster maximum height (px)', '300');
      await number('Picture column width (px)', '120');
      await number('Row height (px)', '64');
      await number('Thumbnail border width (px)', '3');
      // At most 12 cards in a row, whatever is typed.
      await number('Most bookmark cards in a row', '40');
      await user.click(screen.getByRole('combobox', { name: 'Field for: List columns' }));
      await user.click(await screen.findByRole('option', { name: 'city' }));
      await user.click(screen.getByRole('button', { name: 'Add to: List columns' }));
      await user.click(screen.getByRole('combobox', { name: 'Thumbnail header field' }));
      await user.click(await screen.findByRole('option', { name: 'creator' }));
      await user.click(screen.getByRole('combobox', { name: 'Bookmark card title field' }));
      await user.click(await screen.findByRole('option', { name: 'city' }));
      const dark = screen.getByRole('group', { name: 'Dark' });
      await user.click(within(dark).getByRole('combobox', { name: 'List hover effect' }));
      await user.click(await screen.findByRole('option', { name: 'Darken' }));
      // A new theme starts from the chosen one: the dark theme's colours and flag.
      await user.click(screen.getByRole('combobox', { name: 'Start from theme' }));
      await user.click(await screen.findByRole('option', { name: 'Dark' }));
      await user.type(screen.getByLabelText(/^Key of a new theme/), 'night');
      await user.click(screen.getByRole('button', { name: 'Add theme' }));
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      const saved = posted[0];
      expect(saved?.accessibility.assets.alt_fallback.field_name).toBe('creator');
      expect(saved?.search.posters).toMatchObject({ min_height: 90, max_height: 300 });
      expect(saved?.search.list).toEqual({
        columns: [...defaultGlobalConfig.search.list.columns, { field_name: 'city' }],
        options: { imageColWidth: 120, rowHeight: 64 },
      });
      expect(saved?.search.thumbnails).toMatchObject({ header: 'creator', border_width: 3 });
      expect(saved?.bookmark).toMatchObject({ title: 'city', columns: 12 });
      const darkTheme = saved?.themes.options.find((th) => th.key === defaultGlobalConfig.themes.default_dark);
      expect(darkTheme?.appearance_options.list_hover_effect).toBe('darken');
      const night = saved?.themes.options.find((th) => th.key === 'night');
      expect(night).toMatchObject({ dark: true, appearance: darkTheme?.appearance });
    });

    it.each([
      { locale: 'en', label: 'Alternative text when neither field has a value', save: 'Save configuration' },
      { locale: 'de', label: 'Alternativtext, wenn keines der Felder einen Wert hat', save: 'Konfiguration speichern' },
    ])(
      'admin-spec §3 "Config" accessibility.assets alt_fallback.options: in $locale edits the last-resort text per content language and saves it',
      async (c) => {
        const { posted } = adminServer({
          ...defaultGlobalConfig,
          accessibility: {
            assets: { alt: 'title', alt_fallback: { field_name: 'filename', options: { text: { en: 'Image' } } } },
          },
        });
        const { user } = await renderApp('/admin/appearance', { locale: c.locale });
        const german = await screen.findByLabelText(`${c.label} (DE)`, {}, slow);
        const english = screen.getByLabelText(`${c.label} (EN)`);
        expect(english).toHaveValue('Image');
        await user.type(german, 'Bild');
        await user.clear(english);
        await user.type(english, 'Picture');
        await user.click(screen.getByRole('button', { name: c.save }));
        await waitFor(() => expect(posted).toHaveLength(1));
        expect(posted[0]?.accessibility.assets.alt_fallback).toEqual({
          field_name: 'filename',
          options: { text: { en: 'Picture', de: 'Bild' } },
        });
      },
    );

    it('offers sorts and result views, orders the views, and sets the fallback language and login info text (admin-spec §3)', async () => {
      const { posted } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/search');
      // The default sort and view stay offered.
      expect(await screen.findByLabelText('Offer the sort “Relevance”', {}, slow)).toBeDisabled();
      expect(screen.getByLabelText('Offer the view “Posters”')).toBeDisabled();
      await user.click(screen.getByLabelText('Offer the sort “Downloads”'));
      await user.click(screen.getByLabelText('Offer the view “Thumbnails”'));
      await user.click(screen.getByRole('button', { name: 'Move the view List up' }));
      const tabs = screen.getByRole('navigation', { name: 'Administration' });
      await user.click(within(tabs).getByRole('link', { name: 'Language settings' }));
      await user.click(await screen.findByRole('combobox', { name: 'Fallback language' }, slow));
      await user.click(await screen.findByRole('option', { name: 'de (de)' }));
      await user.click(within(tabs).getByRole('link', { name: 'Login' }));
      await user.click(await screen.findByRole('combobox', { name: 'Info text alignment' }, slow));
      await user.click(await screen.findByRole('option', { name: 'Right' }));
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      const saved = posted[0];
      expect(saved?.sorting.options.find((o) => o.key === 'obj_dload_cnt')?.active).toBe(false);
      expect(saved?.search.views.options.map((v) => [v.key, v.position, v.visible])).toEqual([
        ['grid', 0, true],
        ['list', 1, true],
        ['thumbnail', 2, false],
      ]);
      expect(saved?.fallback_locale).toBe('de');
      expect(saved?.login.infoText.alignment).toBe('right');
    });

    it('sets colours of single components in a theme (admin-spec §3 "Theme": advanced_appearance)', async () => {
      const { posted } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/appearance');
      await user.click(await screen.findByRole('button', { name: 'Colours of Light' }, slow));
      const dialog = screen.getByRole('dialog');
      await user.click(within(dialog).getByRole('button', { name: 'Add a component colour' }));
      const key = within(dialog).getByLabelText('Component 1');
      await user.type(key, 'card border');
      expect(within(dialog).getByText('Names separated by dots, e.g. card.border')).toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Apply' })).toBeDisabled();
      await user.clear(key);
      await user.type(key, 'card.border');
      const colour = within(dialog).getByLabelText('Colour 1');
      await user.clear(colour);
      await user.type(colour, '#123456');
      await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      const light = posted[0]?.themes.options.find((th) => th.key === 'light');
      expect(light?.advanced_appearance).toEqual({ 'card.border': '#123456' });
    });

    it('deletes a theme that is not a default one (admin-spec §3 "Theme")', async () => {
      const { posted } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/appearance');
      await user.click(await screen.findByRole('button', { name: 'Delete Classic' }, slow));
      expect(screen.queryByRole('button', { name: 'Delete Light' })).not.toBeInTheDocument();
      expect(screen.getAllByText('Default theme: choose another default to delete it')).toHaveLength(2);
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]?.themes.options.map((o) => o.key)).toEqual(['light', 'dark']);
    });

    it.each([
      {
        locale: 'en',
        key: /^Key of a new theme/,
        add: 'Add theme',
        empty: 'The key must not be empty!',
        taken: 'The key is already used!',
      },
      {
        locale: 'de',
        key: /^Schlüssel eines neuen Themas/,
        add: 'Thema hinzufügen',
        empty: 'Der Schlüssel darf nicht leer sein!',
        taken: 'Der Schlüssel wird bereits verwendet!',
      },
    ])('in $locale refuses a theme key that is empty or in use (admin-spec §5, §3 "Theme")', async (c) => {
      const { posted } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/appearance', { locale: c.locale });
      const key = await screen.findByLabelText(c.key, {}, slow);
      await user.click(screen.getByRole('button', { name: c.add }));
      expect(screen.getByText(c.empty)).toBeInTheDocument();
      await user.type(key, 'dark');
      expect(screen.getByText(c.taken)).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: c.add }));
      expect(key).toHaveValue('dark');
      expect(posted).toHaveLength(0);
      expect(screen.queryByText(/unsaved|ungespeichert/)).not.toBeInTheDocument();
    });

    it('sets where logos show, the hero alignment and the dashboard logo (admin-spec §1 "appearance", "dashboard")', async () => {
      const { posted } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/appearance');
      const logos = await screen.findByRole('region', { name: 'Show the logo on these screens' }, slow);
      await user.click(within(logos).getByLabelText('Bookmarks'));
      await user.click(screen.getByRole('link', { name: 'Dashboard' }));
      await user.click(await screen.findByRole('combobox', { name: 'Hero picture alignment' }));
      await user.click(await screen.findByRole('option', { name: 'Right' }));
      const height = screen.getByLabelText('Dashboard logo height (px)');
      await user.clear(height);
      await user.type(height, '64');
      await user.click(screen.getByLabelText('Show the dashboard logo outside the hero picture'));
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      const saved = posted[0];
      expect(saved?.visibleLogos.filter((l) => !l.visible).map((l) => l.key)).toEqual(['bookmark']);
      expect(saved?.dashboard.heroImage).toMatchObject({
        alignment: 'right',
        logo: { height: 64, load_outside: true },
      });
    });
  },
);
