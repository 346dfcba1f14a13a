import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { must } from '@vitrine/contract/must';
import type { SearchAnswer } from '@vitrine/contract/search';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { buildAsset, buildCollection, editAsset } from '../../test/factories.ts';
import { verifyMediaUrl } from '../access/media-url.ts';
import { ConfigRepository } from '../config/config.repository.ts';
import { DerivativeRepository } from '../derivatives/derivative.repository.ts';
import { SearchRepository } from './search.repository.ts';

const API = '/assetportal/api/';

describe('search API over HTTP (portal-spec §7 Calls)', () => {
  let t: TestApp;
  let staffHeaders: Record<string, string>;
  let collectionId: number;
  const ids: number[] = [];

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url: API + url, headers });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
  };
  const search = async (query: string, headers: Record<string, string> = {}) => {
    const res = await get(`search?${query}`, headers);
    expect(res.status).toBe(200);
    return res.body as unknown as SearchAnswer;
  };

  beforeAll(async () => {
    const settings = {
      groups: [
        { name: 'public', portalAccess: true },
        { name: 'users', portalAccess: true },
        { name: 'staff', portalAccess: true },
        { name: 'admins', portalAccess: true, guiAdmin: true },
      ],
      fields: [
        {
          field_name: 'project',
          default_labels: { en: 'Project', de: 'Projekt' },
          is_facet: true,
          range_facet: false,
          multi_valued: false,
          origin: 'settings',
          type: 'string',
        },
      ],
    };
    t = await startTestApp({ settings });
    const db = t.app.db;
    collectionId = await buildCollection(db, 'Spring campaign');
    ids.push(
      await buildAsset(db, {
        filename: 'tulips.jpg',
        file_size: 2_000_000,
        rating: 5,
        color_code: 1,
        pixel_x: 4000,
        pixel_y: 3000,
        values: {
          title: { en: 'Tulip field', de: 'Tulpenfeld' },
          keywords: { en: ['tulip', 'spring'], de: ['Tulpe', 'Frühling'] },
          creator: 'Anna Müller',
          project: 'Garden 2024',
        },
        collections: [collectionId],
      }),
      await buildAsset(db, {
        filename: 'harbour.jpg',
        file_size: 500_000,
        rating: 3,
        values: { title: { en: 'Harbour at dawn', de: 'Hafen im Morgengrauen' }, creator: 'Bob Smith' },
      }),
      await buildAsset(db, {
        filename: 'secret.jpg',
        values: { title: { en: 'Secret prototype' } },
        access: ['staff'],
      }),
    );
    staffHeaders = (await signIn(t, { groups: ['staff'] })).headers;
  });

  afterAll(async () => t.close());

  it('GET search answers docs, numFound, start and facet counts', async () => {
    const res = await search('solr_q=*&solr_facetfields=creator&solr_facetfields=file_size&solr_sort=imp_date%20asc');
    expect(res.response.numFound).toBe(2);
    expect(res.response.start).toBe(0);
    expect(res.response.docs.map((d) => d.id)).toEqual([String(ids[0]), String(ids[1])]);
    expect(res.facetCounts.facetFields.creator).toEqual([
      { value: 'Anna Müller', count: 1 },
      { value: 'Bob Smith', count: 1 },
    ]);
    expect(res.facetCounts.facetRanges.file_size).toEqual({ min: 500_000, max: 2_000_000 });
  });

  it('§3 Asset: docs carry id as text, signed thumbnail url, size, groups and values in the content language', async () => {
    const de = await search(`solr_q=tulpe`, { 'accept-language': 'de-DE,de;q=0.9' });
    const doc = must(de.response.docs[0], 'a doc');
    expect(doc).toMatchObject({
      id: String(ids[0]),
      width: 4000,
      height: 3000,
      rating: 5,
      color_code: 1,
      asset_groups: ['image'],
      title: 'Tulpenfeld',
      keywords: ['Tulpe', 'Frühling'],
      creator: 'Anna Müller',
      project: 'Garden 2024',
      meta_collections: [collectionId],
    });
    const url = new URL(doc.url!, 'http://x');
    expect(url.pathname).toBe(`/media/thumb/${ids[0]}`);
    expect(
      verifyMediaUrl(
        t.settings.secret,
        `thumb/${ids[0]}`,
        url.searchParams.get('exp') ?? undefined,
        url.searchParams.get('sig') ?? undefined,
      ),
    ).toBe('ok');
    const en = await search(`solr_q=tulpe`, { 'accept-language': 'en' });
    expect(en.response.docs[0]).toMatchObject({ title: 'Tulip field', keywords: ['tulip', 'spring'] });
  });

  it('§2 Poster, thumbnail and list rows: docs carry the ThumbHash of their thumbnail as placeholder, when it has one', async () => {
    // Shown without a thumbnail first: kept rows without a placeholder.
    expect((await search('solr_q=*&solr_rows=10')).response.docs.some((d) => d.thumbhash)).toBe(false);
    const asked = vi.spyOn(SearchRepository.prototype, 'thumbhashes');
    try {
      // No placeholder written since: the answer does not ask for them.
      await search('solr_q=*&solr_rows=10');
      expect(asked).not.toHaveBeenCalled();
    } finally {
      asked.mockRestore();
    }
    // The thumbnail is made (as the derivative job writes it): the next answer carries its placeholder.
    await new DerivativeRepository(t.app.db.kysely).replace(
      must(ids[0], 'the first asset'),
      ['thumb'],
      [
        {
          asset_id: must(ids[0], 'the first asset'),
          kind: 'thumb',
          page: 0,
          sha256: 'x',
          path: 'thumb.webp',
          mime: 'image/webp',
          width: 400,
          height: 300,
          bytes: 1,
          placeholder: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==',
          created_at: 1,
        },
      ],
    );
    const answer = await search('solr_q=*&solr_rows=10');
    const byId = new Map(answer.response.docs.map((d) => [d.id, d]));
    expect(byId.get(String(ids[0]))?.thumbhash).toBe('YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==');
    expect(byId.get(String(ids[1]))).toBeDefined();
    expect(byId.get(String(ids[1]))).not.toHaveProperty('thumbhash');
  });

  it('§3 Facet value: facet values and filters are in the caller content language, like the docs', async () => {
    const en = await search('solr_facetfields=keywords');
    expect(en.facetCounts.facetFields.keywords).toEqual([
      { value: 'spring', count: 1 },
      { value: 'tulip', count: 1 },
    ]);
    const de = { 'accept-language': 'de-DE,de;q=0.9' };
    const german = await search('solr_facetfields=keywords', de);
    expect(german.facetCounts.facetFields.keywords).toEqual([
      { value: 'Frühling', count: 1 },
      { value: 'Tulpe', count: 1 },
    ]);
    const filter = encodeURIComponent(JSON.stringify([{ key: 'keywords', values: ['Tulpe'] }]));
    expect((await search(`filter=${filter}`, de)).response.docs.map((d) => d.id)).toEqual([String(ids[0])]);
    expect((await search(`filter=${filter}`, { 'accept-language': 'en' })).response.numFound).toBe(0);
  });

  it('filters, declared fields and visibility apply over HTTP', async () => {
    const filter = encodeURIComponent(JSON.stringify([{ key: 'project', values: ['Garden 2024'] }]));
    expect((await search(`filter=${filter}`)).response.numFound).toBe(1);
    const range = encodeURIComponent(JSON.stringify([{ key: 'file_size', values: ['0 TO 500000'], range: true }]));
    expect((await search(`filter=${range}`)).response.docs.map((d) => d.id)).toEqual([String(ids[1])]);
    expect((await search('solr_q=secret')).response.numFound).toBe(0);
    expect((await search('solr_q=secret', staffHeaders)).response.numFound).toBe(1);
    expect((await search(`meta_collections=${collectionId}`)).response.numFound).toBe(1);
    expect((await search(`id=${ids[1]},${ids[2]}`)).response.docs.map((d) => d.id)).toEqual([String(ids[1])]);
  });

  it.each([
    ['malformed JSON in filter', 'filter=%5B%7Bkey', 'filter'],
    ['an unknown filter field', `filter=${encodeURIComponent('[{"key":"nope","values":["x"]}]')}`, 'filter'],
    [
      'a bad range',
      `filter=${encodeURIComponent('[{"key":"file_size","values":["big TO small"],"range":true}]')}`,
      'filter',
    ],
    ['an unknown sort key', 'solr_sort=colour%20asc', 'solr_sort'],
    ['a sort without direction', 'solr_sort=rating', 'solr_sort'],
    ['rows out of bounds', 'solr_rows=5000', 'solr_rows'],
    ['a negative start', 'solr_start=-1', 'solr_start'],
    ['an unknown facet field', 'solr_facetfields=nope', 'solr_facetfields'],
    ['an unknown field in the query', 'solr_q=nope:1', 'solr_q'],
    ['a bad id list', 'id=1,abc', 'id'],
    ['a facet value order without direction (§3 "Facet config")', 'facet_sort=category:count', 'facet_sort'],
    ['a facet value order of an unknown kind (§3 "Facet config")', 'facet_sort=category:size:asc', 'facet_sort'],
  ])('bad input: %s is a 400 validation error naming the parameter', async (_what, query, param) => {
    const res = await get(`search?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation');
    expect(JSON.stringify(res.body.details)).toContain(param);
  });

  it.each([
    ['too many words', Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ')],
    [
      'too many prefixes',
      Array.from(
        { length: 120 },
        (_, i) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}*`,
      ).join(' OR '),
    ],
  ])('§2 Search: a query with %s is a 400 query_too_costly error naming solr_q', async (_what, q) => {
    const res = await get(`search?solr_q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('query_too_costly');
    expect(res.body.message).toMatch(/at most \d+/);
    expect(JSON.stringify(res.body.details)).toContain('solr_q');
  });

  it('refuses callers without portal access (401 for a stale token)', async () => {
    const res = await get('search', { authorization: 'Bearer not-a-session' });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('unauthorized');
  });

  it('GET assets?assetid=[…] answers the visible assets in the order asked', async () => {
    const res = await get(`assets?assetid=${encodeURIComponent(JSON.stringify([ids[1], ids[2], ids[0], 99999]))}`);
    expect(res.status).toBe(200);
    const docs = (res.body.response as { docs: { id: string }[] }).docs;
    expect(docs.map((d) => d.id)).toEqual([String(ids[1]), String(ids[0])]);
    expect((await get('assets?assetid=[1,"x"]')).status).toBe(400);
  });

  it('GET index/fields lists built-in and declared fields; index/content_locales the languages', async () => {
    const fields = await get('index/fields');
    const names = (fields.body.visible_fields as { field_name: string }[]).map((f) => f.field_name);
    expect(names).toEqual(expect.arrayContaining(['title', 'keywords', 'imp_date', 'rating', 'project']));
    const locales = await get('index/content_locales');
    expect(locales.body).toEqual({ locales: ['de', 'en'] });
  });

  it('GET search/suggestions answers groups of matching visible values', async () => {
    const res = await get('search/suggestions?text=tu&fields=keywords&fields=creator');
    expect(res.status).toBe(200);
    expect(res.body.suggestions).toEqual([
      {
        field_name: 'keywords',
        docs: [{ label: 'tulip', value: 'tulip' }],
        preview: 1,
        total: 1,
      },
      { field_name: 'creator', docs: [], preview: 0, total: 0 },
    ]);
    const de = await get('search/suggestions?text=tu&fields=keywords', { 'accept-language': 'de' });
    expect(de.body.suggestions).toEqual([
      { field_name: 'keywords', docs: [{ label: 'Tulpe', value: 'Tulpe' }], preview: 1, total: 1 },
    ]);
    expect((await get('search/suggestions?text=se&fields=title')).status).toBe(400);
  });

  it('§2 Dashboard: collection?operation=list answers the pre-searches and DAM collections', async () => {
    const empty = await get('collection?operation=list');
    expect(empty.body.collections).toEqual([
      { indicator: `collection_${collectionId}`, label: 'Spring campaign', src: String(ids[0]), position: 0 },
    ]);
    await new ConfigRepository(t.app.db).put('global', '', {
      dashboard: {
        collections: {
          data: [
            {
              key: 'best',
              translation: 'collections.best',
              position: 1,
              search: { en: { text: '*', facets: [{ key: 'rating', values: ['5'] }] } },
              sort: 'imp_date',
              orientation: 'desc',
            },
            {
              key: 'broken',
              position: 2,
              search: { en: { text: 'harbour', facets: [{ key: 'lens', values: ['50mm'] }] } },
            },
          ],
        },
      },
    });
    const list = await get('collection?operation=list');
    expect((list.body.collections as { indicator: string }[]).map((c) => c.indicator)).toEqual([
      'best',
      'broken',
      `collection_${collectionId}`,
    ]);
  });

  it('collection/get answers the first rows of a pre-search and reports fields missing from the index', async () => {
    const best = await get('collection/get?collection=best');
    expect(best.status).toBe(200);
    expect((best.body.response as { docs: { id: string }[] }).docs.map((d) => d.id)).toEqual([String(ids[0])]);
    const broken = await get('collection/get?collection=broken');
    expect(broken.status).toBe(200);
    expect((broken.body.response as { numFound: number }).numFound).toBe(1);
    expect(broken.body.errors).toEqual([expect.stringContaining("'lens'")]);
    const dam = await get(`collection/get?collection=collection_${collectionId}`);
    expect((dam.body.response as { numFound: number }).numFound).toBe(1);
    expect((await get('collection/get?collection=nothing')).status).toBe(404);
    expect((await get('collection/get?collection=collection_999')).status).toBe(404);
    // As a search, each reads the catalogue's state once (issue #31 "The answer path").
    const reads = vi.spyOn(SearchRepository.prototype, 'catalogueState');
    try {
      for (const collection of ['best', `collection_${collectionId}`]) {
        reads.mockClear();
        expect((await get(`collection/get?collection=${collection}`)).status).toBe(200);
        expect(reads).toHaveBeenCalledTimes(1);
      }
    } finally {
      reads.mockRestore();
    }
  });

  it('runs a pre-search with a range facet as the contract writes it: range {from, to}, open ends allowed', async () => {
    const preSearch = (key: string, position: number, range: { from: string; to: string }) => ({
      key,
      position,
      search: { en: { text: '', facets: [{ key: 'file_size', values: [], range }] } },
    });
    const repo = new ConfigRepository(t.app.db);
    await repo.put('global', '', {
      dashboard: {
        collections: {
          data: [
            preSearch('small', 0, { from: '0', to: '1000000' }),
            preSearch('large', 1, { from: '1000000', to: '' }),
          ],
        },
      },
    });
    try {
      const docs = async (key: string) => {
        const res = await get(`collection/get?collection=${key}`);
        expect(res.body.errors).toBeUndefined();
        return (res.body.response as { docs: { id: string }[] }).docs.map((d) => d.id);
      };
      expect(await docs('small')).toEqual([String(ids[1])]);
      expect(await docs('large')).toEqual([String(ids[0])]);
    } finally {
      await repo.remove('global');
    }
  });

  it('reads the pre-searches the web app reads: an entry the contract refuses leaves the list as config/global does', async () => {
    const repo = new ConfigRepository(t.app.db);
    // Not the contract's shape (range: boolean, flat from/to): config/global answers the default list.
    await repo.put('global', '', {
      dashboard: {
        collections: {
          data: [
            { key: 'good', position: 0, search: { en: { text: 'tulip', facets: [] } } },
            { key: 'flat', position: 1, search: { en: { facets: [{ key: 'file_size', range: true, from: 0 }] } } },
          ],
        },
      },
    });
    try {
      const config = await get('config/global');
      const dashboard = config.body.dashboard as { collections: { data: unknown[] } };
      const list = await get('collection?operation=list');
      const indicators = (list.body.collections as { indicator: string }[]).map((c) => c.indicator);
      expect(indicators.filter((i) => !i.startsWith('collection_'))).toEqual(
        dashboard.collections.data.map((p) => (p as { key: string }).key),
      );
    } finally {
      await repo.remove('global');
    }
  });
  it('§2 Dashboard: lists the DAM collections in the order the catalogue made them, not by name', async () => {
    const archive = await buildCollection(t.app.db, 'Archive');
    await buildAsset(t.app.db, {
      filename: 'archive.jpg',
      values: { title: { en: 'Old map' } },
      collections: [archive],
    });
    const list = await get('collection?operation=list');
    const dam = (list.body.collections as { indicator: string; label: string }[]).filter((c) =>
      c.indicator.startsWith('collection_'),
    );
    expect(dam.map((c) => c.label)).toEqual(['Spring campaign', 'Archive']);
  });

  it('§1 "dashboard": the DAM collections the admin chose are shown, in the chosen order; collection/dam lists them all to admins only', async () => {
    const admin = (await signIn(t, { groups: ['admins'] })).headers;
    expect((await get('collection/dam')).status).toBe(401);
    expect((await get('collection/dam', staffHeaders)).status).toBe(403);
    const all = (await get('collection/dam', admin)).body.collections as { id: number; name: string }[];
    expect(all.map((c) => c.name)).toEqual(['Spring campaign', 'Archive']);
    const [spring, archive] = all.map((c) => c.id);
    const repo = new ConfigRepository(t.app.db);
    const damShown = async () =>
      ((await get('collection?operation=list')).body.collections as { indicator: string; position: number }[])
        .filter((c) => c.indicator.startsWith('collection_'))
        .map((c) => [c.indicator, c.position]);
    try {
      // Chosen in the other order, with one that no longer exists: it is left out.
      await repo.put('global', '', {
        dashboard: { collections: { dam: { all: false, ids: [archive, 999, spring] } } },
      });
      expect(await damShown()).toEqual([
        [`collection_${archive}`, 0],
        [`collection_${spring}`, 1],
      ]);
      await repo.put('global', '', { dashboard: { collections: { dam: { all: false, ids: [spring] } } } });
      expect(await damShown()).toEqual([[`collection_${spring}`, 0]]);
      await repo.put('global', '', { dashboard: { collections: { dam: { all: false, ids: [] } } } });
      expect(await damShown()).toEqual([]);
    } finally {
      await repo.remove('global');
    }
    expect((await damShown()).map(([indicator]) => indicator)).toEqual([
      `collection_${spring}`,
      `collection_${archive}`,
    ]);
  });

  it('§3 "Facet config": facet_sort orders a facet\'s values by count or alphabetically, up or down; without it the index field\'s order stays', async () => {
    for (const [category, n] of [
      ['Photography', 3],
      ['Audio', 2],
      ['Graphics', 1],
    ] as const) {
      for (let i = 0; i < n; i++) {
        await buildAsset(t.app.db, {
          filename: `${category}-${i}.jpg`,
          values: { title: { en: category }, category: { en: category, de: category } },
        });
      }
    }
    const valuesIn = async (params: string) =>
      (await search(`solr_rows=0&solr_facetfields=category${params}`)).facetCounts.facetFields.category?.map(
        (v) => `${v.value} ${v.count}`,
      );
    // The index field's order: alphabetical, ascending.
    const alphabetical = ['Audio 2', 'Graphics 1', 'Photography 3'];
    expect(await valuesIn('')).toEqual(alphabetical);
    expect(await valuesIn('&facet_sort=category:count:asc')).toEqual(['Graphics 1', 'Audio 2', 'Photography 3']);
    expect(await valuesIn('&facet_sort=category:count:desc')).toEqual(['Photography 3', 'Audio 2', 'Graphics 1']);
    expect(await valuesIn('&facet_sort=category:alphabetical:desc')).toEqual([
      'Photography 3',
      'Graphics 1',
      'Audio 2',
    ]);
    // A further page ("show more") goes on in the same order; another facet's order changes nothing here.
    expect(await valuesIn('&facet_sort=category:count:desc&facet_offset=1&facet_limit=1')).toEqual(['Audio 2']);
    expect(await valuesIn('&facet_sort=keywords:count:desc')).toEqual(alphabetical);
  });

  it('an answer shows an asset as it is after a change, also when an earlier answer showed it (the docs kept per asset)', async () => {
    const id = await buildAsset(t.app.db, {
      filename: 'kite.jpg',
      rating: 2,
      values: { title: { en: 'Red kite', de: 'Roter Drachen' }, creator: 'Chen Li' },
      collections: [collectionId],
    });
    const docOf = async (lang: string) =>
      (await search(`solr_q=*&id=${id}`, { 'accept-language': lang })).response.docs[0];
    expect(await docOf('en')).toMatchObject({ title: 'Red kite', rating: 2, meta_collections: [collectionId] });
    expect(await docOf('en')).toMatchObject({ title: 'Red kite' });

    await editAsset(t.app.db, id, { rating: 4, values: { title: { en: 'Blue kite', de: 'Blauer Drachen' } } });
    expect(await docOf('en')).toMatchObject({ title: 'Blue kite', rating: 4, creator: 'Chen Li' });
    expect(await docOf('de')).toMatchObject({ title: 'Blauer Drachen' });
    // By id too (the asset page's call), from the same kept rows.
    const byId = await get(`assets?assetid=${id}`);
    expect(byId.body).toMatchObject({ response: { docs: [{ id: String(id), title: 'Blue kite', rating: 4 }] } });
  });

  it('a search reads the catalogue’s state once (issue #31 "The answer path"), and the asset call sees a change at once', async () => {
    const id = await buildAsset(t.app.db, { filename: 'heron.jpg', values: { title: { en: 'Grey heron' } } });
    await search('solr_q=*');
    const reads = vi.spyOn(SearchRepository.prototype, 'catalogueState');
    try {
      await search('solr_q=heron&solr_facetfields=category', { 'accept-language': 'de' });
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
    // Shown by a search, then changed: the asset call (no search between) shows the change.
    await editAsset(t.app.db, id, { values: { title: { en: 'Purple heron' } } });
    expect((await get(`assets?assetid=${id}`)).body).toMatchObject({ response: { docs: [{ title: 'Purple heron' }] } });
  });
});
