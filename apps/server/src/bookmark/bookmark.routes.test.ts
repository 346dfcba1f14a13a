import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAssets, editAsset } from '../../test/factories.ts';

const URL = '/assetportal/api/config/bookmarks';

describe.each(dialects)('bookmarks on %s (portal-spec §3 "Bookmark", §7 config/bookmarks)', (dialect) => {
  let t: TestApp;
  let ids: number[];
  let secret: number;
  let alice: Record<string, string>;
  let bob: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    ids = await buildAssets(t.app.db, [
      { filename: 'a.jpg', access: ['users'] },
      { filename: 'b.jpg', access: ['users'] },
      { filename: 'c.jpg', access: ['users'] },
    ]);
    [secret] = await buildAssets(t.app.db, [{ filename: 'secret.jpg', access: ['admins'] }]);
    alice = (await signIn(t, { groups: ['users'] })).headers;
    bob = (await signIn(t, { groups: ['users'] })).headers;
  });
  afterAll(async () => t.close());

  const read = async (headers: Record<string, string>) => {
    const res = await t.app.inject({ method: 'GET', url: URL, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string }[]>().map((b) => b.id);
  };
  const save = (headers: Record<string, string>, payload: unknown) =>
    t.app.inject({ method: 'POST', url: URL, headers, payload: payload as object });

  it('saves a list per user in its order and answers it back', async () => {
    const list = [ids[2], ids[0]].map((id) => ({ id: String(id) }));
    const res = await save(alice, list);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(list);
    expect(await read(alice)).toEqual([String(ids[2]), String(ids[0])]);
  });

  it("keeps one user's bookmarks out of another's reach", async () => {
    await save(alice, [{ id: String(ids[0]) }]);
    await save(bob, [{ id: String(ids[1]) }]);
    expect(await read(bob)).toEqual([String(ids[1])]);
    expect(await read(alice)).toEqual([String(ids[0])]);
    // Bob replacing his list leaves Alice's as it was.
    await save(bob, []);
    expect(await read(alice)).toEqual([String(ids[0])]);
  });

  it('keeps a repeated id once', async () => {
    const res = await save(alice, [{ id: String(ids[1]) }, { id: String(ids[1]) }]);
    expect(res.json()).toEqual([{ id: String(ids[1]) }]);
  });

  it.each([
    ['not an array', { id: '1' }],
    ['an id that is not a number', [{ id: 'abc' }]],
    ['an id that is not a string', [{ id: 7 }]],
    ['an asset that does not exist', [{ id: '999999' }]],
    ['an asset the caller may not see', 'secret'],
    ['more entries than allowed', 'oversized'],
  ])('refuses %s with a 400 and changes nothing', async (_what, body) => {
    await save(alice, [{ id: String(ids[0]) }, { id: String(ids[2]) }]);
    const payload =
      body === 'secret'
        ? [{ id: String(ids[1]) }, { id: String(secret) }]
        : body === 'oversized'
          ? Array.from({ length: 100_001 }, () => ({ id: String(ids[1]) }))
          : body;
    const res = await save(alice, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation' });
    expect(res.body).not.toContain('secret.jpg');
    expect(await read(alice)).toEqual([String(ids[0]), String(ids[2])]);
  });

  it('does not answer bookmarks of an asset that became invisible, nor of one removed', async () => {
    const [hidden, removed, kept] = await buildAssets(t.app.db, [
      { filename: 'later-hidden.jpg', access: ['users'] },
      { filename: 'later-removed.jpg', access: ['users'] },
      { filename: 'kept.jpg', access: ['users'] },
    ]);
    await save(
      alice,
      [hidden, removed, kept].map((id) => ({ id: String(id) })),
    );
    await editAsset(t.app.db, hidden, { access: ['admins'] });
    await editAsset(t.app.db, removed, { status: 'gone' });
    expect(await read(alice)).toEqual([String(kept)]);
  });

  it('gives guests no server bookmarks', async () => {
    const get = await t.app.inject({ method: 'GET', url: URL, headers: xsrfHeaders });
    expect(get.statusCode).toBe(401);
    const post = await save(xsrfHeaders, [{ id: String(ids[0]) }]);
    expect(post.statusCode).toBe(401);
    expect(post.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('marks bookmarked docs in search answers with isBookmarked', async () => {
    await save(alice, [{ id: String(ids[1]) }]);
    const res = await t.app.inject({
      method: 'GET',
      url: `/assetportal/api/search?solr_q=*&solr_rows=50`,
      headers: alice,
    });
    expect(res.statusCode, res.body).toBe(200);
    const docs = res.json<{ response: { docs: { id: string; isBookmarked?: boolean }[] } }>().response.docs;
    const marks = Object.fromEntries(docs.map((d) => [d.id, d.isBookmarked]));
    expect(marks[String(ids[1])]).toBe(true);
    expect(marks[String(ids[0])]).toBe(false);
    const other = await t.app.inject({
      method: 'GET',
      url: `/assetportal/api/search?solr_q=*&solr_rows=50`,
      headers: bob,
    });
    const bobDocs = other.json<{ response: { docs: { id: string; isBookmarked?: boolean }[] } }>().response.docs;
    expect(bobDocs.find((d) => d.id === String(ids[1]))?.isBookmarked).toBe(false);
  });
});
