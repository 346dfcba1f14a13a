import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShareLink } from '@vitrine/contract/share';
import { apiCaller, startTestApp, type TestApp } from '../../test/app.ts';
import { signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAssets, buildCollection } from '../../test/factories.ts';
import { makeClip, makeImage } from '../../test/media-fixtures.ts';

const API = '/assetportal/api/';
const PASSWORD = 'open sesame';

describe.each(dialects)('share links on %s (docs/security.md "Share links")', (dialect) => {
  let t: TestApp;
  let dir: string;
  let alice: Record<string, string>;
  let bob: Record<string, string>;
  let partner: Record<string, string>;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: {
        catalogue: { defaultAccessGroups: ['users', 'partners'] },
        groups: [
          { name: 'public', downloadSets: [0] },
          { name: 'users', downloadSets: [0] },
          { name: 'partners', downloadSets: [0] },
        ],
        shareLinks: { groups: ['users'] },
        login: { maxFailures: 3 },
        // Links are opened many times from one address here; the limit has its own tests (rate-limits.test.ts).
        rateLimits: { shareOpens: { burst: null } },
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-share-'));
    await makeImage(path.join(dir, 'media', 'shared.jpg'), { width: 320, height: 200 });
    await makeImage(path.join(dir, 'media', 'unshared.jpg'), { width: 320, height: 200 });
    makeClip(path.join(dir, 'media', 'tone.wav'), { seconds: 1, video: false });
    await t.app.services.importer().importFolder(path.join(dir, 'media'));
    const worker = t.app.services.jobWorker({ pollMs: 50 });
    await worker.drain();
    await worker.stop();
    for (const a of await t.app.db.kysely.selectFrom('asset').select(['id', 'filename']).execute()) {
      ids[a.filename] = Number(a.id);
    }
    const collection = await buildCollection(t.app.db, 'Hidden campaign');
    [ids.anna, ids.bob] = await buildAssets(t.app.db, [
      { filename: 'anna.jpg', access: ['users'], values: { creator: 'Anna Tulip' } },
      { filename: 'bob.jpg', access: ['users'], values: { creator: 'Bob Tulip' }, collections: [collection] },
    ]);
    alice = (await signIn(t, { groups: ['users'] })).headers;
    bob = (await signIn(t, { groups: ['users'] })).headers;
    partner = (await signIn(t, { groups: ['partners'] })).headers;
  }, 120_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);

  const create = async (body: object, headers = alice) => {
    const res = await call('POST', 'share/create', headers, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ share: ShareLink; token: string }>();
  };
  const shared = () => [ids.anna, ids['shared.jpg']].map(String);

  /** Opens a link as a browser without an account would; answers the visitor's request headers. */
  const visit = async (token: string, password?: string) => {
    const res = await call('POST', 'share/open', xsrfHeaders, { token, ...(password ? { password } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().session.shareVisit).toBe(true);
    return { authorization: `Bearer ${res.json().session.session as string}`, ...xsrfHeaders };
  };
  const mine = async (headers = alice) => (await call('GET', 'share/list', headers)).json<{ shares: ShareLink[] }>();

  it('shows its visitor exactly the shared assets: search, facets, suggestions, assets and media', async () => {
    const { token, share } = await create({ assetIds: shared(), password: PASSWORD, title: 'For the press' });
    expect(share).toMatchObject({ state: 'active', hasPassword: true, views: 0, assetIds: shared() });
    const visitor = await visit(token, PASSWORD);

    // The session says it is a share link's, when opened and when reused after a reload; a guest's does not.
    const session = await call('POST', 'session/get', visitor);
    expect(session.json()).toMatchObject({ user: null, isAssetUser: true, isGuiAdmin: false, shareVisit: true });
    const guest = await call('POST', 'session/get', xsrfHeaders);
    expect(guest.json()).not.toHaveProperty('shareVisit');
    const current = await call('GET', 'share/current', visitor);
    expect(current.json()).toMatchObject({ title: 'For the press', assetIds: shared(), downloadSets: [] });

    const found = await call('GET', 'search?solr_q=*&solr_rows=50&solr_facetfields=creator', visitor);
    expect(found.statusCode, found.body).toBe(200);
    const answer = found.json();
    expect(answer.response.numFound).toBe(2);
    expect(answer.response.docs.map((d: { id: string }) => d.id).sort()).toEqual([...shared()].sort());
    expect(answer.facetCounts.facetFields.creator.map((v: { value: string }) => v.value)).toEqual(['Anna Tulip']);
    for (const doc of answer.response.docs as { url: string }[]) expect(doc.url).toContain(`share=${share.id}`);

    const asked = await call('GET', `search?solr_q=*&id=${ids.bob},${ids['unshared.jpg']}`, visitor);
    expect(asked.json().response.numFound).toBe(0);
    const byId = await call('GET', `assets?assetid=${ids.anna},${ids.bob}`, visitor);
    expect(byId.json().response.docs.map((d: { id: string }) => d.id)).toEqual([String(ids.anna)]);

    const suggestions = await call('GET', 'search/suggestions?text=tu&fields=creator', visitor);
    expect(suggestions.statusCode, suggestions.body).toBe(200);
    expect(suggestions.json().suggestions[0].docs.map((d: { value: string }) => d.value)).toEqual(['Anna Tulip']);
    const collections = await call('GET', 'collections', visitor);
    expect(collections.body).not.toContain('Hidden campaign');

    expect((await call('GET', `download/preview?id=${ids['unshared.jpg']}`, visitor)).statusCode).toBe(404);
    const thumb = (answer.response.docs as { url: string }[])[0]?.url ?? '';
    expect((await call('GET', thumb, {})).statusCode).toBe(200);
    // A visitor keeps no bookmarks on the server.
    expect((await call('GET', 'config/bookmarks', visitor)).statusCode).toBe(401);
  });

  it('downloads only in the sets the link allows, and counts views and downloads', async () => {
    const viewOnly = await visit((await create({ assetIds: shared() })).token);
    expect((await call('GET', `download/?id=${ids['shared.jpg']}&csetid=0`, viewOnly)).statusCode).toBe(403);
    expect((await call('GET', `download/preview?id=${ids['shared.jpg']}`, viewOnly)).json().url).toBeUndefined();

    const { token, share } = await create({ assetIds: shared(), downloadSets: [0] });
    const visitor = await visit(token);
    const sets = await call('GET', `session/csets?asset_id=${ids['shared.jpg']}`, visitor);
    expect(sets.json().convert_sets.map((s: { id: number }) => s.id)).toEqual([0]);
    const single = await call('GET', `download/?id=${ids['shared.jpg']}&csetid=0`, visitor);
    expect(single.statusCode, single.body).toBe(200);
    // A HEAD or a part of the file is no download.
    const head = await t.app.inject({ method: 'HEAD', url: single.json().url as string });
    expect(head.statusCode).toBe(200);
    expect((await t.app.inject({ url: single.json().url as string, headers: { range: 'bytes=5-' } })).statusCode).toBe(
      206,
    );
    const file = await call('GET', single.json().url as string, {});
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    const zip = await call(
      'GET',
      `download?operation=zip&csetid=0&id=${ids['shared.jpg']}&id=${ids['unshared.jpg']}`,
      visitor,
    );
    expect(zip.json().rejected_asset_ids).toEqual([String(ids['unshared.jpg'])]);
    const bundle = await call('GET', zip.json().url as string, {});
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toBe('application/zip');

    await t.app.services.downloads.settled();
    const listed = (await mine()).shares.find((s) => s.id === share.id);
    expect(listed).toMatchObject({ views: 1, downloads: 2, downloadSets: [0] });
    // Logged as the link's downloads, by a visitor without an account.
    const log = await t.app.db.kysely
      .selectFrom('download')
      .select(['user_id', 'kind', 'asset_ids'])
      .where('share_id', '=', share.id)
      .orderBy('id')
      .execute();
    expect(log).toEqual([
      { user_id: null, kind: 'single', asset_ids: String(ids['shared.jpg']) },
      { user_id: null, kind: 'zip', asset_ids: String(ids['shared.jpg']) },
    ]);
  });

  it('plays a sound to a visitor allowed only the AAC set from its preview, never from the original', async () => {
    const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    const original = sha256(readFileSync(path.join(dir, 'media', 'tone.wav')));
    const tone = String(ids['tone.wav']);
    const visitor = await visit((await create({ assetIds: [tone], downloadSets: [4] })).token);
    expect((await call('GET', `download/?id=${tone}&csetid=0`, visitor)).statusCode).toBe(403);

    const player = await call('GET', `download/video/${tone}`, visitor);
    expect(player.statusCode, player.body).toBe(200);
    const played = await call('GET', player.json().url as string, {});
    expect(played.statusCode).toBe(200);
    expect(played.headers['content-type']).toBe('audio/mp4');
    expect(sha256(played.rawPayload)).not.toBe(original);

    // Whoever may download set 0 still gets the original.
    const single = await call('GET', `download/?id=${tone}&csetid=0`, alice);
    expect(single.statusCode, single.body).toBe(200);
    expect(sha256((await call('GET', single.json().url as string, {})).rawPayload)).toBe(original);
  });

  it('asks for the password and throttles wrong ones like a login', async () => {
    const { token } = await create({ assetIds: shared(), password: PASSWORD });
    const open = (password?: string) =>
      call('POST', 'share/open', { ...xsrfHeaders, 'x-forwarded-for': '10.9.9.9' }, { token, password });
    const none = await open();
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: 'share_password_required' });
    for (let i = 0; i < 3; i++) {
      const wrong = await open('not the password');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ error: 'wrong_share_password' });
    }
    // This address is blocked for the link now, even with the right password (share-password.test.ts: others are not).
    const blocked = await open(PASSWORD);
    expect(blocked.statusCode).toBe(401);
    expect(blocked.json()).toMatchObject({ error: 'login_blocked' });
    expect(blocked.headers['retry-after']).toBeDefined();
    expect(blocked.body).not.toContain('session');
  });

  it('stops working at revocation, media URLs handed out before included', async () => {
    const { token, share } = await create({ assetIds: shared(), downloadSets: [0] });
    const visitor = await visit(token);
    const thumb = (await call('GET', 'search?solr_q=*', visitor)).json().response.docs[0].url as string;
    const download = (await call('GET', `download/?id=${ids['shared.jpg']}&csetid=0`, visitor)).json().url as string;
    expect((await call('GET', thumb, {})).statusCode).toBe(200);

    const revoked = await call('POST', 'share/revoke', alice, { id: share.id });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().share).toMatchObject({ state: 'revoked' });

    expect((await call('GET', 'search?solr_q=*', visitor)).statusCode).toBe(401);
    expect((await call('GET', thumb, {})).statusCode).toBe(403);
    expect((await call('GET', download, {})).statusCode).toBe(403);
    const again = await call('POST', 'share/open', xsrfHeaders, { token });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error: 'not_found' });
  });

  it("lets only the visitor's own browser cache the link's media, for no longer than their signature", async () => {
    const { token } = await create({ assetIds: shared(), downloadSets: [0] });
    const visitor = await visit(token);
    const thumbOf = async (headers: Record<string, string>) =>
      (await call('GET', `assets?assetid=${ids['shared.jpg']}`, headers)).json().response.docs[0].url as string;
    const [viaLink, own] = [await thumbOf(visitor), await thumbOf(alice)];
    const expiry = (url: string) => Number(new URL(url, 'http://portal').searchParams.get('exp'));
    for (const [url, scope] of [
      [viaLink, 'private'],
      [own, 'public'],
    ] as const) {
      const res = await call('GET', url, {});
      expect(res.statusCode).toBe(200);
      const header = res.headers['cache-control'] as string;
      const [, given, seconds] = /^(\w+), max-age=(\d+)$/.exec(header) ?? [];
      expect(given, url).toBe(scope);
      expect(Number(seconds)).toBeGreaterThan(0);
      expect(Number(seconds)).toBeLessThanOrEqual(expiry(url) - Math.floor(Date.now() / 1000) + 1);
    }
    const download = (await call('GET', `download/?id=${ids['shared.jpg']}&csetid=0`, visitor)).json().url as string;
    const file = await call('GET', download, {});
    expect(file.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(Number(/\d+$/.exec(file.headers['cache-control'] as string)?.[0])).toBeLessThanOrEqual(
      Math.min(600, expiry(download) - Math.floor(Date.now() / 1000) + 1),
    );
  });

  it('stops working at its expiry, media URLs handed out before included', async () => {
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const { token, share } = await create({ assetIds: shared(), expiresAt: soon });
    const visitor = await visit(token);
    const thumb = (await call('GET', 'search?solr_q=*', visitor)).json().response.docs[0].url as string;
    // The hour passes.
    await t.app.db.kysely
      .updateTable('share_link')
      .set({ expires_at: Date.now() - 1000 })
      .where('id', '=', share.id)
      .execute();
    expect((await call('GET', 'search?solr_q=*', visitor)).statusCode).toBe(401);
    expect((await call('GET', thumb, {})).statusCode).toBe(403);
    expect((await call('POST', 'share/open', xsrfHeaders, { token })).statusCode).toBe(404);
    expect((await mine()).shares.find((s) => s.id === share.id)?.state).toBe('expired');
  });

  it('refuses a password shorter than 8 characters with 400 validation naming it, and takes one of 8', async () => {
    const short = await call('POST', 'share/create', alice, { assetIds: shared(), password: 'seven77' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: 'validation', details: [{ path: 'body.password' }] });
    expect((await create({ assetIds: shared(), password: 'eight888' })).share.hasPassword).toBe(true);
  });

  it('gives a link without an expiry the longest lifetime and refuses a later expiry naming expiresAt', async () => {
    const day = 86_400_000;
    const before = Date.now();
    const { share } = await create({ assetIds: shared() });
    const expiry = Date.parse(share.expiresAt ?? '');
    expect(expiry).toBeGreaterThanOrEqual(before + 90 * day);
    expect(expiry).toBeLessThanOrEqual(Date.now() + 90 * day);
    expect((await call('GET', 'share/settings', alice)).json()).toMatchObject({ maxDays: 90 });

    const later = new Date(Date.now() + 91 * day).toISOString();
    const refused = await call('POST', 'share/create', alice, { assetIds: shared(), expiresAt: later });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'validation', details: [{ path: 'expiresAt' }] });
    expect(refused.json().message).toContain('at most 90 days');
    const inTime = new Date(Date.now() + 89 * day).toISOString();
    expect((await create({ assetIds: shared(), expiresAt: inTime })).share.expiresAt).toBe(inTime);
  });

  it('stops a link made without an expiry once it is older than the longest lifetime', async () => {
    const { token, share } = await create({ assetIds: shared() });
    const visitor = await visit(token);
    // As links were made before there was a longest lifetime, and 91 days ago.
    const created = Date.now() - 91 * 86_400_000;
    await t.app.db.kysely
      .updateTable('share_link')
      .set({ expires_at: null, created_at: created })
      .where('id', '=', share.id)
      .execute();
    expect((await call('GET', 'search?solr_q=*', visitor)).statusCode).toBe(401);
    expect((await call('POST', 'share/open', xsrfHeaders, { token })).statusCode).toBe(404);
    const listed = (await mine()).shares.find((s) => s.id === share.id);
    expect(listed).toMatchObject({ state: 'expired', expiresAt: new Date(created + 90 * 86_400_000).toISOString() });
  });

  it('stops the links of a creator who lost the right to share, for visitors and in My shares alike', async () => {
    const carla = await signIn(t, { groups: ['users'] });
    const { token, share } = await create({ assetIds: shared(), downloadSets: [0] }, carla.headers);
    const visitor = await visit(token);
    const thumb = (await call('GET', 'search?solr_q=*', visitor)).json().response.docs[0].url as string;
    const state = async () => (await mine(carla.headers)).shares.find((s) => s.id === share.id)?.state;
    const users = t.app.services.repositories.users;

    // Moved to a group that sees the assets but may not share.
    await users.setGroups(carla.userId, ['partners']);
    expect((await call('GET', 'search?solr_q=*', visitor)).statusCode).toBe(401);
    expect((await call('GET', thumb, {})).statusCode).toBe(403);
    expect((await call('POST', 'share/open', xsrfHeaders, { token })).statusCode).toBe(404);
    expect(await state()).toBe('inactive');

    // Back in a sharing group: the link works again.
    await users.setGroups(carla.userId, ['users']);
    expect(await state()).toBe('active');
    expect((await call('GET', thumb, {})).statusCode).toBe(200);

    // A disabled account: its links stop, and its list says so as the visitor finds it.
    await users.setDisabled(carla.userId, true);
    expect((await call('POST', 'share/open', xsrfHeaders, { token })).statusCode).toBe(404);
    const auth = t.app.services.auth.authFor({ userId: carla.userId, name: 'carla', groups: ['users'] }, null, null);
    expect((await t.app.services.shares.list(auth)).shares.find((s) => s.id === share.id)?.state).toBe('inactive');
    await users.setDisabled(carla.userId, false);
    await visit(token);
  });

  it("keeps one user's links out of another's reach", async () => {
    const { share } = await create({ assetIds: shared() });
    expect((await mine(bob)).shares.map((s) => s.id)).not.toContain(share.id);
    const theirs = await call('POST', 'share/revoke', bob, { id: share.id });
    expect(theirs.statusCode).toBe(404);
    expect((await mine()).shares.find((s) => s.id === share.id)?.state).toBe('active');
  });

  it('lets only permitted groups create links (403 otherwise, 401 for guests and visitors)', async () => {
    const settings = await call('GET', 'share/settings', partner);
    expect(settings.json()).toMatchObject({ mayCreate: false, downloadSets: [] });
    const allowed = (await call('GET', 'share/settings', alice)).json();
    expect(allowed).toMatchObject({ mayCreate: true, maxAssets: 1000 });
    expect(allowed.downloadSets[0]).toEqual({ id: 0, title: 'Original file' });
    const refused = await call('POST', 'share/create', partner, { assetIds: shared() });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'forbidden' });
    expect((await call('POST', 'share/create', xsrfHeaders, { assetIds: shared() })).statusCode).toBe(401);
    const visitor = await visit((await create({ assetIds: shared() })).token);
    expect((await call('POST', 'share/create', visitor, { assetIds: shared() })).statusCode).toBe(401);
    expect((await call('GET', 'share/list', visitor)).statusCode).toBe(401);
  });

  it.each([
    ['an asset the creator may not see', { assetIds: ['999999'] }],
    ['an id that is not a number', { assetIds: ['abc'] }],
    ['no assets', { assetIds: [] }],
    ['an expiry in the past', { assetIds: ['ANNA'], expiresAt: '2020-01-01T00:00:00Z' }],
    ['a conversion set the creator may not use', { assetIds: ['ANNA'], downloadSets: [7] }],
    ['a password too short', { assetIds: ['ANNA'], password: 'abc' }],
    ['unknown keys', { assetIds: ['ANNA'], everyone: true }],
  ])('refuses %s with a 400 and makes no link', async (_what, body) => {
    const before = (await mine()).shares.length;
    const payload = { ...body, assetIds: body.assetIds.map((id) => (id === 'ANNA' ? String(ids.anna) : id)) };
    const res = await call('POST', 'share/create', alice, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation' });
    expect((await mine()).shares.length).toBe(before);
  });

  it('answers an unknown token as not found', async () => {
    const res = await call('POST', 'share/open', xsrfHeaders, { token: 'x'.repeat(43) });
    expect(res.statusCode).toBe(404);
  });
});

describe('share link tokens in the request log (docs/security.md "Share links")', () => {
  it('never appear, from making a link to loading its media', async () => {
    const lines: string[] = [];
    const t = await startTestApp({
      settings: { shareLinks: { groups: ['users'] } },
      logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } },
    });
    try {
      const [id] = await buildAssets(t.app.db, [{ filename: 'logged.jpg', access: ['users'] }]);
      const alice = (await signIn(t, { groups: ['users'] })).headers;
      const made = await t.app.inject({
        method: 'POST',
        url: `${API}share/create`,
        headers: alice,
        payload: { assetIds: [String(id)], password: PASSWORD },
      });
      const { token } = made.json<{ token: string }>();
      const opened = await t.app.inject({
        method: 'POST',
        url: `${API}share/open`,
        headers: xsrfHeaders,
        payload: { token, password: PASSWORD },
      });
      const visitor = { authorization: `Bearer ${opened.json().session.session as string}` };
      const found = await t.app.inject({ url: `${API}search?solr_q=*`, headers: visitor });
      await t.app.inject({ url: found.json().response.docs[0].url as string });
      const log = lines.join('');
      expect(log).toContain('share/open');
      expect(log).not.toContain(token);
      expect(log).not.toContain(PASSWORD);
    } finally {
      await t.close();
    }
  });
});
