import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, configHandlers, server } from '../../test/msw.ts';
import { renderApp } from '../../test/renderApp.tsx';
import { layOutResults } from '../../test/resultsLayout.ts';
import { indexField } from '../../test/indexField.ts';
import { colourOf, similarOf, withColour, withRouteTerms, withSimilar, wordsOf } from './colour.ts';

layOutResults();
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A search server of two roses; records each search's text. */
function network() {
  const asked: string[] = [];
  server.use(
    ...configHandlers(),
    http.get(api('index/fields'), () =>
      HttpResponse.json({ visible_fields: [indexField('category', 'Category'), indexField('title', 'Title')] }),
    ),
    http.get(api('search'), ({ request }) => {
      asked.push(new URL(request.url).searchParams.get('solr_q') ?? '');
      const docs = [
        { id: '1', title: 'Yellow rose', category: 'Garden' },
        { id: '2', title: 'Red rose', category: 'Garden' },
      ];
      return HttpResponse.json({
        response: { docs, numFound: docs.length, start: 0 },
        facetCounts: { facetFields: { category: [{ value: 'Garden', count: 2 }] }, facetRanges: {} },
      });
    }),
    http.get(api('assets'), () =>
      HttpResponse.json({ response: { docs: [{ id: '1', title: 'Yellow rose', asset_groups: ['image'] }] } }),
    ),
  );
  return asked;
}

const heading = (name: string | RegExp) => screen.findByRole('heading', { name }, { timeout: 15_000 });

describe('search by colour and "similar" (issue #52)', { timeout: 40_000 }, () => {
  it('reads and writes the colour term, keeping the rest of the text', () => {
    expect(colourOf('roses colour:#FFCC00')).toBe('#ffcc00');
    expect(colourOf('color:#00ff00 roses')).toBe('#00ff00');
    expect(colourOf('roses')).toBeUndefined();
    expect(withColour('roses colour:#ffcc00', '#00FF00')).toBe('roses colour:#00ff00');
    expect(withColour('*', '#ffcc00')).toBe('colour:#ffcc00');
    expect(withColour('roses colour:#ffcc00', undefined)).toBe('roses');
    // Taken out of the middle, the term leaves one space between the words.
    expect(withColour('harbour colour:#c04030 boats', undefined)).toBe('harbour boats');
    expect(withColour('harbour colour:#c04030 colour:#00ff00 boats', '#ffcc00')).toBe('harbour boats colour:#ffcc00');
  });

  it('puts a swatch into the search as a removable tag, which stays after going to an asset and back', async () => {
    const asked = network();
    const { user, router } = await renderApp('/search/roses');
    await heading(/results/);
    const colour = screen.getByRole('group', { name: 'Colour' });
    const yellow = within(colour).getByRole('button', { name: 'Search by the colour yellow' });
    yellow.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(asked.at(-1)).toBe('roses colour:#fbc02d'));
    expect(decodeURIComponent(router.state.location.pathname)).toBe('/search/roses colour:#fbc02d');
    expect(await screen.findByRole('button', { name: /Colour: #fbc02d/ })).toBeInTheDocument();
    expect(
      within(screen.getByRole('group', { name: 'Colour' })).getByRole('button', { name: /yellow/ }),
    ).toHaveAttribute('aria-pressed', 'true');

    await router.navigate('/asset/1');
    await heading('Yellow rose');
    await router.navigate(-1);
    await heading(/results/);
    const tag = await screen.findByRole('button', { name: /Colour: #fbc02d/ });
    // The tag's delete takes the colour out and keeps the words.
    tag.focus();
    await user.keyboard('{Delete}');
    await waitFor(() => expect(decodeURIComponent(router.state.location.pathname)).toBe('/search/roses'));
    expect(screen.queryByRole('button', { name: /Colour: #fbc02d/ })).not.toBeInTheDocument();
  });

  it('takes any colour from the labelled native picker, in German too', async () => {
    const asked = network();
    const { router, user } = await renderApp('/search/*', { locale: 'de' });
    await heading(/Ergebnisse/);
    const picker = within(screen.getByRole('group', { name: 'Farbe' })).getByLabelText('Farbe wählen');
    expect(picker).toHaveAttribute('type', 'color');
    // user-event cannot drive a colour picker: the browser's chosen colour arrives as its change event.
    // The sidebar may draw its picker anew as answers arrive, so the pick goes to the one shown now,
    // until the search asks for it.
    const pick = (value: string) =>
      waitFor(
        () => {
          fireEvent.change(within(screen.getByRole('group', { name: 'Farbe' })).getByLabelText('Farbe wählen'), {
            target: { value },
          });
          expect(asked.at(-1)).toBe(`colour:${value}`);
        },
        { timeout: 5_000 },
      );
    await pick('#336699');
    expect(decodeURIComponent(router.state.location.pathname)).toBe('/search/colour:#336699');
    expect(await screen.findByRole('button', { name: /Farbe: #336699/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Nach der Farbe Gelb suchen' })).toHaveAttribute('aria-pressed', 'false');
    // A second pick replaces the first; a swatch's colour shows in the picker.
    await pick('#993366');
    await user.click(screen.getByRole('button', { name: 'Nach der Farbe Blau suchen' }));
    await waitFor(() => expect(asked.at(-1)).toBe('colour:#1976d2'), { timeout: 5_000 });
    expect(within(screen.getByRole('group', { name: 'Farbe' })).getByLabelText('Farbe wählen')).toHaveValue('#1976d2');
  });

  it.each([
    {
      locale: 'en',
      words: 'roses',
      yellow: 'Search by the colour yellow',
      found: '2 results for “roses”',
      box: 'Search',
      tag: /Colour: #fbc02d/,
    },
    {
      locale: 'de',
      words: 'rosen',
      yellow: 'Nach der Farbe Gelb suchen',
      found: '2 Ergebnisse für „rosen“',
      box: 'Suche',
      tag: /Farbe: #fbc02d/,
    },
  ])(
    'shows a picked colour as the tag only, the search box and the heading keeping the words ($locale)',
    async ({ locale, words, yellow, found, box, tag }) => {
      const asked = network();
      const { user } = await renderApp(`/search/${words}`, { locale });
      await heading(found);
      await user.click(screen.getByRole('button', { name: yellow }));
      await waitFor(() => expect(asked.at(-1)).toBe(`${words} colour:#fbc02d`));
      expect(await screen.findByRole('button', { name: tag })).toBeInTheDocument();
      expect(await heading(found)).toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: box })).toHaveValue(words);
    },
  );

  it('reads a colour without words as a search without words: the box empty, the heading a count', async () => {
    network();
    await renderApp('/search/colour:%23fbc02d', { locale: 'de' });
    expect(await heading('2 Ergebnisse')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Suche' })).toHaveValue('');
    expect(screen.getByRole('button', { name: /Farbe: #fbc02d/ })).toBeInTheDocument();
  });

  it('keeps the chosen colour when the box is submitted, by Enter or by the search button', async () => {
    const asked = network();
    const { user, router } = await renderApp('/search/roses%20colour:%23fbc02d');
    await heading('2 results for “roses”');
    const box = screen.getByRole('combobox', { name: 'Search' });
    await user.clear(box);
    await user.type(box, 'harbour{Enter}');
    await waitFor(() => expect(asked.at(-1)).toBe('harbour colour:#fbc02d'));
    expect(decodeURIComponent(router.state.location.pathname)).toBe('/search/harbour colour:#fbc02d');
    await heading('2 results for “harbour”');
    expect(box).toHaveValue('harbour');
    expect(screen.getByRole('button', { name: /Colour: #fbc02d/ })).toBeInTheDocument();
    await user.clear(box);
    await user.type(box, 'boats');
    await user.click(screen.getByRole('button', { name: 'Start search' }));
    await waitFor(() => expect(asked.at(-1)).toBe('boats colour:#fbc02d'));
    expect(box).toHaveValue('boats');
  });

  it('takes a colour term typed into the box in place of the chosen colour, shown as the tag', async () => {
    const asked = network();
    const { user } = await renderApp('/search/roses%20colour:%23fbc02d');
    await heading('2 results for “roses”');
    const box = screen.getByRole('combobox', { name: 'Search' });
    await user.clear(box);
    await user.type(box, 'roses colour:#00FF00{Enter}');
    await waitFor(() => expect(asked.at(-1)).toBe('roses colour:#00ff00'));
    expect(await screen.findByRole('button', { name: /Colour: #00ff00/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Colour: #fbc02d/ })).not.toBeInTheDocument();
    expect(box).toHaveValue('roses');
    // Typing the colour already chosen leaves the route as it was; the box shows the words again.
    await user.clear(box);
    await user.type(box, 'roses colour:#00ff00{Enter}');
    await waitFor(() => expect(box).toHaveValue('roses'));
    expect(asked.at(-1)).toBe('roses colour:#00ff00');
  });

  it('opens a shareable search of similar assets from the info panel', async () => {
    network();
    const { user, router } = await renderApp('/search/*');
    await heading(/results/);
    await user.click(await screen.findByRole('button', { name: 'Yellow rose' }));
    const panel = screen.getByRole('region', { name: 'Details of Yellow rose' });
    await user.click(within(panel).getByRole('link', { name: 'Similar assets' }));
    await waitFor(() => expect(decodeURIComponent(router.state.location.pathname)).toBe('/search/similar:1'));
  });

  it("reads and writes the look-alike term beside the colour, a typed term in place of the route's", () => {
    expect(similarOf('roses similar:42')).toBe('42');
    expect(similarOf('similar:rose')).toBeUndefined();
    expect(withSimilar('harbour similar:42 boats', undefined)).toBe('harbour boats');
    expect(withSimilar('*', '7')).toBe('similar:7');
    expect(wordsOf('harbour similar:42 colour:#c04030 boats')).toBe('harbour boats');
    expect(withRouteTerms('boats', 'roses similar:42 colour:#c04030')).toBe('boats colour:#c04030 similar:42');
    expect(withRouteTerms('boats similar:7', 'roses similar:42')).toBe('boats similar:7');
  });

  it.each([
    ['en', 'Search', '2 results', /^Remove filter Similar: Yellow rose$/],
    ['de', 'Suche', '2 Ergebnisse', /^Filter Ähnlich: Yellow rose entfernen$/],
  ] as const)(
    'names the asset of a search of look-alikes in a tag, not in the box or the heading (%s)',
    async (locale, box, count, tag) => {
      const asked = network();
      const { user, router } = await renderApp('/search/similar:1', { locale });
      expect(await heading(count)).toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: box })).toHaveValue('');
      const similar = await screen.findByRole('button', { name: tag });
      // Words typed into the box search among the look-alikes.
      await user.type(screen.getByRole('combobox', { name: box }), 'garden{Enter}');
      await waitFor(() => expect(asked.at(-1)).toBe('garden similar:1'));
      expect(screen.getByRole('combobox', { name: box })).toHaveValue('garden');
      // The tag's delete leaves the words.
      (await screen.findByRole('button', { name: tag })).focus();
      await user.keyboard('{Delete}');
      await waitFor(() => expect(decodeURIComponent(router.state.location.pathname)).toBe('/search/garden'));
      expect(similar).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: tag })).not.toBeInTheDocument();
    },
  );
});
