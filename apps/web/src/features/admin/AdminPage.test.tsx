import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ESCAPED_AT } from '@vitrine/contract/at-signs';
import { IMAGE_WARNING_BYTES, type MessageSet } from '@vitrine/contract/config';
import { configFileNames, defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { TEXTS_VERSION } from '@vitrine/contract/config-migrations';
import type { GlobalConfig, PreSearch } from '@vitrine/contract/global-config';
import type { IndexField } from '@vitrine/contract/search';
import { renderApp } from '../../test/renderApp.tsx';
import { api, createSessionServer, sessionAnswer } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';

const server = createSessionServer(sessionAnswer({ user: 'ada', isGuiAdmin: true }));
startTestServer(server, 'error');

/** The admin area is a lazily loaded chunk: its first render waits for the import. */
const slow = { timeout: 15_000 };

/** A server failure as the API answers it. */
const failure = () => HttpResponse.json({ error: 'internal', message: 'Failed.' }, { status: 500 });

/**
 * Closes the notice of entry ("up to date"): notices show one at a time, and it would stand in front
 * of the one a test waits for.
 */
async function closeEntryNotice(user: { click: (element: Element) => Promise<void> }) {
  const notice = (await screen.findByText('The configuration is up to date.', {}, slow)).closest('[role="alert"]');
  await user.click(within(notice as HTMLElement).getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(screen.queryByText('The configuration is up to date.')).not.toBeInTheDocument());
}

/** A field of the index as index/fields answers it. */
const indexField = (field_name: string, over: Partial<IndexField> = {}): IndexField => ({
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
const withIndexFields = (...fields: IndexField[]) =>
  server.use(http.get(api('index/fields'), () => HttpResponse.json({ visible_fields: fields })));

/** The default config with these pre-searches on the dashboard. */
const withPreSearches = (data: PreSearch[]) => ({
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
function adminServer(
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
async function withFailingPost(path: string, route: string) {
  adminServer(defaultGlobalConfig);
  server.use(http.post(api(path), failure));
  const rendered = await renderApp(route);
  await closeEntryNotice(rendered.user);
  return rendered;
}

describe(
  'admin area (admin-spec §2 "Admin entry guard", §4 "Config versioning and upgrade", §5)',
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

    it('reorders the facets with the Move buttons and by dragging with the pointer: the saved positions follow the order shown (admin-spec §1 "search")', async () => {
      const facet = (field_name: string, position: number) => ({
        field_name,
        position,
        range_facet: false,
        options: { multivalue: 'checkbox', preview: 5, sort: 'count' },
      });
      // Stored out of array order: the list shows them by position.
      const { posted } = adminServer({
        ...defaultGlobalConfig,
        facets: [facet('creator', 2), facet('category', 0), facet('license', 1)],
      });
      const { user } = await renderApp('/admin/search');
      const filters = await screen.findByRole('region', { name: 'Filters' }, slow);
      expect(
        within(filters)
          .getAllByRole('group')
          .map((g) => g.getAttribute('aria-label')),
      ).toEqual(['category', 'license', 'creator']);
      expect(screen.getByRole('button', { name: 'Move category up' })).toBeDisabled();
      await user.click(screen.getByRole('button', { name: 'Move creator up' }));
      await user.click(screen.getByRole('button', { name: 'Move category down' }));
      expect(
        within(filters)
          .getAllByRole('group')
          .map((g) => g.getAttribute('aria-label')),
      ).toEqual(['creator', 'category', 'license']);
      // With the pointer: a facet dragged onto another takes its place.
      const dataTransfer = {
        setData: () => undefined,
        setDragImage: () => undefined,
        effectAllowed: '',
        dropEffect: '',
      };
      const drag = (field: string, onto: string) => {
        const handle = within(filters).getByTitle(`Drag ${field} to move it`);
        const target = within(filters).getByRole('group', { name: onto });
        fireEvent.dragStart(handle, { dataTransfer });
        fireEvent.dragOver(target, { dataTransfer });
        // The place it would go is marked (not the facet's own).
        expect(target.hasAttribute('data-drag-over')).toBe(field !== onto);
        fireEvent.drop(target, { dataTransfer });
        fireEvent.dragEnd(handle, { dataTransfer });
        expect(target).not.toHaveAttribute('data-drag-over');
      };
      const order = () =>
        within(filters)
          .getAllByRole('group')
          .map((g) => g.getAttribute('aria-label'));
      drag('license', 'creator');
      expect(order()).toEqual(['license', 'creator', 'category']);
      drag('creator', 'category');
      expect(order()).toEqual(['license', 'category', 'creator']);
      drag('category', 'category');
      expect(order()).toEqual(['license', 'category', 'creator']);
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]?.facets.map((f) => [f.field_name, f.position])).toEqual([
        ['license', 0],
        ['category', 1],
        ['creator', 2],
      ]);
    });

    it('adds a range field of the index as a slider and any other field as checkboxes, 10 values shown (admin-spec §9)', async () => {
      const { posted } = adminServer(defaultGlobalConfig);
      server.use(
        http.get(api('index/fields'), () =>
          HttpResponse.json({
            visible_fields: [
              indexField('file_size', { is_facet: true, range_facet: true }),
              indexField('creator', { is_facet: true }),
            ],
          }),
        ),
      );
      const { user } = await renderApp('/admin/search');
      const filters = within(await screen.findByRole('region', { name: 'Filters' }, slow));
      for (const field of ['file_size', 'creator']) {
        await user.click(await filters.findByRole('combobox', { name: 'Field' }));
        await user.click(await screen.findByRole('option', { name: field }));
        await user.click(filters.getByRole('button', { name: 'Add filter' }));
      }
      expect(
        within(filters.getByRole('group', { name: 'file_size' })).getByRole('combobox', { name: 'Selection' }),
      ).toHaveTextContent('Slider');
      expect(
        within(filters.getByRole('group', { name: 'creator' })).getByRole('combobox', { name: 'Selection' }),
      ).toHaveTextContent('Checkboxes');
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(
        posted[0]?.facets.map((f) => [f.field_name, f.range_facet, f.options.multivalue, f.options.preview]),
      ).toEqual([
        ['file_size', true, 'slider', 10],
        ['creator', false, 'checkbox', 10],
      ]);
    });

    it('sets a facet\'s value order and direction, value format and label per language (admin-spec §1 "search", §3 "Index field")', async () => {
      const { posted } = adminServer({
        ...defaultGlobalConfig,
        facets: [
          { field_name: 'category', position: 0, range_facet: false },
          { field_name: 'imp_date', position: 1, range_facet: true, options: { filterVal: 'date' } },
        ],
      });
      const { user } = await renderApp('/admin/search');
      const category = within(await screen.findByRole('group', { name: 'category' }, slow));
      expect(category.getByRole('combobox', { name: 'Value order' })).toHaveTextContent('Ascending');
      await user.click(category.getByRole('combobox', { name: 'Sort values by' }));
      await user.click(screen.getByRole('option', { name: 'By count' }));
      await user.click(category.getByRole('combobox', { name: 'Value order' }));
      await user.click(screen.getByRole('option', { name: 'Descending' }));
      const format = category.getByRole('combobox', { name: 'Value format' });
      expect(format).toHaveTextContent('As the index field says');
      await user.click(format);
      await user.click(screen.getByRole('option', { name: 'Date and time' }));
      await user.type(category.getByLabelText('Label (EN)'), 'Kind');
      await user.type(category.getByLabelText('Label (DE)'), 'Art');
      // The other facet's format is left to the index field again.
      const date = within(screen.getByRole('group', { name: 'imp_date' }));
      expect(date.getByRole('combobox', { name: 'Value format' })).toHaveTextContent('Date');
      await user.click(date.getByRole('combobox', { name: 'Value format' }));
      await user.click(screen.getByRole('option', { name: 'As the index field says' }));
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]?.facets[0]).toMatchObject({
        field_name: 'category',
        labels: { en: 'Kind', de: 'Art' },
        options: { sort: 'count', sort_orientation: 'desc', filterVal: 'datetime' },
      });
      expect(posted[0]?.facets[1]?.options).not.toHaveProperty('filterVal');
    });

    it('warns of a slider or a range facet on a field the server does not define as a range (admin-spec §5)', async () => {
      const facet = (field_name: string, position: number, range_facet: boolean, multivalue: string) => ({
        field_name,
        position,
        range_facet,
        options: { multivalue, preview: 10, sort: 'alphabetical', sort_orientation: 'asc' },
      });
      adminServer({
        ...defaultGlobalConfig,
        facets: [
          facet('category', 0, false, 'slider'),
          // A range on the server, though the config's own flag says not.
          facet('imp_date', 1, false, 'slider'),
          facet('creator', 2, true, 'checkbox'),
          facet('license', 3, false, 'checkbox'),
        ],
      });
      withIndexFields(
        indexField('category', { is_facet: true }),
        indexField('imp_date', { is_facet: true, range_facet: true, type: 'date' }),
        indexField('creator', { is_facet: true }),
        indexField('license', { is_facet: true }),
      );
      const { user } = await renderApp('/admin/search');
      const group = async (name: string) => within(await screen.findByRole('group', { name }, slow));
      const slider = 'A slider needs a field defined as a range on the server.';
      const range = 'A range facet needs a field defined as a range on the server.';
      const category = await group('category');
      expect(await category.findByText(slider)).toBeInTheDocument();
      expect((await group('imp_date')).queryByText(slider)).not.toBeInTheDocument();
      expect((await group('creator')).getByText(range)).toBeInTheDocument();
      const license = await group('license');
      expect(license.queryByText(slider)).not.toBeInTheDocument();
      expect(license.queryByText(range)).not.toBeInTheDocument();
      // Shown as a slider, the field that is no range on the server is warned of; as checkboxes no more.
      await user.click(license.getByRole('combobox', { name: 'Selection' }));
      await user.click(await screen.findByRole('option', { name: 'Slider' }));
      expect(license.getByText(slider)).toBeInTheDocument();
      await user.click(category.getByRole('combobox', { name: 'Selection' }));
      await user.click(await screen.findByRole('option', { name: 'Checkboxes' }));
      expect(category.queryByText(slider)).not.toBeInTheDocument();
    });

    it('removes suggestion fields one by one and flags one the index no longer has', async () => {
      const { posted } = adminServer({
        ...defaultGlobalConfig,
        suggestions: [{ field_name: 'title' }, { field_name: 'keywords' }, { field_name: 'gone_field' }],
      });
      server.use(
        http.get(api('index/fields'), () =>
          HttpResponse.json({
            visible_fields: ['title', 'keywords'].map((name) => indexField(name)),
          }),
        ),
      );
      const { user } = await renderApp('/admin/search');
      const list = await screen.findByRole('list', { name: 'Suggestions' }, slow);
      const flag = await within(list).findByText('This field does not exist in the index.');
      expect(flag.closest('li')).toHaveTextContent('gone_field');
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((i) => i.querySelector('.MuiListItemText-primary')?.textContent),
      ).toEqual(['title', 'keywords', 'gone_field']);
      await user.click(screen.getByRole('button', { name: 'Remove suggestion field keywords' }));
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]?.suggestions).toEqual([{ field_name: 'title' }, { field_name: 'gone_field' }]);
    });

    it('refuses to save while a field is invalid and says which; nothing is posted (admin-spec §5)', async () => {
      const { posted } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/general');
      const title = await screen.findByLabelText(/^Website title/, {}, slow);
      await user.clear(title);
      await user.type(title, '   ');
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      expect(
        await screen.findByText('Not saved: please correct global.website_title.', {}, { timeout: 10_000 }),
      ).toBeInTheDocument();
      expect(posted).toHaveLength(0);
      await user.clear(title);
      await user.type(title, 'Archiv');
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
    });

    it.each([
      { locale: 'en', label: /^Bookmark card height/, save: 'Save configuration' },
      { locale: 'de', label: /^Höhe der Merklistenkarten/, save: 'Konfiguration speichern' },
    ])('in $locale sets the height of the bookmark cards (bookmark.options.card_height)', async (c) => {
      const { posted } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/appearance', { locale: c.locale });
      const height = await screen.findByRole('spinbutton', { name: c.label }, slow);
      expect(height).toHaveValue(232);
      await user.clear(height);
      await user.type(height, '300');
      await user.click(screen.getByRole('button', { name: c.save }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]?.bookmark.options.card_height).toBe(300);
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

    it('refuses a pre-search key that is empty or in use (admin-spec §5, §3 "Pre-search")', async () => {
      adminServer(withPreSearches([{ key: 'Harbour', position: 0, search: { en: { text: '*', facets: [] } } }]));
      const { user } = await renderApp('/admin/dashboard');
      await user.click(await screen.findByRole('button', { name: 'Add pre-search' }, slow));
      const dialog = await screen.findByRole('dialog', { name: 'Add pre-search' });
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      expect(within(dialog).getByText('The key must not be empty!')).toBeInTheDocument();
      await user.type(within(dialog).getByLabelText(/^Key/), 'Harbour');
      expect(within(dialog).getByText('The key is already used!')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      expect(screen.getByRole('dialog', { name: 'Add pre-search' })).toBeInTheDocument();
      expect(screen.queryByText('There are unsaved changes.')).not.toBeInTheDocument();
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

    it('chooses and orders the DAM collections the dashboard shows (admin-spec §1 "dashboard")', async () => {
      const { posted } = adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/dashboard');
      const every = await screen.findByLabelText('Show every DAM collection, in the order they were made', {}, slow);
      expect(every).toBeChecked();
      expect(screen.queryByRole('list', { name: 'DAM collections shown' })).not.toBeInTheDocument();
      // Switched off, the choice starts from every collection; one is removed, one moved up.
      await user.click(every);
      const chosen = screen.getByRole('list', { name: 'DAM collections shown' });
      expect(
        within(chosen)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual([
        expect.stringContaining('Spring campaign'),
        expect.stringContaining('Archive'),
        expect.stringContaining('Harbour'),
      ]);
      await user.click(screen.getByRole('button', { name: 'Remove collection Archive' }));
      await user.click(screen.getByRole('button', { name: 'Move Harbour up' }));
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]?.dashboard.collections.dam).toEqual({ all: false, ids: [9, 3] });
      // The removed one can be added again, at the end.
      await user.click(screen.getByRole('combobox', { name: 'DAM collection' }));
      await user.click(await screen.findByRole('option', { name: 'Archive' }));
      await user.click(screen.getByRole('button', { name: 'Add collection' }));
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(2));
      expect(posted[1]?.dashboard.collections.dam).toEqual({ all: false, ids: [9, 3, 7] });
    });

    it('flags a chosen DAM collection the catalogue no longer has', async () => {
      const config = structuredClone(defaultGlobalConfig);
      config.dashboard.collections.dam = { all: false, ids: [42, 3] };
      adminServer(config);
      await renderApp('/admin/dashboard');
      const chosen = await screen.findByRole('list', { name: 'DAM collections shown' }, slow);
      expect(await within(chosen).findByText('Collection 42')).toBeInTheDocument();
      expect(
        within(chosen).getByText('This collection is no longer in the catalogue; the dashboard leaves it out.'),
      ).toBeInTheDocument();
      expect(within(chosen).getByText('Spring campaign')).toBeInTheDocument();
    });

    it("holds a pre-search's filter to one value when the configured facet is of radio type (admin-spec §5)", async () => {
      const { posted } = adminServer({
        ...defaultGlobalConfig,
        // Configured as radio buttons, though the index offers the field as checkboxes.
        facets: [{ field_name: 'category', position: 0, range_facet: false, options: { multivalue: 'radio' } }],
      });
      server.use(
        http.get(api('index/fields'), () =>
          HttpResponse.json({
            visible_fields: [indexField('category', { is_facet: true, options: { multivalue: 'checkbox' } })],
          }),
        ),
      );
      const { user } = await renderApp('/admin/dashboard');
      await user.click(await screen.findByRole('button', { name: 'Add pre-search' }, slow));
      const dialog = await screen.findByRole('dialog', { name: 'Add pre-search' });
      await user.type(within(dialog).getByLabelText(/^Key/), 'Two kinds');
      await user.click(within(dialog).getByRole('button', { name: 'Add filter' }));
      await user.click(within(dialog).getByRole('combobox', { name: 'Filter field' }));
      await user.click(await screen.findByRole('option', { name: 'category' }));
      const values = within(dialog).getByLabelText('Filter values (comma-separated) (EN)');
      await user.type(values, 'Photography, Graphics');
      expect(within(dialog).getByText('A filter of radio type may hold only one value.')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      expect(screen.getByRole('dialog', { name: 'Add pre-search' })).toBeInTheDocument();
      await user.clear(values);
      await user.type(values, 'Photography');
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add pre-search' })).not.toBeInTheDocument());
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]?.dashboard.collections.data.at(-1)?.search.en?.facets).toEqual([
        { key: 'category', values: ['Photography'] },
      ]);
    });

    it('edits a pre-search after creation (admin-spec §3 "Pre-search"): sort, orientation, a range and values per language, and its place', async () => {
      const preSearch = (key: string, position: number) => ({
        key,
        translation: key,
        position,
        search: { en: { text: key, facets: [] }, de: { text: key, facets: [] } },
        src: `tile_${key}`,
      });
      const { posted } = adminServer(withPreSearches([preSearch('Harbour', 0), preSearch('Mountains', 1)]));
      server.use(
        http.get(api('index/fields'), () =>
          HttpResponse.json({
            visible_fields: [
              indexField('category', { is_facet: true }),
              indexField('imp_date', { is_facet: true, range_facet: true, type: 'date' }),
            ],
          }),
        ),
      );
      const { user } = await renderApp('/admin/dashboard');
      await user.click(await screen.findByRole('button', { name: 'Edit Mountains' }, slow));
      const dialog = screen.getByRole('dialog', { name: 'Edit pre-search Mountains' });
      await user.click(within(dialog).getByRole('button', { name: 'Add filter' }));
      const first = within(dialog).getByRole('group', { name: 'Filter 1' });
      await user.click(within(first).getByRole('combobox', { name: 'Filter field' }));
      await user.click(await screen.findByRole('option', { name: 'imp_date' }));
      // A range field asks for from and to instead of values.
      expect(within(first).queryByLabelText('Filter values (comma-separated) (EN)')).not.toBeInTheDocument();
      await user.type(within(first).getByLabelText('From (EN)'), '2020-01-01');
      await user.type(within(first).getByLabelText('To (EN)'), '2021-01-01');
      await user.click(within(dialog).getByRole('button', { name: 'Add filter' }));
      const second = within(dialog).getByRole('group', { name: 'Filter 2' });
      await user.click(within(second).getByRole('combobox', { name: 'Filter field' }));
      await user.click(await screen.findByRole('option', { name: 'category' }));
      await user.type(within(second).getByLabelText('Filter values (comma-separated) (EN)'), 'Photography');
      await user.type(within(second).getByLabelText('Filter values (comma-separated) (DE)'), 'Fotografie, Grafik');
      await user.click(within(dialog).getByRole('combobox', { name: 'Sort by' }));
      await user.click(await screen.findByRole('option', { name: 'Added' }));
      await user.click(within(dialog).getByRole('combobox', { name: 'Order' }));
      await user.click(await screen.findByRole('option', { name: 'Ascending' }));
      await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await user.click(screen.getByRole('button', { name: 'Move Mountains up' }));
      expect(screen.getByRole('button', { name: 'Move Mountains up' })).toBeDisabled();
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      const [mountains, harbour] = posted[0]?.dashboard.collections.data ?? [];
      expect(harbour).toEqual(preSearch('Harbour', 1));
      expect(mountains).toEqual({
        key: 'Mountains',
        translation: 'Mountains',
        position: 0,
        src: 'tile_Mountains',
        sort: 'imp_date',
        orientation: 'asc',
        search: {
          en: {
            text: 'Mountains',
            facets: [
              { key: 'imp_date', values: [], range: { from: '2020-01-01', to: '2021-01-01' } },
              { key: 'category', values: ['Photography'] },
            ],
          },
          // No range in German: the filter is left out there.
          de: { text: 'Mountains', facets: [{ key: 'category', values: ['Fotografie', 'Grafik'] }] },
        },
      });
    });

    it('flags an existing pre-search that filters by a field the index no longer has, with the warning notice (admin-spec §4, §5, §8)', async () => {
      adminServer(
        withPreSearches([
          { key: 'Old', position: 0, search: { en: { text: '*', facets: [{ key: 'gone_field', values: ['x'] }] } } },
        ]),
      );
      server.use(
        http.get(api('index/fields'), () =>
          HttpResponse.json({ visible_fields: [indexField('category', { is_facet: true })] }),
        ),
      );
      const { user } = await renderApp('/admin/dashboard');
      expect(
        await screen.findByText('Filters by fields the index does not have: gone_field', {}, slow),
      ).toBeInTheDocument();
      await closeEntryNotice(user);
      await user.click(screen.getByRole('button', { name: 'Edit Old' }));
      const dialog = screen.getByRole('dialog', { name: 'Edit pre-search Old' });
      expect(within(dialog).getByText('This field does not exist in the index.')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
      // Refused while the field is missing, with the spec's warning notice.
      expect(screen.getByRole('dialog', { name: 'Edit pre-search Old' })).toBeInTheDocument();
      expect(
        await screen.findByText('The pre-search refers to fields that are missing from the index.'),
      ).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Remove filter 1' }));
      await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.queryByText(/Filters by fields the index does not have/)).not.toBeInTheDocument();
    });

    it('uploads the tile image of a pre-search under a new id that the saved config carries (§7 "thumbnail")', async () => {
      const preSearch = { key: 'Harbour picks', search: { en: { text: '*', facets: [] } }, position: 0 };
      const { posted } = adminServer(withPreSearches([preSearch]));
      const uploads: { id: string | null; file: FormDataEntryValue | null }[] = [];
      server.use(
        http.post(api('config/thumbnail'), async ({ request }) => {
          uploads.push({
            id: new URL(request.url).searchParams.get('id'),
            file: (await request.formData()).get('file'),
          });
          return HttpResponse.json({ saved: true, deleted: false });
        }),
      );
      const { user } = await renderApp('/admin/dashboard');
      const tile = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'tile.png', { type: 'image/png' });
      await user.upload(await screen.findByLabelText('Tile image of Harbour picks', {}, slow), tile);
      expect(await screen.findByText('File saved', {}, slow)).toBeInTheDocument();
      expect(uploads).toHaveLength(1);
      expect(uploads[0]?.id).toMatch(/^tile_[a-z0-9_]+$/);
      expect(uploads[0]?.file).toMatchObject({ size: 4, type: 'image/png' });
      expect(screen.getByText('There are unsaved changes.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      await waitFor(() => expect(posted).toHaveLength(1));
      expect(posted[0]?.dashboard.collections.data[0]).toMatchObject({ key: 'Harbour picks', src: uploads[0]?.id });
    });

    it('says when the stored config cannot be loaded: every section shows it, and nothing can be saved (admin-spec §4, §8)', async () => {
      adminServer(defaultGlobalConfig);
      server.use(http.get(api('config/global/stored'), failure));
      const { user } = await renderApp('/admin/general');
      // The notice, and the section's own word for the unavailable config.
      await waitFor(() => expect(screen.getAllByText('The configuration could not be loaded.')).toHaveLength(2), slow);
      expect(
        screen.getByText('The configuration could not be loaded.', { selector: '.MuiSnackbar-root *' }),
      ).toBeVisible();
      const tabs = screen.getByRole('navigation', { name: 'Administration' });
      for (const section of ['General', 'Appearance', 'Search settings']) {
        await user.click(within(tabs).getByRole('link', { name: section }));
        expect(await screen.findByRole('heading', { level: 2, name: section })).toBeInTheDocument();
        expect(screen.getAllByText('The configuration could not be loaded.').length).toBeGreaterThanOrEqual(1);
        expect(screen.queryByRole('button', { name: 'Save configuration' })).not.toBeInTheDocument();
        expect(screen.queryByLabelText(/^Website title/)).not.toBeInTheDocument();
      }
    });

    it('says when the config cannot be saved, and keeps the edit unsaved (admin-spec §4, §8)', async () => {
      const { user } = await withFailingPost('config/global', '/admin/general');
      const title = screen.getByLabelText(/^Website title/);
      await user.clear(title);
      await user.type(title, 'Archiv');
      await user.click(screen.getByRole('button', { name: 'Save configuration' }));
      expect(await screen.findByText('Error - could not save configuration!')).toBeInTheDocument();
      expect(screen.getByText('There are unsaved changes.')).toBeInTheDocument();
      expect(title).toHaveValue('Archiv');
      expect(screen.getByRole('button', { name: 'Save configuration' })).toBeEnabled();
    });

    it('says when a new language cannot be stored (admin-spec §4, §8)', async () => {
      const { user } = await withFailingPost('config/translations', '/admin/language');
      await user.click(screen.getByRole('button', { name: 'Add language' }));
      const dialog = screen.getByRole('dialog', { name: 'Add language' });
      await user.type(within(dialog).getByLabelText(/^Name/), 'Français');
      await user.type(within(dialog).getByLabelText(/^Code/), 'fr');
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      expect(await screen.findByText('The language could not be updated.')).toBeInTheDocument();
    });

    it('says when a custom page cannot be saved, and keeps the draft (admin-spec §8)', async () => {
      const { user } = await withFailingPost('config/custom_html', '/admin/editor');
      const heading = await screen.findByLabelText('Heading');
      await user.type(heading, ' und Kontakt');
      await user.click(screen.getByRole('button', { name: 'Save page' }));
      expect(await screen.findByText('The page could not be saved.')).toBeInTheDocument();
      expect(heading).toHaveValue('Impressum und Kontakt');
      expect(screen.getByText('There are unsaved changes.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Save page' })).toBeEnabled();
    });

    it('says when a file cannot be saved (admin-spec §8)', async () => {
      const { user } = await withFailingPost('config/logo', '/admin/appearance');
      const logo = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
      await user.upload(screen.getByLabelText('Logo'), logo);
      expect(await screen.findByText('The file could not be saved.')).toBeInTheDocument();
    });

    it('deletes a stored file and says so (admin-spec §4 "saving with no file deletes it", §8)', async () => {
      adminServer(defaultGlobalConfig);
      const bodies: (string | null)[] = [];
      server.use(
        http.get(api('config'), () =>
          HttpResponse.json(Object.fromEntries(configFileNames.map((n) => [n, n === 'logo']))),
        ),
        http.post(api('config/logo'), async ({ request }) => {
          bodies.push(request.headers.get('content-type'));
          return HttpResponse.json({ saved: false, deleted: true });
        }),
      );
      const { user } = await renderApp('/admin/appearance');
      await closeEntryNotice(user);
      await user.click(await screen.findByRole('button', { name: 'Logo: Delete' }));
      expect(await screen.findByText('File deleted')).toBeInTheDocument();
      expect(bodies).toHaveLength(1);
      expect(bodies[0] ?? '').not.toMatch(/multipart/);
    });

    it('warns of an image over 1 MB and uploads it all the same (admin-spec §5, §8)', async () => {
      adminServer(defaultGlobalConfig);
      const sizes: number[] = [];
      server.use(
        http.post(api('config/dashboardHero'), async ({ request }) => {
          sizes.push(((await request.formData()).get('file') as File).size);
          return HttpResponse.json({ saved: true, deleted: false });
        }),
      );
      const { user } = await renderApp('/admin/dashboard');
      await closeEntryNotice(user);
      const hero = new File([new Uint8Array(IMAGE_WARNING_BYTES + 1)], 'hero.png', { type: 'image/png' });
      await user.upload(screen.getByLabelText('Hero image'), hero);
      const warning = (
        await screen.findByText('The image is larger than 1 MB. A smaller JPG or webp file is recommended.')
      ).closest('[role="alert"]');
      await waitFor(() => expect(sizes).toEqual([IMAGE_WARNING_BYTES + 1]));
      await user.click(within(warning as HTMLElement).getByRole('button', { name: 'Close' }));
      expect(await screen.findByText('File saved')).toBeInTheDocument();
    });

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

    it('flags an unsaved custom page and asks before another language tab drops it (admin-spec §2 "Admin entry guard", §4)', async () => {
      adminServer(defaultGlobalConfig);
      const { user } = await renderApp('/admin/editor');
      const heading = await screen.findByLabelText('Heading', {}, slow);
      expect(screen.queryByText('There are unsaved changes.')).not.toBeInTheDocument();
      await user.type(heading, ' und Kontakt');
      expect(screen.getByText('There are unsaved changes.')).toBeInTheDocument();
      // Cancel keeps the edit on its tab.
      await user.click(screen.getByRole('tab', { name: 'EN (no page yet)' }));
      const question = await screen.findByRole('dialog', { name: 'Discard the unsaved changes?' });
      await user.click(within(question).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByRole('tab', { name: 'DE' })).toHaveAttribute('aria-selected', 'true');
      expect(heading).toHaveValue('Impressum und Kontakt');
      // Typed back to the stored heading: nothing is flagged.
      await user.type(heading, '{Backspace>12}');
      expect(screen.queryByText('There are unsaved changes.')).not.toBeInTheDocument();
      await user.type(heading, '!');
      // Confirmed: the other language's page shows, the edit is dropped.
      await user.click(screen.getByRole('tab', { name: 'EN (no page yet)' }));
      await user.click(
        within(await screen.findByRole('dialog', { name: 'Discard the unsaved changes?' })).getByRole('button', {
          name: 'Confirm',
        }),
      );
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByLabelText('Heading')).toHaveValue('');
      expect(screen.queryByText('There are unsaved changes.')).not.toBeInTheDocument();
      await user.click(screen.getByRole('tab', { name: 'DE' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(await screen.findByLabelText('Heading')).toHaveValue('Impressum');
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
