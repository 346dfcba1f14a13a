import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { IndexField, SuggestionGroup } from '@vitrine/contract/search';
import { api, server } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const field = (field_name: string, default_labels: Record<string, string>): IndexField => ({
  field_name,
  default_labels,
  is_facet: true,
  range_facet: false,
  multi_valued: true,
  origin: 'builtin',
  type: 'string',
  options: {},
});

const longLabel = 'sunset over a very long and winding mountain road in the evening light';

const groups: SuggestionGroup[] = [
  {
    field_name: 'keywords',
    docs: [
      { label: 'sunset', value: 'sunset' },
      { label: 'sun', value: 'sun' },
      { label: longLabel, value: 'long' },
    ],
    preview: 3,
    total: 7,
  },
  { field_name: 'mystery', docs: [{ label: 'Sunny Studio', value: 'studio' }], preview: 5, total: 1 },
];

function network() {
  const asked: string[] = [];
  server.use(
    http.get(api('collection'), () => HttpResponse.json({ collections: [] })),
    http.get(api('index/fields'), () =>
      HttpResponse.json({ visible_fields: [field('keywords', { en: 'Keywords', de: 'Schlagwörter' })] }),
    ),
    http.get(api('search/suggestions'), ({ request }) => {
      const text = new URL(request.url).searchParams.get('text') ?? '';
      asked.push(text);
      return HttpResponse.json({ suggestions: text.length >= 2 ? groups : [] });
    }),
  );
  return asked;
}

async function typeIntoHero(text: string) {
  const rendered = await renderApp('/');
  const input = await screen.findByRole('combobox', { name: 'Search' });
  await rendered.user.type(input, text);
  return { ...rendered, input };
}

describe('dashboard search suggestions (portal-spec §2 "Search")', () => {
  it('shows suggestion groups labelled by field with a more note once two characters are typed', async () => {
    const asked = network();
    await typeIntoHero('su');
    const listbox = await screen.findByRole('listbox', {}, { timeout: 3000 });
    const keywords = within(listbox).getByRole('group', { name: 'Keywords' });
    expect(
      within(keywords)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['sunset', 'sun', longLabel]);
    expect(within(listbox).getByText('4 more')).toBeInTheDocument();
    // A field without a label is called 'Unknown filter' (views.search.tags.error).
    const unknown = within(listbox).getByRole('group', { name: 'Unknown filter' });
    expect(within(unknown).getByRole('option', { name: 'Sunny Studio' })).toBeInTheDocument();
    expect(within(screen.getByRole('search')).getByRole('status')).toHaveTextContent('Suggestions: 4');
    expect(asked).toEqual(['su']);
  });

  it('asks for nothing below two characters', async () => {
    const asked = network();
    const { input } = await typeIntoHero('s');
    await new Promise((r) => setTimeout(r, 400));
    expect(input).toHaveValue('s');
    expect(asked).toEqual([]);
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('choosing a suggestion makes a chip, disables it in the menu, and submitting adds it as +field', async () => {
    network();
    const { user, input, router } = await typeIntoHero('sun');
    await user.click(await screen.findByRole('option', { name: 'sunset' }, { timeout: 3000 }));
    expect(screen.getByRole('button', { name: 'Keywords: sunset' })).toBeInTheDocument();
    expect(input).toHaveValue('');
    expect(screen.getByRole('option', { name: 'sunset' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('option', { name: 'sun' }));
    await user.click(screen.getByRole('option', { name: 'Sunny Studio' }));
    await user.type(input, 'beach{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/beach'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('+keywords')).toBe('sunset,sun');
    expect(params.get('+mystery')).toBe('studio');
  });

  it('cuts long chip values at 50 characters; chips are removed by keyboard; empty text goes to /search/*', async () => {
    network();
    const { user, input, router } = await typeIntoHero('su');
    await user.click(await screen.findByRole('option', { name: longLabel }, { timeout: 3000 }));
    await user.click(screen.getByRole('option', { name: 'sun' }));
    expect(screen.getByRole('button', { name: `Keywords: ${longLabel.slice(0, 50)}…` })).toBeInTheDocument();
    // Backspace in the empty input removes the last chip.
    expect(input).toHaveFocus();
    await user.keyboard('{Backspace}');
    expect(screen.queryByRole('button', { name: 'Keywords: sun' })).not.toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'sun' })).not.toHaveAttribute('aria-disabled', 'true');
    // Arrow left focuses the remaining chip; Delete removes it.
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('button', { name: /^Keywords: sunset over/ })).toHaveFocus();
    await user.keyboard('{Delete}');
    expect(screen.queryByRole('button', { name: /^Keywords:/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start search' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/search/*'));
    expect(router.state.location.search).toBe('');
  });

  it('closes the menu 250 ms after focus leaves the input', async () => {
    network();
    const { user } = await typeIntoHero('su');
    await screen.findByRole('listbox', {}, { timeout: 3000 });
    await user.tab();
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
  });
});
