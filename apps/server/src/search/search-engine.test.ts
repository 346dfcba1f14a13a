import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { must } from '@vitrine/contract/must';
import { SearchInputError, type EngineQuery, type SearchEngine } from '@vitrine/search-engine';
import { buildAssets, buildCollection, editAsset, type NewAsset } from '../../test/factories.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { createSearchEngine } from './create-engine.ts';

/**
 * The shared engine suite (ARCHITECTURE §3 "Search"): the same catalogue and the same expectations
 * on SQLite (FTS5) and PostgreSQL (tsvector). Expected facet counts are computed here from the
 * catalogue definition, not by the engine.
 */

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);
const categories = ['Nature', 'City', 'People', 'Food'];
const creators = ['Anna Müller', 'Bob Smith', 'Chloé Dubois'];
const words = ['sunset', 'mountain', 'river', 'market', 'portrait', 'street', 'harbour', 'forest'];

/** A small deterministic random generator, so the catalogue is the same on every run and database. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

interface Spec extends NewAsset {
  values: {
    title: Record<string, string>;
    keywords: string[];
    category: string;
    creator: string;
    description?: string;
  };
  file_size: number;
  imp_date: number;
  rating: number | null;
  color_code: number;
  access: string[];
  format: string;
}

function catalogue(): Spec[] {
  const rnd = random(7);
  const pick = <T>(list: readonly T[]): T => must(list[Math.floor(rnd() * list.length)], 'an entry of the list');
  const specs: Spec[] = [];
  for (let i = 0; i < 60; i++) {
    const kw = [...new Set([pick(words), pick(words)])];
    specs.push({
      filename: `img_${i}.jpg`,
      format: i % 5 === 0 ? 'png' : 'jpg',
      file_size: 1000 * (i + 1),
      imp_date: T0 + i * DAY,
      rating: i % 7 === 0 ? null : (i % 5) + 1,
      color_code: i % 8,
      access: i % 10 === 9 ? ['staff'] : ['public'],
      values: {
        title: { en: `${kw.join(' ')} number ${i}`, de: `Bild ${i}` },
        keywords: kw,
        category: pick(categories),
        creator: pick(creators),
      },
    });
  }
  // Fixed texts for the query-language cases.
  const fixed: [number, string, string][] = [
    [0, 'Red car in München', 'Rotes Auto an der Straße'],
    [1, 'Car red paint', 'Hund im Garten'],
    [2, 'Dog in the garden', 'Der Hund spielt'],
    [3, 'Street café at night', 'Straßencafé bei Nacht'],
  ];
  for (const [i, en, de] of fixed) must(specs[i], `spec ${i}`).values.title = { en, de };
  must(specs[4], 'spec 4').values.description = 'A red balloon';
  return specs;
}

const specs = catalogue();
const publicSpecs = () => specs.map((s, i) => ({ s, id: i + 1 })).filter(({ s }) => s.access.includes('public'));

describe.each(dialects)('search engine on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let engine: SearchEngine;
  let collectionId: number;
  const find = async (q: string, more: Omit<EngineQuery, 'q'> = {}, groups = ['public']) =>
    engine.search(groups, { q, rows: 1000, ...more });
  const ids = async (q: string, more: Omit<EngineQuery, 'q'> = {}, groups = ['public']) =>
    (await find(q, more, groups)).ids.sort((a, b) => a - b);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = await openDatabase(database.config);
    collectionId = await buildCollection(db, 'Highlights');
    await buildAssets(
      db,
      specs.map((s, i) => ({ ...s, collections: i < 5 ? [collectionId] : [] })),
    );
    engine = createSearchEngine(db, []);
  });

  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it("§2 Search: '*' finds every active asset the caller may see", async () => {
    const all = await find('*');
    expect(all.numFound).toBe(publicSpecs().length);
    const staff = await find('*', {}, ['staff']);
    expect(staff.numFound).toBe(specs.length - publicSpecs().length);
    expect(await find('*', {}, ['nobody'])).toMatchObject({ numFound: 0, ids: [] });
  });

  it('words are ANDed, case- and diacritic-insensitive, in German and English', async () => {
    expect(await ids('RED car')).toEqual([1, 2]);
    expect(await ids('red')).toEqual([1, 2, 5]);
    expect(await ids('munchen')).toEqual([1]);
    expect(await ids('München')).toEqual([1]);
    expect(await ids('strasse')).toEqual([1]);
    expect(await ids('hund')).toEqual([2, 3]);
    expect(await ids('straßencafe nacht')).toEqual([4]);
  });

  it('"phrases" keep word order, prefix* matches word starts, -exclude removes, OR unites', async () => {
    expect(await ids('"red car"')).toEqual([1]);
    expect(await ids('"car red"')).toEqual([2]);
    expect(await ids('gar*')).toEqual([2, 3]);
    expect(await ids('garte*')).toEqual([2]);
    expect(await ids('red -paint')).toEqual([1, 5]);
    expect(await ids('dog OR paint')).toEqual([2, 3]);
    expect(await ids('(dog OR paint) -hund')).toEqual([]);
    const withoutDog = await find('-dog');
    expect(withoutDog.numFound).toBe(publicSpecs().length - 1);
  });

  it('field:value searches a declared field', async () => {
    const expected = publicSpecs()
      .filter(({ s }) => s.values.creator === 'Chloé Dubois')
      .map(({ id }) => id);
    expect(await ids('creator:chloe')).toEqual(expected);
    expect(await ids('creator:"chloe dubois"')).toEqual(expected);
    expect(await ids('title:"red car"')).toEqual([1]);
    await expect(find('nosuchfield:x')).rejects.toBeInstanceOf(SearchInputError);
  });

  it('facet counts match counts computed from the catalogue, with multi-select exclusion', async () => {
    const selected = ['Nature', 'City'];
    const res = await find('*', {
      facetFields: ['category', 'keywords', 'format', 'color_code'],
      filter: [
        { key: 'category', values: selected },
        { key: 'format', values: ['jpg'] },
      ],
    });
    const pub = publicSpecs().map(({ s }) => s);
    const inCat = pub.filter((s) => selected.includes(s.values.category));
    const matched = inCat.filter((s) => s.format === 'jpg');
    expect(res.numFound).toBe(matched.length);

    const tally = (list: Spec[], get: (s: Spec) => string[]) => {
      const m = new Map<string, number>();
      for (const s of list) for (const v of new Set(get(s))) m.set(v, (m.get(v) ?? 0) + 1);
      return m;
    };
    const asMap = (values: { value: string; count: number }[] | undefined) =>
      new Map(must(values, 'the facet').map((v) => [v.value, v.count]));
    // The category facet ignores its own selection (other categories stay selectable) …
    expect(asMap(res.facetFields.category)).toEqual(
      tally(
        pub.filter((s) => s.format === 'jpg'),
        (s) => [s.values.category],
      ),
    );
    // … the format facet ignores the format selection but honours the category one …
    expect(asMap(res.facetFields.format)).toEqual(tally(inCat, (s) => [s.format]));
    // … and facets without a selection count the result.
    expect(asMap(res.facetFields.keywords)).toEqual(tally(matched, (s) => s.values.keywords));
    expect(must(res.facetFields.color_code, 'the colour facet').find((v) => v.value === '1')?.label).toBe('red');
  });

  it('filters of facets and of other fields answer alike for few matches and many, before and after their documents are kept', async () => {
    const spec = (id: number) => must(specs[id - 1], `spec of asset ${id}`);
    const selected = ['Nature', 'City', 'People'];
    const filter = [
      { key: 'category', values: selected },
      { key: 'format', values: ['jpg'] },
      { key: 'file_size', values: ['2000 TO 50000'], range: true },
    ];
    const others = (id: number) =>
      spec(id).format === 'jpg' && spec(id).file_size >= 2000 && spec(id).file_size <= 50000;
    // 'red' matches three of 60 assets: tested one by one until the filters' bit sets are kept;
    // 'number' matches most: the bit sets are made. Then 'red' again, through the kept sets.
    for (const q of ['red', 'number', 'red']) {
      const matches = await ids(q);
      const res = await find(q, { facetFields: ['category', 'keywords'], filter });
      const kept = matches.filter((id) => others(id) && selected.includes(spec(id).values.category));
      expect(res.ids.sort((a, b) => a - b)).toEqual(kept);
      const tally = (list: number[], get: (id: number) => string[]) => {
        const m = new Map<string, number>();
        for (const id of list) for (const v of new Set(get(id))) m.set(v, (m.get(v) ?? 0) + 1);
        return [...m].sort();
      };
      const counted = (name: string) =>
        must(res.facetFields[name], name)
          .map((v): [string, number] => [v.value, v.count])
          .sort();
      // The category facet counts without its own filter, the others with every filter.
      expect(counted('category')).toEqual(tally(matches.filter(others), (id) => [spec(id).values.category]));
      expect(counted('keywords')).toEqual(tally(kept, (id) => spec(id).values.keywords));
    }
    expect((await ids('red')).length).toBeLessThan(60 / 16);
  });

  it('facet values are sorted alphabetically by default and can be paged', async () => {
    const all = must((await find('*', { facetFields: ['keywords'] })).facetFields.keywords, 'the keywords facet').map(
      (v) => v.value,
    );
    expect(all).toEqual([...all].sort());
    const page = must(
      (await find('*', { facetFields: ['keywords'], facetOffset: 2, facetLimit: 3 })).facetFields.keywords,
      'the keywords facet',
    );
    expect(page.map((v) => v.value)).toEqual(all.slice(2, 5));
  });

  it('ranges include both edges, accept open ends and ISO dates, and report min/max', async () => {
    const res = await find('*', { filter: [{ key: 'file_size', values: ['3000 TO 5000'], range: true }] });
    expect(res.ids.sort((a, b) => a - b)).toEqual([3, 4, 5]);
    expect((await find('*', { filter: [{ key: 'file_size', values: ['* TO 2000'], range: true }] })).numFound).toBe(2);
    const day3 = new Date(T0 + 2 * DAY).toISOString();
    const byDate = await find('*', { filter: [{ key: 'imp_date', values: [`${day3} TO ${day3}`], range: true }] });
    expect(byDate.ids).toEqual([3]);
    const ranges = await find('*', {
      facetFields: ['file_size'],
      filter: [{ key: 'file_size', values: ['3000 TO 5000'], range: true }],
    });
    // The range facet's own selection is excluded: min/max span the whole visible catalogue.
    const sizes = publicSpecs().map(({ s }) => s.file_size);
    expect(ranges.facetRanges.file_size).toEqual({ min: Math.min(...sizes), max: Math.max(...sizes) });
  });

  it('filters by ids, DAM collection and selected suggestions', async () => {
    expect(await ids('*', { ids: [3, 1, 10, 999] })).toEqual([1, 3]);
    expect(await ids('*', { collection: collectionId })).toEqual([1, 2, 3, 4, 5]);
    const expected = publicSpecs()
      .filter(({ s }) => s.values.creator === 'Bob Smith')
      .map(({ id }) => id);
    expect(await ids('*', { suggestions: [{ field_name: 'creator', values: ['Bob Smith'] }] })).toEqual(expected);
  });

  it('sorting: ties are broken by newest asset first, missing values last; paging is stable', async () => {
    const sorted = (await find('*', { sort: { field: 'rating', dir: 'desc' } })).ids;
    const expected = publicSpecs()
      .map(({ s, id }) => ({ id, r: s.rating }))
      .sort((a, b) => (a.r === null ? 1 : 0) - (b.r === null ? 1 : 0) || (b.r ?? 0) - (a.r ?? 0) || b.id - a.id)
      .map((x) => x.id);
    expect(sorted).toEqual(expected);
    const pages: number[] = [];
    for (let start = 0; start < expected.length; start += 7) {
      pages.push(...(await find('*', { sort: { field: 'rating', dir: 'desc' }, start, rows: 7 })).ids);
    }
    expect(pages).toEqual(expected);
    const byDate = (await find('*', { sort: { field: 'imp_date', dir: 'asc' }, rows: 3 })).ids;
    expect(byDate).toEqual([1, 2, 3]);
  });

  it('large results page through a precomputed order with the same answer as a direct sort', async () => {
    const walking = createSearchEngine(db, [], { directSortLimit: 0 });
    for (const [q, groups] of [
      ['*', ['public']],
      ['*', ['public', 'staff']],
      ['sunset OR river', ['public']],
    ] as const) {
      for (const sort of [
        { field: 'rating', dir: 'desc' },
        { field: 'file_size', dir: 'asc' },
        { field: 'filename', dir: 'asc' },
      ] as const) {
        const direct = await engine.search([...groups], { q, sort, start: 3, rows: 11 });
        expect((await walking.search([...groups], { q, sort, start: 3, rows: 11 })).ids).toEqual(direct.ids);
      }
    }
  });

  it('relevance ranks title matches first', async () => {
    // 'red' is in the titles of assets 1 and 2 (equal scores: newest first), in the description of 5.
    const res = await find('red', { sort: { field: 'score', dir: 'desc' } });
    expect(res.ids).toEqual([2, 1, 5]);
    const hund = await find('hund garden', { sort: { field: 'score', dir: 'desc' } });
    expect(hund.ids).toEqual([3]);
    // Each word of an OR counts where it is: 'car' in two titles (2 points), 'balloon' in 5's description.
    expect((await find('balloon OR car', { sort: { field: 'score', dir: 'desc' } })).ids).toEqual([2, 1, 5]);
    expect((await find('balloon OR car', { sort: { field: 'score', dir: 'asc' } })).ids).toEqual([5, 2, 1]);
    // 'red' in the titles of 1 and 2, in 5's description with 'balloon': two points each.
    expect((await find('red OR balloon', { sort: { field: 'score', dir: 'desc' } })).ids).toEqual([5, 2, 1]);
    expect((await find('red (car OR balloon)', { sort: { field: 'score', dir: 'desc' } })).ids).toEqual([2, 1, 5]);
  });

  it('bad input is refused with the parameter named', async () => {
    const bad = async (q: EngineQuery) => {
      const err: unknown = await engine.search(['public'], q).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SearchInputError);
      return (err as SearchInputError).param;
    };
    expect(await bad({ q: '*', sort: { field: 'nope', dir: 'asc' } })).toBe('solr_sort');
    expect(await bad({ q: '*', facetFields: ['nope'] })).toBe('solr_facetfields');
    expect(await bad({ q: '*', facetFields: ['title'] })).toBe('solr_facetfields');
    expect(await bad({ q: '*', filter: [{ key: 'nope', values: ['x'] }] })).toBe('filter');
    expect(await bad({ q: '*', filter: [{ key: 'file_size', values: ['a TO b'], range: true }] })).toBe('filter');
    expect(await bad({ q: '*', filter: [{ key: 'file_size', values: ['9 TO 1'], range: true }] })).toBe('filter');
    expect(await bad({ q: '*', filter: [{ key: 'category', values: ['1 TO 2'], range: true }] })).toBe('filter');
    expect(await bad({ q: '(unclosed' })).toBe('solr_q');
  });

  it('suggestions offer visible values whose words start with the typed text', async () => {
    const group = must((await engine.suggest(['public'], 'mu', ['creator'], 5))[0], 'a suggestion group');
    expect(group.field_name).toBe('creator');
    expect(group.docs.map((d) => d.value)).toEqual(['Anna Müller']);
    expect(group.total).toBe(1);
    const none = await engine.suggest(['nobody'], 'mu', ['creator'], 5);
    expect(none[0]?.docs).toEqual([]);
    await expect(engine.suggest(['public'], 'x', ['title'], 5)).rejects.toBeInstanceOf(SearchInputError);
  });

  it('catches up with imports and edits made by another process', async () => {
    const other = createSearchEngine(db, []);
    expect((await other.search(['public'], { q: 'zebra' })).numFound).toBe(0);
    const [added] = await buildAssets(db, [
      { values: { title: { en: 'Zebra crossing' }, category: 'Wildlife' }, access: ['public'] },
    ]);
    expect((await engine.search(['public'], { q: 'zebra' })).ids).toEqual([added]);
    expect((await other.search(['public'], { q: 'zebra' })).ids).toEqual([added]);
    await editAsset(db, added, { values: { title: { en: 'Giraffe' } } });
    expect((await other.search(['public'], { q: 'zebra' })).numFound).toBe(0);
    expect((await other.search(['public'], { q: 'giraffe' })).ids).toEqual([added]);
    await editAsset(db, added, { access: ['staff'] });
    expect((await other.search(['public'], { q: 'giraffe' })).numFound).toBe(0);
    await editAsset(db, added, { access: ['public'], status: 'gone' });
    expect((await other.search(['public'], { q: 'giraffe' })).numFound).toBe(0);
    expect(
      (await other.search(['public'], { q: '*', facetFields: ['category'] })).facetFields.category,
    ).not.toContainEqual(expect.objectContaining({ value: 'Wildlife' }));
  });
});

describe.each(dialects)('facets in the content language on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let engine: SearchEngine;
  // Single-valued category and multi-valued keywords in English and German, as the demo has them;
  // some values exist in one language only.
  const catalogue: NewAsset[] = [
    ...Array.from({ length: 5 }, () => ({
      values: {
        category: { en: 'Photography', de: 'Fotografie' },
        keywords: { en: ['sea', 'boat'], de: ['Meer', 'Boot'] },
      },
    })),
    ...Array.from({ length: 3 }, () => ({
      values: { category: { en: '3D models', de: '3D-Modelle' }, keywords: { en: ['boat'], de: ['Boot'] } },
    })),
    { values: { category: { de: 'Nur Deutsch' }, keywords: { de: ['Meer'] } } },
    { values: { category: 'Plain', keywords: ['sea'] } },
  ];
  const counts = (values: { value: string; count: number }[] | undefined) =>
    Object.fromEntries(must(values, 'the facet').map((v) => [v.value, v.count]));

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = await openDatabase(database.config);
    await buildAssets(
      db,
      catalogue.map((a) => ({ ...a, access: ['public'] })),
    );
    engine = createSearchEngine(db, []);
  });

  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  const facets = (lang: string, filter: EngineQuery['filter'] = []) =>
    engine.search(['public'], { q: '*', lang, facetFields: ['category', 'keywords'], filter });

  it('§3 Facet value: values and counts are those of the caller content language, each asset counted once', async () => {
    const en = await facets('en');
    expect(counts(en.facetFields.category)).toEqual({ '3D models': 3, 'Nur Deutsch': 1, Photography: 5, Plain: 1 });
    expect(counts(en.facetFields.keywords)).toEqual({ boat: 8, Meer: 1, sea: 6 });
    const de = await facets('de');
    expect(counts(de.facetFields.category)).toEqual({ '3D-Modelle': 3, Fotografie: 5, 'Nur Deutsch': 1, Plain: 1 });
    expect(counts(de.facetFields.keywords)).toEqual({ Boot: 8, Meer: 6, sea: 1 });
    // An unknown language answers the English values.
    expect(counts((await facets('fr')).facetFields.category)).toEqual(counts(en.facetFields.category));
  });

  it('per language the counts of a single-valued facet add up to at most numFound', async () => {
    for (const lang of ['en', 'de']) {
      const res = await facets(lang);
      const sum = must(res.facetFields.category, 'the category facet').reduce((acc, v) => acc + v.count, 0);
      expect(sum).toBeLessThanOrEqual(res.numFound);
      expect(res.numFound).toBe(catalogue.length);
    }
  });

  it('two values of one facet are ORed, in the caller content language', async () => {
    expect((await facets('en', [{ key: 'category', values: ['Photography', '3D models'] }])).numFound).toBe(8);
    expect((await facets('de', [{ key: 'category', values: ['Fotografie', '3D-Modelle'] }])).numFound).toBe(8);
    expect((await facets('en', [{ key: 'category', values: ['Photography', 'Nur Deutsch'] }])).numFound).toBe(6);
    // The facet's own selection is excluded from its counts; the other facet honours it.
    const filtered = await facets('de', [{ key: 'category', values: ['Fotografie'] }]);
    expect(counts(filtered.facetFields.category)['3D-Modelle']).toBe(3);
    expect(counts(filtered.facetFields.keywords)).toEqual({ Boot: 5, Meer: 5 });
  });

  it('suggestions and selected suggestions use the caller content language', async () => {
    const de = must((await engine.suggest(['public'], 'bo', ['keywords'], 5, 'de'))[0], 'a German group');
    expect(de.docs.map((d) => d.value)).toEqual(['Boot']);
    const en = must((await engine.suggest(['public'], 'bo', ['keywords'], 5, 'en'))[0], 'an English group');
    expect(en.docs.map((d) => d.value)).toEqual(['boat']);
    const found = await engine.search(['public'], {
      q: '*',
      lang: 'de',
      suggestions: [{ field_name: 'keywords', values: ['Meer'] }],
    });
    expect(found.numFound).toBe(6);
  });

  it('a language first seen in an import gets its own values without mixing the others', async () => {
    await buildAssets(db, [{ values: { category: { fr: 'Photographie', en: 'Photography' } }, access: ['public'] }]);
    const fr = await facets('fr');
    expect(counts(fr.facetFields.category)).toMatchObject({ Photographie: 1, Photography: 5 });
    expect(counts((await facets('de')).facetFields.category)).toMatchObject({ Fotografie: 5, Photography: 1 });
    expect(await engine.contentLanguages()).toEqual(['de', 'en', 'fr']);
  });
});

describe('both engines', () => {
  it('answer identical results for the same catalogue and queries', async () => {
    const answers: unknown[][] = [];
    for (const dialect of dialects) {
      const database = await createTestDatabase(dialect);
      const db = await openDatabase(database.config);
      await buildAssets(db, specs);
      const engine = createSearchEngine(db, []);
      const out: unknown[] = [];
      for (const q of ['*', 'red', 'sunset OR river', 'mount* -forest', '"number 1"', 'creator:anna', 'strasse']) {
        out.push(
          await engine.search(['public', 'staff'], {
            q,
            rows: 20,
            facetFields: ['keywords', 'category', 'rating', 'imp_date'],
            sort: { field: 'score', dir: 'desc' },
          }),
        );
      }
      answers.push(out);
      await db.close();
      await database.drop();
    }
    expect(answers[1]).toEqual(answers[0]);
  });
});
