import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { indexFieldsCall, searchAnswerSchema, suggestionsCall, assetsCall } from '@vitrine/contract/search';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { buildAsset, buildCollection } from '../../test/factories.ts';
import { compiledSerializer, responseSerializerCompiler } from './serializer.ts';

/** What the zod check sends: the answer parsed with its schema, then JSON.stringify. */
const zodJson = (schema: z.ZodType, data: unknown) => JSON.parse(JSON.stringify(schema.parse(data))) as unknown;
const compiledJson = (schema: z.ZodType, data: unknown) => {
  const serialize = compiledSerializer(schema);
  if (!serialize) throw new Error('the schema did not compile');
  return JSON.parse(serialize(data)) as unknown;
};
const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' });

describe('the serializer compiled from a response schema', () => {
  it('writes what the zod check writes: unknown keys dropped, catchall keys kept, undefined left out', () => {
    const schema = z.object({
      docs: z.array(
        z
          .object({
            id: z.string(),
            rating: z.union([z.number(), z.array(z.number())]).optional(),
            url: z.string().optional(),
          })
          .catchall(z.unknown()),
      ),
      ranges: z.record(z.string(), z.object({ min: z.number().nullable(), max: z.number().nullable() })),
      options: z.object({ filter: z.boolean().optional() }).default({}),
      hidden: z.object({ a: z.number() }),
      owner: z.object({ name: z.string() }).nullable(),
      either: z.array(z.union([z.string().min(1), z.number().int(), z.object({ k: z.boolean() })])),
    });
    const data = {
      docs: [
        { id: '1', rating: [1, 2], url: undefined, title: 'Tulip "field"', keywords: ['a', 'b'], none: undefined },
        { id: '2', rating: 3, nested: { x: null } },
      ],
      ranges: { file_size: { min: null, max: 5 }, rating: { min: 1, max: 2, extra: true } },
      hidden: { a: 1, secret: 'not sent' },
      owner: null,
      either: ['x', 2, { k: true, other: 1 }],
      notInSchema: 'dropped',
    };
    const written = compiledJson(schema, data);
    expect(written).toEqual(zodJson(schema, data));
    expect(written).toEqual({
      docs: [
        { id: '1', rating: [1, 2], title: 'Tulip "field"', keywords: ['a', 'b'] },
        { id: '2', rating: 3, nested: { x: null } },
      ],
      ranges: { file_size: { min: null, max: 5 }, rating: { min: 1, max: 2 } },
      options: {},
      hidden: { a: 1 },
      owner: null,
      either: ['x', 2, { k: true }],
    });
    const withOwner = { ...data, owner: { name: 'Anna', role: 'not sent' } };
    expect(compiledJson(schema, withOwner)).toEqual(zodJson(schema, withOwner));
    expect(compiledJson(schema, withOwner)).toMatchObject({ owner: { name: 'Anna' } });
  });

  it('is not made for a schema without a JSON Schema form (transforms, dates): the zod check writes those', () => {
    expect(compiledSerializer(z.object({ at: z.date() }))).toBeUndefined();
    const transformed = z.object({ n: z.string().transform((s) => s.length) });
    expect(compiledSerializer(transformed)).toBeUndefined();
    const serialize = responseSerializerCompiler(false)(route(transformed));
    expect(JSON.parse(serialize({ n: 'four' }))).toEqual({ n: 4 });
  });

  it('does not check an answer in production; with the check on, an answer of the wrong shape throws', () => {
    const schema = z.object({ count: z.number(), name: z.string() });
    const wrong = { count: '7', name: 3 };
    expect(JSON.parse(responseSerializerCompiler(false)(route(schema))(wrong))).toEqual({ count: 7, name: '3' });
    expect(() => responseSerializerCompiler(true)(route(schema))(wrong)).toThrow();
    expect(JSON.parse(responseSerializerCompiler(true)(route(schema))({ count: 2, name: 'x', more: 1 }))).toEqual({
      count: 2,
      name: 'x',
    });
  });
});

describe('answers over HTTP written by the compiled serializers', () => {
  let t: TestApp;
  /** The handler's answer of the last request, before it was serialised. */
  let answer: unknown;
  const ids: number[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      checkAnswers: false,
      settings: {
        fields: [
          {
            field_name: 'season',
            type: 'string',
            origin: 'settings',
            default_labels: { en: 'Season' },
            is_facet: true,
            range_facet: false,
            multi_valued: true,
          },
        ],
      },
    });
    t.app.addHook('preSerialization', async (_request, _reply, payload) => {
      answer = payload;
      return payload;
    });
    const collection = await buildCollection(t.app.db, 'Spring');
    ids.push(
      await buildAsset(t.app.db, {
        filename: 'tulips.jpg',
        values: {
          title: { en: 'Tulip field', de: 'Tulpenfeld' },
          keywords: { en: ['tulip', 'spring'] },
          season: ['spring', 'summer'],
        },
        rating: 5,
        file_size: 2_000_000,
        collections: [collection],
      }),
      await buildAsset(t.app.db, { filename: 'harbour.jpg', file_size: 500_000, values: { creator: 'Bob Smith' } }),
    );
  });
  afterAll(async () => t.close());

  const sent = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url: API_BASE_PATH + url });
    expect(res.statusCode).toBe(200);
    return res.json<unknown>();
  };

  it('search, assets, suggestions and index fields: the same JSON as the zod check of the same answer', async () => {
    const search = await sent(
      'search?solr_q=*&solr_sort=imp_date%20asc&solr_facetfields=season&solr_facetfields=keywords&solr_facetfields=file_size&solr_facetfields=rating',
    );
    expect(search).toEqual(zodJson(searchAnswerSchema, answer));
    expect(search).toMatchObject({
      response: { numFound: 2, docs: [{ title: 'Tulip field', keywords: ['tulip', 'spring'] }, {}] },
      facetCounts: { facetRanges: { file_size: { min: 500_000, max: 2_000_000 } } },
    });
    expect(await sent(`assets?assetid=${ids.join(',')}`)).toEqual(zodJson(assetsCall.response, answer));
    const suggestions = await sent('search/suggestions?text=tu');
    expect(suggestions).toEqual(zodJson(suggestionsCall.response, answer));
    expect(suggestions).toMatchObject({
      suggestions: [
        { field_name: 'keywords', docs: [{ label: 'tulip', value: 'tulip' }] },
        { field_name: 'category', docs: [] },
        { field_name: 'creator', docs: [] },
      ],
    });
    const fields = await sent('index/fields');
    expect(fields).toEqual(zodJson(indexFieldsCall.response, answer));
    expect(fields).toMatchObject({
      visible_fields: expect.arrayContaining([
        expect.objectContaining({ field_name: 'season', default_labels: { en: 'Season' }, multi_valued: true }),
      ]) as unknown,
    });
  });
});

describe('answers in the tests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    t.app.get(
      `${API_BASE_PATH}wrong-shape`,
      { schema: { response: { 200: z.object({ count: z.number() }) } } },
      () => ({
        count: '7',
      }),
    );
  });
  afterAll(async () => t.close());

  it('are checked against their schema: an answer of the wrong shape is a 500', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API_BASE_PATH}wrong-shape` });
    expect(res.statusCode).toBe(500);
  });
});
