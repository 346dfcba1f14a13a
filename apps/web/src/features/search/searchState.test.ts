import { describe, expect, it } from 'vitest';
import { matchesSuggestion, suggestionOptions } from '../../stores/searchInput.ts';
import type { AssetDoc } from '@vitrine/contract/search';
import { defaultGlobalConfig } from '@vitrine/contract/config-defaults';
import { posterRows, rowGap, viewRows } from './layout.ts';
import { viewSizesOf } from './resultsBox.ts';
import {
  chooseSort,
  firstPageSize,
  loadDistance,
  nextPageSize,
  parseSearchRoute,
  posterIconSlots,
  resetFacet,
  routeSort,
  searchRoutePath,
  setRadioValue,
  setSliderRange,
  sidebarWidthAfterDrag,
  sliderShown,
  sliderStep,
  sortingFor,
  toggleFacetValue,
  type ViewSizes,
} from './searchState.ts';

const sizes: ViewSizes = {
  posterMinHeight: 200,
  posterMaxHeight: 250,
  thumbWidth: 330,
  thumbHeight: 200,
  thumbBodyLines: 0,
  rowHeight: 200,
  listImageWidth: 250,
  posterBorder: 2,
  thumbBorder: 2,
  thumbIconsOnHover: false,
};

describe('§4 Search: facet update', () => {
  it('selecting a value adds it, selecting it again removes it, removing the last removes the facet', () => {
    let f = toggleFacetValue([], 'category', 'Photography');
    expect(f).toEqual([{ key: 'category', values: ['Photography'] }]);
    f = toggleFacetValue(f, 'category', 'Video');
    expect(f).toEqual([{ key: 'category', values: ['Photography', 'Video'] }]);
    f = toggleFacetValue(f, 'keywords', 'sea');
    f = toggleFacetValue(f, 'category', 'Photography');
    expect(f).toEqual([
      { key: 'category', values: ['Video'] },
      { key: 'keywords', values: ['sea'] },
    ]);
    f = toggleFacetValue(f, 'category', 'Video');
    expect(f).toEqual([{ key: 'keywords', values: ['sea'] }]);
  });

  it('a radio facet replaces its value', () => {
    const f = setRadioValue([{ key: 'license', values: ['CC0'] }], 'license', 'MIT');
    expect(f).toEqual([{ key: 'license', values: ['MIT'] }]);
  });

  it("a slider sets 'min TO max' and is null (removed) at the full range again", () => {
    const bounds: [number, number] = [0, 100];
    const f = setSliderRange([], 'rating', [10, 50], bounds, 'other');
    expect(f).toEqual([{ key: 'rating', values: ['10 TO 50'], range: true }]);
    expect(setSliderRange(f, 'rating', [0, 100], bounds, 'other')).toEqual([]);
  });

  it('§5: a file-size range within 10 of both bounds counts as unchanged', () => {
    const bounds: [number, number] = [1000, 90_000];
    expect(setSliderRange([], 'file_size', [1009, 89_991], bounds, 'filesize')).toEqual([]);
    expect(setSliderRange([], 'file_size', [1011, 89_991], bounds, 'filesize')).toEqual([
      { key: 'file_size', values: ['1011 TO 89991'], range: true },
    ]);
  });

  it('§5: slider steps are a day for dates, 10 for file sizes, 1 otherwise; shown only when the bounds differ', () => {
    expect(sliderStep('date')).toBe(86_400_000);
    expect(sliderStep('filesize')).toBe(10);
    expect(sliderStep('other')).toBe(1);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(sliderShown([0, 3_600_000], 'date', day)).toBe(false);
    expect(sliderShown([0, 86_400_000], 'date', day)).toBe(true);
    expect(sliderShown([5, 5], 'other', day)).toBe(false);
  });

  it('reset removes the facet', () => {
    const f = resetFacet(
      [
        { key: 'category', values: ['Video'] },
        { key: 'rating', values: ['1 TO 3'], range: true },
      ],
      'rating',
    );
    expect(f).toEqual([{ key: 'category', values: ['Video'] }]);
  });

  it('the route carries filters, suggestions, ids and the collection, and reads back the same', () => {
    const params = new URLSearchParams(
      '+category=Photography,Video&+imp_date=1 TO 9&+creator=Anna&id=3,4&meta_collections=2',
    );
    const route = parseSearchRoute('forest', params, (f) => f !== 'creator');
    expect(route).toEqual({
      text: 'forest',
      filters: [
        { key: 'category', values: ['Photography', 'Video'] },
        { key: 'imp_date', values: ['1 TO 9'], range: true },
      ],
      suggestions: [{ field_name: 'creator', values: ['Anna'] }],
      ids: ['3', '4'],
      collection: 2,
    });
    const path = searchRoutePath(route);
    const [p, qs] = path.split('?');
    expect(p).toBe('/search/forest');
    expect(parseSearchRoute('forest', new URLSearchParams(qs), (f) => f !== 'creator')).toEqual(route);
    expect(
      searchRoutePath({ ...route, text: '  ', filters: [], suggestions: [], ids: [], collection: undefined }),
    ).toBe('/search/*');
  });
});

describe('§4 Search: sort', () => {
  it('choosing the active key toggles asc/desc; another key uses the default orientation', () => {
    const s = { key: 'score', orientation: 'desc' as const };
    expect(chooseSort(s, 'score', 'desc')).toEqual({ key: 'score', orientation: 'asc' });
    expect(chooseSort({ key: 'score', orientation: 'asc' }, 'score', 'desc')).toEqual({
      key: 'score',
      orientation: 'desc',
    });
    expect(chooseSort(s, 'rating', 'desc')).toEqual({ key: 'rating', orientation: 'desc' });
  });
});

describe('§4 Search: the sort a route asks for', () => {
  const sorting = {
    default: 'score',
    options: [
      { key: 'score', active: true },
      { key: 'rating', active: true },
      { key: 'size', active: false },
    ],
    orientation: { default: 'desc' as const },
  };
  it('takes an active sort key with its orientation or the default one', () => {
    expect(routeSort({ sort: 'rating', orientation: 'asc' }, sorting)).toEqual({ key: 'rating', orientation: 'asc' });
    expect(routeSort({ sort: 'rating' }, sorting)).toEqual({ key: 'rating', orientation: 'desc' });
  });
  it("offers no sort by a field the caller's index lacks (a field only some groups see), and falls back to relevance", () => {
    const guestFields = [{ field_name: 'title' }, { field_name: 'size' }];
    const forGuest = sortingFor({ ...sorting, default: 'rating' }, guestFields);
    expect(forGuest.options.map((o) => o.key)).toEqual(['score', 'size']);
    expect(forGuest.default).toBe('score');
    expect(routeSort({ sort: 'rating', orientation: 'asc' }, forGuest)).toEqual({ key: 'score', orientation: 'desc' });
    // Someone who sees the field keeps it; before the fields are known, the configured sorting stands.
    const all = [...guestFields, { field_name: 'rating' }];
    expect(sortingFor(sorting, all)).toBe(sorting);
    expect(sortingFor(sorting, [])).toBe(sorting);
  });
  it('falls back to the configured default for no key, an unknown key or an inactive one', () => {
    expect(routeSort({}, sorting)).toEqual({ key: 'score', orientation: 'desc' });
    expect(routeSort({ sort: 'nonsense', orientation: 'asc' }, sorting)).toEqual({ key: 'score', orientation: 'desc' });
    expect(routeSort({ sort: 'size', orientation: 'asc' }, sorting)).toEqual({ key: 'score', orientation: 'desc' });
  });
  it('is written into the route and read back from it', () => {
    const route = parseSearchRoute(
      'boat',
      new URLSearchParams('sort=rating&orientation=asc&orientation=sideways'),
      () => false,
    );
    expect([route.sort, route.orientation]).toEqual(['rating', undefined]);
    const written = searchRoutePath({ ...route, orientation: 'asc' });
    expect(written).toBe('/search/boat?sort=rating&orientation=asc');
  });
});

describe('§9 page sizes', () => {
  it('first page: thumbnails max(25, ceil(w/tw * h/th * 1.5)), list ceil(h/row)+10, posters max(25, (ceil(cols*rows)+10)*2)', () => {
    expect(firstPageSize('thumbnail', 1650, 800, sizes)).toBe(Math.ceil(5 * 4 * 1.5));
    expect(firstPageSize('thumbnail', 330, 200, sizes)).toBe(25);
    expect(firstPageSize('list', 1000, 750, sizes)).toBe(4 + 10);
    expect(firstPageSize('grid', 1000, 700, sizes)).toBe((Math.ceil(5 * 3.5) + 10) * 2);
    expect(firstPageSize('grid', 200, 200, sizes)).toBe(25);
  });

  it('next pages: thumbnails and posters max(15, ceil(columns*5)), list 15', () => {
    expect(nextPageSize('thumbnail', 1650, sizes)).toBe(25);
    expect(nextPageSize('thumbnail', 330, sizes)).toBe(15);
    expect(nextPageSize('grid', 1000, sizes)).toBe(25);
    expect(nextPageSize('list', 5000, sizes)).toBe(15);
  });

  it('infinite scroll distances: 4 poster max heights, 4 thumbnail heights, 7 row heights', () => {
    expect(loadDistance('grid', sizes)).toBe(1000);
    expect(loadDistance('thumbnail', sizes)).toBe(800);
    expect(loadDistance('list', sizes)).toBe(1400);
  });
});

describe('§2 Poster, thumbnail and list rows', () => {
  it('the icon set needs width − 19.2 ≥ 40, one 40 px slot each', () => {
    expect(posterIconSlots(59)).toBe(0);
    expect(posterIconSlots(59.2)).toBe(1);
    expect(posterIconSlots(180)).toBe(4);
  });

  it('poster rows fill the width at heights from 200 to 250 where they can', () => {
    const rows = posterRows([1.5, 1.5, 1, 1.5, 0.75, 2, 1.5], 1000, 200, 250, 4);
    for (const row of rows.slice(0, -1)) {
      const used = row.widths.reduce((a, b) => a + b, 0) + (row.widths.length - 1) * 4;
      expect(used).toBeLessThanOrEqual(1000);
      expect(used).toBeGreaterThan(1000 - row.widths.length - 1);
      expect(row.height).toBeGreaterThanOrEqual(200);
      expect(row.height).toBeLessThanOrEqual(250);
    }
    expect(rows.flatMap((r) => r.widths)).toHaveLength(7);
  });

  it('portal-spec §9 Defaults "poster heights 200 to 250 (gap 4 px)": four square posters fill 1012 px with three 4 px gaps', () => {
    const defaults = viewSizesOf(defaultGlobalConfig.search);
    const squares = Array.from({ length: 6 }, (_, i): AssetDoc => ({ id: String(i), pixel_x: 600, pixel_y: 600 }));
    const [first] = viewRows('grid', squares, 1012, defaults);
    // 4 × 250 + 3 × 4: at the greatest height, the row is exactly as wide as the area.
    expect(first).toEqual({ start: 0, widths: [250, 250, 250, 250], height: 250 });
    expect(rowGap('grid')).toBe(4);
  });

  it('portal-spec §9 Defaults "thumbnails 330 x 200 (gap 8)": a row takes as many thumbnails as fit with 8 px between them', () => {
    const defaults = viewSizesOf(defaultGlobalConfig.search);
    const docs = Array.from({ length: 8 }, (_, i): AssetDoc => ({ id: String(i) }));
    const columns = (width: number) => viewRows('thumbnail', docs, width, defaults)[0]?.widths.length;
    const four = 4 * defaults.thumbWidth + 3 * 8;
    expect(columns(four)).toBe(4);
    expect(columns(four - 1)).toBe(3);
    expect(rowGap('thumbnail')).toBe(8);
  });

  it('§5 sidebar drags below x = 80 are ignored', () => {
    expect(sidebarWidthAfterDrag(260, 79)).toBe(260);
    expect(sidebarWidthAfterDrag(260, 80)).toBe(80);
  });
});

describe('§2 Search: suggestion filtering', () => {
  const options = suggestionOptions([
    {
      field_name: 'keywords',
      docs: [
        { label: 'Sunset', value: 'sunset' },
        { label: 'sun', value: 'sun' },
        { label: 'Moon', value: 'moon' },
      ],
      preview: 2,
      total: 9,
    },
  ]);
  it('offers each group its preview count and filters case-insensitively by substring of the label', () => {
    expect(options.map((o) => o.value)).toEqual(['sunset', 'sun']);
    expect(options.filter((o) => matchesSuggestion(o, ' SUN ')).map((o) => o.value)).toEqual(['sunset', 'sun']);
    expect(options.filter((o) => matchesSuggestion(o, 'nse')).map((o) => o.value)).toEqual(['sunset']);
  });
});
