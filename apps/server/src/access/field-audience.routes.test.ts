import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { must } from '@vitrine/contract/must';
import type { IndexField, SearchAnswer } from '@vitrine/contract/search';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { openShareLink, signIn } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAsset } from '../../test/factories.ts';

/**
 * Field audiences (docs/security.md "Field audiences"): guests and share links' visitors never
 * receive a restricted field, in any answer, nor match anything through it; account holders in its
 * audience do. The demo's GPS position is the case in point.
 */
const API = '/assetportal/api/';

const declared = (field_name: string, type: IndexField['type'], more: object = {}) => ({
  field_name,
  default_labels: { en: field_name, de: field_name },
  is_facet: true,
  range_facet: false,
  multi_valued: false,
  origin: 'settings',
  type,
  ...more,
});

const settings = {
  groups: [
    { name: 'public', portalAccess: true },
    { name: 'users', portalAccess: true },
    { name: 'staff', portalAccess: true },
    { name: 'admins', portalAccess: true, guiAdmin: true },
  ],
  fields: [
    // Personal by its name: account holders only.
    declared('owner_name', 'string'),
    // Marked personal; a text field, so its words stay out of the full-text index.
    declared('notes', 'text', { is_facet: false, personal: true }),
    // Only one group sees it.
    declared('project', 'string', { visibleTo: ['staff'] }),
    // A built-in field given an audience.
    { field_name: 'rating', visibleTo: ['users', 'admins'] },
  ],
};

const restricted = ['gps_lat', 'gps_lon', 'owner_name', 'notes', 'project', 'rating'];

describe.each(dialects)('field audiences on %s (issue #48)', (dialect) => {
  let t: TestApp;
  let user: Record<string, string>;
  let staff: Record<string, string>;
  let photo: number;

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url: API + url, headers });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>(), text: res.body };
  };
  const search = async (query: string, headers: Record<string, string> = {}) => {
    const res = await get(`search?${query}`, headers);
    expect(res.status, res.text).toBe(200);
    return res.body as unknown as SearchAnswer;
  };
  /** The answer to a caller asking for a field that does not exist at all, with the name swapped. */
  const asUnknown = async (url: (field: string) => string, field: string, headers: Record<string, string> = {}) => {
    const unknown = await get(url('no_such_field'), headers);
    const hidden = await get(url(field), headers);
    expect(unknown.status).toBe(400);
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual(JSON.parse(unknown.text.replaceAll('no_such_field', field)));
  };

  beforeAll(async () => {
    t = await startTestApp({ dialect, settings });
    photo = await buildAsset(t.app.db, {
      filename: 'lighthouse.jpg',
      gps_lat: 54.178312,
      gps_lon: 7.885401,
      access: ['public', 'users', 'staff', 'admins'],
      rating: 4,
      values: {
        title: { en: 'Lighthouse', de: 'Leuchtturm' },
        keywords: { en: ['coast'], de: ['Küste'] },
        owner_name: 'Olga Ostermann',
        notes: 'zanzibar briefing',
        project: 'Apollo',
      },
    });
    await buildAsset(t.app.db, {
      filename: 'dune.jpg',
      values: { title: { en: 'Dune' } },
      access: ['public', 'users'],
    });
    user = (await signIn(t, { groups: ['users'] })).headers;
    staff = (await signIn(t, { groups: ['staff'] })).headers;
  });

  afterAll(async () => t.close());

  it("a guest's search answers no restricted field; a user's carries those of its audience", async () => {
    const guestDoc = must((await search(`solr_q=lighthouse`)).response.docs[0], 'the photo');
    expect(guestDoc.title).toBe('Lighthouse');
    for (const f of restricted) expect(guestDoc, f).not.toHaveProperty(f);
    // Not even as text anywhere in the answer.
    expect((await get('search?solr_q=lighthouse')).text).not.toMatch(/54\.178|Ostermann|Apollo/);

    const userDoc = must((await search(`solr_q=lighthouse`, user)).response.docs[0], 'the photo');
    expect(userDoc).toMatchObject({ gps_lat: 54.178312, gps_lon: 7.885401, owner_name: 'Olga Ostermann', rating: 4 });
    expect(userDoc).not.toHaveProperty('project');
    const staffDoc = must((await search(`solr_q=lighthouse`, staff)).response.docs[0], 'the photo');
    expect(staffDoc).toMatchObject({ project: 'Apollo' });
    expect(staffDoc).not.toHaveProperty('gps_lat');
  });

  it('the asset page (assets?assetid) and index/fields leave restricted fields out for a guest', async () => {
    const asGuest = await get(`assets?assetid=${photo}`);
    const doc = must((asGuest.body as unknown as SearchAnswer).response.docs[0], 'the photo');
    for (const f of restricted) expect(doc, f).not.toHaveProperty(f);
    const asUser = await get(`assets?assetid=${photo}`, user);
    expect((asUser.body as unknown as SearchAnswer).response.docs[0]).toMatchObject({ gps_lat: 54.178312 });

    const names = async (headers: Record<string, string> = {}) =>
      ((await get('index/fields', headers)).body.visible_fields as IndexField[]).map((f) => f.field_name);
    const guestFields = await names();
    for (const f of restricted) expect(guestFields, f).not.toContain(f);
    expect(guestFields).toContain('title');
    expect(await names(user)).toEqual(expect.arrayContaining(['gps_lat', 'gps_lon', 'owner_name', 'notes', 'rating']));
  });

  it("a guest's facet, filter, sort and field:value on a restricted field are answered as for an unknown field", async () => {
    await asUnknown((f) => `search?solr_q=*&solr_facetfields=${f}`, 'owner_name');
    await asUnknown(
      (f) => `search?solr_q=*&filter=${encodeURIComponent(JSON.stringify([{ key: f, values: ['Olga Ostermann'] }]))}`,
      'owner_name',
    );
    await asUnknown((f) => `search?solr_q=*&solr_sort=${f}%20desc`, 'rating');
    await asUnknown((f) => `search?solr_q=${f}:olga`, 'owner_name');
    // A user in the audience gets the facet and the matches.
    const facet = await search('solr_q=*&solr_facetfields=owner_name', user);
    expect(facet.facetCounts.facetFields.owner_name).toEqual([{ value: 'Olga Ostermann', count: 1 }]);
    expect((await search('solr_q=owner_name:olga', user)).response.numFound).toBe(1);
    const filter = encodeURIComponent(JSON.stringify([{ key: 'owner_name', values: ['Olga Ostermann'] }]));
    expect((await search(`solr_q=*&filter=${filter}`, user)).response.numFound).toBe(1);
    expect((await search('solr_q=*&solr_sort=rating%20desc', user)).response.docs[0]?.id).toBe(String(photo));
    // …but not a user outside it.
    await asUnknown((f) => `search?solr_q=${f}:apollo`, 'project', user);
    expect((await search('solr_q=project:apollo', staff)).response.numFound).toBe(1);
  });

  it('suggestions never come from a restricted field for a guest', async () => {
    await asUnknown((f) => `search/suggestions?text=olg&fields=${f}`, 'owner_name');
    const mine = await get('search/suggestions?text=olg&fields=owner_name', user);
    expect(mine.status).toBe(200);
    expect(mine.text).toContain('Olga Ostermann');
  });

  it('words of a restricted text field match for nobody; the field is found by those who see it only by name', async () => {
    expect((await search('solr_q=zanzibar')).response.numFound).toBe(0);
    expect((await search('solr_q=zanzibar', user)).response.numFound).toBe(0);
    // A plain word of a field everyone sees still matches.
    expect((await search('solr_q=leuchtturm')).response.numFound).toBe(1);
  });

  it("a share link's visitor is judged as a guest, whatever the groups of the link's creator", async () => {
    const owner = (await signIn(t, { groups: ['users', 'staff'] })).headers;
    const visitor = (await openShareLink(t, owner, { assetIds: [String(photo)], downloadSets: [] })).headers;
    const doc = must((await get(`assets?assetid=${photo}`, visitor)).body as unknown as SearchAnswer, 'answer').response
      .docs[0];
    expect(doc?.title).toBe('Lighthouse');
    for (const f of restricted) expect(doc, f).not.toHaveProperty(f);
    await asUnknown((f) => `search?solr_q=${f}:olga`, 'owner_name', visitor);
  });
});
