import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { renderApp } from '../../test/renderApp.tsx';
import { api } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';
import { server, slow, closeEntryNotice, indexField, withPreSearches, adminServer } from '../../test/adminServer.tsx';

startTestServer(server, 'error');

describe(
  'admin area (admin-spec §2 "Admin entry guard", §4 "Config versioning and upgrade", §5): dashboard and pre-searches',
  { timeout: 60_000 },
  () => {
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
  },
);
