import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AssetDoc, IndexField } from '@vitrine/contract/search';
import { builtInFields } from '@vitrine/contract/fields';
import { addedLanguageHandler, api, configHandlers, server } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { layOutResults } from '../../test/resultsLayout.ts';
import { must } from '@vitrine/contract/must';
import { listLayout } from './ListTable.tsx';

layOutResults();
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The index fields every catalogue has, as `index/fields` answers them. */
const indexFields: IndexField[] = builtInFields;

const catalogue: AssetDoc[] = [
  {
    id: '1',
    title: 'Red car',
    format: 'jpg',
    file_size: 1_500_000,
    imp_date: Date.UTC(2024, 0, 2),
    rating: 4,
    keywords: ['car', 'red'],
  },
  { id: '2', title: 'Blue boat', format: 'png', file_size: 2500, imp_date: Date.UTC(2023, 5, 7), rating: 2 },
];

/** A search server over two assets; the sorts asked for, in order. */
function network(stored: Record<string, unknown> = {}): string[] {
  const sorts: string[] = [];
  server.use(
    ...configHandlers(stored),
    http.get(api('index/fields'), () => HttpResponse.json({ visible_fields: indexFields })),
    http.get(api('search'), ({ request }) => {
      sorts.push(new URL(request.url).searchParams.get('solr_sort') ?? '');
      return HttpResponse.json({
        response: { docs: catalogue, numFound: catalogue.length, start: 0 },
        facetCounts: { facetFields: {}, facetRanges: {} },
      });
    }),
  );
  return sorts;
}

/** The search page in the list view (the view kept in the tab). */
async function listView(locale: 'en' | 'de', stored: Record<string, unknown> = {}) {
  const sorts = network(stored);
  sessionStorage.setItem('vitrine.searchView', 'list');
  const app = await renderApp('/search/*', { locale });
  const table = await screen.findByRole(
    'table',
    { name: locale === 'en' ? 'Results' : 'Ergebnisse' },
    { timeout: 15_000 },
  );
  // The rows are drawn in a transition once the table's width is known.
  await within(table).findAllByRole('cell', undefined, { timeout: 15_000 });
  return { ...app, table, sorts };
}

const headers = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((h) => h.textContent);

describe('the list view as a table (portal-spec §2 "Search", config search.list)', { timeout: 40_000 }, () => {
  it.each([
    {
      locale: 'en' as const,
      want: ['Picture', 'Title', 'Format', 'File size', 'Added'],
      size: '1.5 MB',
      date: '1/2/24',
    },
    {
      locale: 'de' as const,
      want: ['Bild', 'Titel', 'Format', 'Dateigröße', 'Hinzugefügt'],
      size: '1,5 MB',
      date: '02.01.24',
    },
  ])('in $locale without configured columns: the picture, title, format, size and date', async (c) => {
    const { table } = await listView(c.locale);
    expect(headers(table)).toEqual(c.want);
    const row = must(within(table).getAllByRole('row')[1], 'a first result row');
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(1)).toEqual(['Red car', 'jpg', c.size, c.date]);
    expect(within(row).getByRole('button', { name: 'Red car' })).toBeInTheDocument();
  });

  it.each([
    { locale: 'en' as const, base: 1024, size: '1.43 MiB' },
    { locale: 'de' as const, base: 1024, size: '1,43 MiB' },
    { locale: 'en' as const, base: 1000, size: '1.5 MB' },
    { locale: 'de' as const, base: 1000, size: '1,5 MB' },
  ])('in $locale shows file sizes in the configured base $base (config global.file_size_base)', async (c) => {
    const { table } = await listView(c.locale, { global: { file_size_base: c.base } });
    const row = must(within(table).getAllByRole('row')[1], 'a first result row');
    expect(within(row).getAllByRole('cell')[3]).toHaveTextContent(c.size);
  });

  it.each([
    { locale: 'en' as const, want: ['Picture', 'Rating', 'Keywords', 'Sort by'] },
    { locale: 'de' as const, want: ['Bild', 'Bewertung', 'Schlagwörter', 'Sortieren nach'] },
  ])('in $locale shows the configured columns with their labels', async (c) => {
    const { table } = await listView(c.locale, {
      search: {
        list: {
          columns: [
            { field_name: 'rating' },
            { field_name: 'keywords' },
            { field_name: 'title', translation: 'views.search.sort.label' },
          ],
          options: { imageColWidth: 120, rowHeight: 90 },
        },
      },
    });
    expect(headers(table)).toEqual(c.want);
    const row = must(within(table).getAllByRole('row')[1], 'a first result row');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['', '4', 'car, red', 'Red car']);
    expect(row).toHaveStyle({ height: '90px' });
  });

  it.each([
    { locale: 'en' as const, added: 'Added', title: 'Title' },
    { locale: 'de' as const, added: 'Hinzugefügt', title: 'Titel' },
  ])(
    'in $locale a sortable header sorts by its key, again toggles the direction, and says so with aria-sort',
    async (c) => {
      const { table, sorts, user } = await listView(c.locale);
      // Only the sort options are sortable: the title is a plain header.
      expect(within(table).queryByRole('button', { name: c.title })).not.toBeInTheDocument();
      const added = () => within(table).getByRole('columnheader', { name: c.added });
      expect(added()).not.toHaveAttribute('aria-sort');
      await user.click(within(added()).getByRole('button', { name: c.added }));
      await waitFor(() => expect(sorts.at(-1)).toBe('imp_date desc'));
      await waitFor(() => expect(added()).toHaveAttribute('aria-sort', 'descending'));
      // By keyboard: the active key toggles asc/desc, as the sort menu does.
      within(added()).getByRole('button', { name: c.added }).focus();
      await user.keyboard('{Enter}');
      await waitFor(() => expect(sorts.at(-1)).toBe('imp_date asc'));
      await waitFor(() => expect(added()).toHaveAttribute('aria-sort', 'ascending'));
      expect(
        screen.getByRole('button', { name: c.locale === 'en' ? /^Sort by/ : /^Sortieren nach/ }),
      ).toHaveTextContent(
        c.locale === 'en' ? 'Sort by: Added (Ascending)' : 'Sortieren nach: Hinzugefügt (Aufsteigend)',
      );
    },
  );

  it('selects by the picture and the row, opens the info panel in a row of its own', async () => {
    const { table, user } = await listView('en');
    const row = (i: number) => must(within(table).getAllByRole('row')[i], `row ${i}`);
    await user.click(within(row(1)).getByRole('button', { name: 'Red car' }));
    expect(within(row(1)).getByRole('button', { name: 'Red car' })).toHaveAttribute('aria-pressed', 'true');
    const panel = await screen.findByRole('region', { name: 'Details of Red car' });
    expect(within(row(2)).getByRole('cell')).toContainElement(panel);
    // A ctrl click on the next row's text adds it to the selection.
    await user.keyboard('{Control>}');
    await user.click(within(row(3)).getByRole('cell', { name: 'Blue boat' }));
    await user.keyboard('{/Control}');
    expect(screen.getByText('2 selected')).toBeInTheDocument();
  });
});

describe(
  'field labels in a language an admin added (admin-spec "Translation set": metadata.<field>)',
  { timeout: 40_000 },
  () => {
    it('names the list columns and the info view’s fields by the language’s translation set, the rest by the fallback language', async () => {
      network({ infoView: { paramsLeft: [], paramsRight: [{ field_name: 'file_size' }] } });
      server.use(addedLanguageHandler('fr', { metadata: { file_size: 'Taille du fichier' } }));
      sessionStorage.setItem('vitrine.searchView', 'list');
      const { user } = await renderApp('/search/*', { locale: 'fr', remoteTexts: true });
      const table = await screen.findByRole('table', { name: 'Results' }, { timeout: 15_000 });
      await within(table).findAllByRole('cell', undefined, { timeout: 15_000 });
      expect(headers(table)).toEqual(['Picture', 'Title', 'Format', 'Taille du fichier', 'Added']);

      await user.click(within(table).getAllByRole('button', { name: 'Red car' })[0]!);
      const panel = await screen.findByRole('region', { name: 'Details of Red car' });
      expect(within(panel).getByText('Taille du fichier')).toBeInTheDocument();
      expect(within(panel).queryByText('File size')).not.toBeInTheDocument();
    });
  },
);

describe('the list table’s layout (config search.list.options.imageColWidth)', () => {
  it('keeps the configured picture width where the text columns fit beside it', () => {
    expect(listLayout(4, 250, 1200)).toMatchObject({ imageWidth: 250, tableWidth: 1200 });
  });

  it('narrows the picture first, then scrolls the table sideways on a phone', () => {
    expect(listLayout(4, 250, 700)).toMatchObject({ imageWidth: 188, tableWidth: 700 });
    expect(listLayout(4, 250, 375)).toMatchObject({ imageWidth: 96, tableWidth: 608 });
    // A configured picture narrower than the least width stays as configured.
    expect(listLayout(2, 60, 375).imageWidth).toBe(60);
  });
});
