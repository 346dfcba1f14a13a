import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { facetConfigSchema } from '@vitrine/contract/global-config';
import { renderApp } from '../../test/renderApp.tsx';
import { api } from '../../test/sessionServer.ts';
import { startTestServer } from '../../test/testServer.ts';
import { server, slow, indexField, withIndexFields, adminServer } from '../../test/adminServer.tsx';

startTestServer(server, 'error');

describe(
  'admin area (admin-spec §2 "Admin entry guard", §4 "Config versioning and upgrade", §5): search settings',
  { timeout: 60_000 },
  () => {
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

    it('says that a field the server defines as a range is shown as a slider when checkboxes or radios are chosen (admin-spec §5)', async () => {
      adminServer({
        ...defaultGlobalConfig,
        facets: [
          facetConfigSchema.parse({ field_name: 'created', position: 0, options: { multivalue: 'slider' } }),
          facetConfigSchema.parse({ field_name: 'category', position: 1, options: { multivalue: 'radio' } }),
        ],
      });
      withIndexFields(
        indexField('created', { is_facet: true, range_facet: true, type: 'date' }),
        indexField('category', { is_facet: true }),
      );
      const { user } = await renderApp('/admin/search');
      const shownAsSlider = 'The server defines this field as a range: the portal shows it as a slider.';
      const created = within(await screen.findByRole('group', { name: 'created' }, slow));
      expect(created.queryByText(shownAsSlider)).not.toBeInTheDocument();
      expect(
        within(screen.getByRole('group', { name: 'category' })).queryByText(shownAsSlider),
      ).not.toBeInTheDocument();
      for (const choice of ['Checkboxes', 'Radio buttons']) {
        await user.click(created.getByRole('combobox', { name: 'Selection' }));
        await user.click(await screen.findByRole('option', { name: choice }));
        expect(created.getByText(shownAsSlider)).toBeInTheDocument();
      }
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
  },
);
