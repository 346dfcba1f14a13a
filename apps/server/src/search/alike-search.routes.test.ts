import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchAnswer } from '@vitrine/contract/search';
import { importWithDerivatives, startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { editAsset } from '../../test/factories.ts';
import { makeFlat as flat, makeScene, variantOf } from '../../test/media-fixtures.ts';

const API = '/assetportal/api/';

/**
 * similar:<id> and colour:#rrggbb over HTTP (issue #52), on real imports of generated pictures: the
 * signatures the derivative jobs store reach the search index through the change log.
 */
describe.each(dialects)('similar: and colour: in search on %s (issue #52)', (dialect) => {
  let t: TestApp;
  let dir: string;
  let ids: Record<string, number>;
  let staff: Record<string, string>;

  const get = async (query: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url: `${API}search?${query}`, headers });
    return { status: res.statusCode, body: res.json<SearchAnswer & { error?: string; message?: string }>() };
  };
  const found = async (q: string, headers: Record<string, string> = {}, more = '') => {
    const res = await get(`solr_q=${encodeURIComponent(q)}${more}`, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.response.docs.map((d) => d.filename);
  };

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: {
        groups: [
          { name: 'public', portalAccess: true },
          { name: 'staff', portalAccess: true },
        ],
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-alike-search-'));
    const m = path.join(dir, 'media');
    mkdirSync(m);
    const photo = await makeScene(path.join(m, 'photo.jpg'), { seed: 7, width: 1500, height: 1000 });
    await variantOf(photo, path.join(m, 'photo-small.png'), { width: 750, format: 'png' });
    await variantOf(photo, path.join(m, 'photo-secret.jpg'), { format: 'jpeg', quality: 60 });
    // Not a copy: the left 60 % of the photo (a part of it).
    await variantOf(photo, path.join(m, 'photo-left.jpg'), { left: 0.6, format: 'jpeg', quality: 90 });
    await makeScene(path.join(m, 'other.jpg'), { seed: 8, width: 1500, height: 1000 });
    await makeScene(path.join(m, 'tall.jpg'), { seed: 9, width: 600, height: 900 });
    await flat(path.join(m, 'red.png'), '#e01010', '#ffffff', 0.2);
    await flat(path.join(m, 'blue.png'), '#1020d0', '#e01010', 0.45);
    ids = await importWithDerivatives(t, m);
    await editAsset(t.app.db, ids['photo-secret.jpg']!, { access: ['staff'] });
    staff = (await signIn(t, { groups: ['public', 'staff'] })).headers;
  }, 240_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds a resized copy with similar:<id>, not a different photo, and never the asset itself', async () => {
    const alike = await found(`similar:${ids['photo.jpg']}`);
    expect(alike).toEqual(['photo-small.png', 'photo-left.jpg']);
    expect(alike).not.toContain('other.jpg');
    expect(await found(`similar:${ids['other.jpg']}`)).toEqual([]);
    // With words, a facet and paging it narrows as any term does.
    // The copy's part hashes find the crop too (a part of the same picture), after the copy.
    expect(await found(`similar:${ids['photo-small.png']} photo`)).toEqual(['photo.jpg', 'photo-left.jpg']);
    expect(await found(`similar:${ids['photo-small.png']} harbour`)).toEqual([]);
  });

  it('never shows a hidden look-alike, and answers a hidden asset id as an unknown one', async () => {
    expect((await found(`similar:${ids['photo.jpg']}`, staff)).sort()).toEqual([
      'photo-left.jpg',
      'photo-secret.jpg',
      'photo-small.png',
    ]);
    const secret = await get(`solr_q=similar:${ids['photo-secret.jpg']}&solr_facetfields=format`);
    const unknown = await get(`solr_q=similar:987654&solr_facetfields=format`);
    expect(secret.status).toBe(200);
    expect(secret.body).toEqual(unknown.body);
    expect(secret.body.response.numFound).toBe(0);
    // The staff see it and what looks like it.
    expect((await found(`similar:${ids['photo-secret.jpg']}`, staff)).sort()).toEqual([
      'photo-left.jpg',
      'photo-small.png',
      'photo.jpg',
    ]);
  });

  it('finds a red picture before a blue one with a red patch by colour:#ff0000, and counts facets of those found', async () => {
    expect(await found('colour:#ff0000')).toEqual(['red.png', 'blue.png']);
    expect(await found('color:#F00')).toEqual(['red.png', 'blue.png']);
    expect(await found('colour:#0000ff')).toEqual(['blue.png']);
    // Another order when asked for; a filter narrows; facets count the narrowed set.
    expect(await found('colour:#ff0000', {}, '&solr_sort=filename%20desc')).toEqual(['red.png', 'blue.png']);
    expect(await found('colour:#ff0000', {}, '&solr_sort=filename%20asc')).toEqual(['blue.png', 'red.png']);
    const counted = await get(`solr_q=${encodeURIComponent('colour:#ff0000')}&solr_facetfields=format`);
    expect(counted.body.facetCounts.facetFields.format?.map((v) => [v.value, v.count])).toEqual([['png', 2]]);
    const jpegs = await get(
      `solr_q=${encodeURIComponent('colour:#ff0000')}&filter=${encodeURIComponent(JSON.stringify([{ key: 'format', values: ['jpg'] }]))}`,
    );
    expect(jpegs.body.response.numFound).toBe(0);
  });

  it('refuses an invalid colour with 400 validation and a message saying how to write one', async () => {
    for (const q of ['colour:red', 'colour:#ff00', 'color:#12345g']) {
      const res = await get(`solr_q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error).toBe('validation');
      expect(res.body.message).toMatch(/'#' and 6 or 3 hexadecimal digits/);
    }
  });

  it('follows a signature made after its asset was indexed: a picture imported later is found at the next search', async () => {
    // The index holds the catalogue now; the new asset's row is written first, its signature by the
    // derivative job after it.
    expect(await found('colour:#ff0000')).toEqual(['red.png', 'blue.png']);
    await flat(path.join(dir, 'media', 'red-later.png'), '#e01010', '#ffffff', 0.1);
    ids = await importWithDerivatives(t, path.join(dir, 'media'), async () => {
      expect(await found('colour:#ff0000')).toEqual(['red.png', 'blue.png']);
    });
    expect(await found('colour:#ff0000')).toEqual(['red-later.png', 'red.png', 'blue.png']);
  });
});
