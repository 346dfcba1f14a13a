import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPortalLink } from '@vitrine/contract/paths';
import type { PeopleAnswer, Person, PersonAnswer } from '@vitrine/contract/people';
import { buildApp } from '../app.ts';
import type { Auth } from '../auth/caller.ts';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { openShareLink, signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAsset } from '../../test/factories.ts';
import { addUser } from '../../test/users.ts';

const API = '/assetportal/api/';

/** The text of a quoted-printable mail body, enough to find the link in it. */
const unquote = (mail: string) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
/** The token of a mail's set-password link, read as the web app reads the link. */
const tokenIn = (mail: string) => {
  const link = /https?:\/\/\S+/.exec(unquote(mail))?.[0];
  const route = link === undefined ? undefined : readPortalLink(link);
  return route?.page === 'resetPassword' ? route.token : undefined;
};

/**
 * Accounts in the admin area (issue #50, docs/security.md "People"): every call is the admins';
 * invitations are one-time set-password links that expire; disabling ends sessions on every
 * process; unblocking lets the owner in; nobody removes their own admin rights or the last admin;
 * removing an account removes its bookmarks and share links.
 */
describe.each(dialects)('people in the admin area on %s', (dialect) => {
  let t: TestApp;
  let second: FastifyInstance;
  let admin: { userId: number; headers: Record<string, string> };

  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: object,
    app: FastifyInstance = t.app,
  ) => app.inject({ method, url: API + url, headers, ...(payload ? { payload } : {}) });
  const login = (user: string, pass: string, app: FastifyInstance = t.app) =>
    app.inject({ method: 'POST', url: `${API}session/get`, payload: { user, pass } });
  const person = async (id: number) => {
    const res = await call('GET', `admin/people/${id}`, admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PersonAnswer>();
  };
  const list = async (query: string) => {
    const res = await call('GET', `admin/people?${query}`, admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PeopleAnswer>();
  };
  const outbox = () => {
    const dir = path.join(t.settings.dataDir, 'outbox');
    try {
      return readdirSync(dir)
        .sort()
        .map((f) => readFileSync(path.join(dir, f), 'utf8'));
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      env: { PUBLIC_URL: 'https://portal.example.org' },
      settings: {
        login: { maxFailures: 2, invitationHours: 48 },
        groups: [
          { name: 'public', portalAccess: true },
          { name: 'users', portalAccess: true },
          { name: 'admins', portalAccess: true, guiAdmin: true },
        ],
      },
    });
    second = await buildApp(t.settings, { logger: false });
    admin = await signIn(t, { name: 'root', groups: ['admins'] });
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('refuses every call to users, editors and guests', async () => {
    const user = await signIn(t, { groups: ['users'] });
    const editor = await signIn(t, { groups: ['users', t.settings.file.editing.group] });
    const requests: [method: 'GET' | 'POST' | 'DELETE', url: string, body?: object][] = [
      ['GET', 'admin/people'],
      ['GET', `admin/people/${admin.userId}`],
      ['POST', 'admin/people', { name: 'sneaky', email: 'sneaky@example.org', groups: ['admins'] }],
      ['POST', `admin/people/${user.userId}`, { groups: ['admins'] }],
      ['DELETE', `admin/people/${admin.userId}?bookmarks=0&shareLinks=0`],
    ];
    for (const [method, url, body] of requests) {
      for (const headers of [user.headers, editor.headers]) {
        const res = await call(method, url, headers, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ error: 'forbidden' });
      }
      const guest = await call(method, url, xsrfHeaders, body);
      expect(guest.statusCode, `${method} ${url} as a guest`).toBe(401);
    }
    expect((await call('GET', 'admin/people?q=sneaky', admin.headers)).json<PeopleAnswer>().people).toEqual([]);
    expect((await person(user.userId)).person.groups).toEqual([{ name: 'users', fromProvider: false }]);
  });

  it('invites by mail with a one-time link that sets the first password, and refuses it used or expired', async () => {
    const before = outbox().length;
    const created = await call('POST', 'admin/people', admin.headers, {
      name: 'Ines',
      email: 'ines@example.org',
      displayName: 'Ines Example',
      groups: ['users'],
    });
    expect(created.statusCode, created.body).toBe(200);
    const invited = created.json<{ person: Person; mailSent: boolean }>();
    expect(invited.mailSent).toBe(true);
    expect(invited.person).toMatchObject({
      name: 'Ines',
      displayName: 'Ines Example',
      email: 'ines@example.org',
      groups: [{ name: 'users', fromProvider: false }],
      login: 'native',
      invited: true,
      disabled: false,
      lastLogin: null,
      blockedUntil: null,
    });
    const mails = outbox();
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1) ?? '';
    expect(mail).toMatch(/^To: ines@example\.org$/m);
    expect(mail).toMatch(/^Subject: Your account for the media portal$/m);
    const token = tokenIn(mail) ?? '';
    expect(token).not.toBe('');
    const stored = await t.app.db.kysely
      .selectFrom('password_reset')
      .select(['purpose', 'expires_at', 'id'])
      .where('user_id', '=', invited.person.id)
      .executeTakeFirstOrThrow();
    expect(stored.purpose).toBe('invitation');
    expect(stored.id).not.toBe(token);
    // `login.invitationHours` (48 here), not the reset link's 2 hours.
    expect(Number(stored.expires_at) - Date.now()).toBeGreaterThan(47 * 3600_000);

    // No password yet: nothing logs in, not even an empty one.
    expect((await login('Ines', 'any password at all')).json()).toMatchObject({ error: 'wrong_credentials' });

    const set = await call('POST', 'user/reset-password', xsrfHeaders, { token, pass: 'my first password' });
    expect(set.json()).toEqual({ ok: true });
    expect((await login('ines', 'my first password')).statusCode).toBe(200);
    expect((await person(invited.person.id)).person).toMatchObject({ invited: false });
    expect((await person(invited.person.id)).person.lastLogin).toBeGreaterThan(Date.now() - 60_000);

    const reused = await call('POST', 'user/reset-password', xsrfHeaders, { token, pass: 'another password' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ error: 'link_invalid', details: [{ path: 'body.token' }] });

    // A second invitation that expired before it was used.
    await call('POST', 'admin/people', admin.headers, { name: 'late', email: 'late@example.org', groups: [] });
    const lateToken = tokenIn(outbox().at(-1) ?? '') ?? '';
    await t.app.db.kysely
      .updateTable('password_reset')
      .set({ expires_at: Date.now() - 1 })
      .where('purpose', '=', 'invitation')
      .execute();
    const expired = await call('POST', 'user/reset-password', xsrfHeaders, { token: lateToken, pass: 'too late now' });
    expect(expired.json()).toMatchObject({ error: 'link_invalid' });
    expect((await login('late', 'too late now')).statusCode).toBe(401);

    // The admin sends it again: an invitation once more, since no password was set.
    const late = (await list('q=late')).people[0];
    const again = await call('POST', `admin/people/${late?.id}`, admin.headers, { sendLink: true });
    expect(again.json()).toMatchObject({ mailSent: true, person: { invited: true } });
    const fresh = tokenIn(outbox().at(-1) ?? '') ?? '';
    expect(
      (await call('POST', 'user/reset-password', xsrfHeaders, { token: fresh, pass: 'in time now' })).json(),
    ).toEqual({ ok: true });
    expect((await login('late', 'in time now')).statusCode).toBe(200);
  });

  it('refuses bad input with 400 naming the field, a taken name with 409 and an unknown id with 404', async () => {
    const cases: [method: 'GET' | 'POST' | 'DELETE', url: string, body: object | undefined, field: string][] = [
      ['GET', 'admin/people?limit=101', undefined, 'limit'],
      ['GET', 'admin/people?sort=mood', undefined, 'sort'],
      ['GET', 'admin/people?blocked=maybe', undefined, 'blocked'],
      ['GET', 'admin/people/abc', undefined, 'params.id'],
      ['POST', 'admin/people', { name: 'x y', email: 'xy@example.org', groups: [] }, 'body.name'],
      ['POST', 'admin/people', { name: 'xy', email: 'not a mail', groups: [] }, 'email'],
      ['POST', 'admin/people', { name: 'xy', email: 'xy@example.org', groups: ['nosuch'] }, 'body.groups'],
      ['POST', `admin/people/${admin.userId}`, { groups: ['admins'], colour: 'red' }, 'colour'],
      ['DELETE', `admin/people/${admin.userId}`, undefined, 'bookmarks'],
    ];
    for (const [method, url, body, field] of cases) {
      const res = await call(method, url, admin.headers, body);
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(400);
      expect(res.json().error).toBe('validation');
      expect(JSON.stringify(res.json().details)).toContain(field);
    }
    const taken = await call('POST', 'admin/people', admin.headers, { name: 'ROOT', email: 'r@example.org' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: 'conflict' });
    for (const [method, url] of [
      ['GET', 'admin/people/987654'],
      ['POST', 'admin/people/987654'],
      ['DELETE', 'admin/people/987654?bookmarks=0&shareLinks=0'],
    ] as const) {
      const res = await call(method, url, admin.headers, method === 'POST' ? { disabled: true } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ error: 'not_found' });
    }
  });

  it('disabling ends the sessions on every process and refuses logins; enabling lets the owner in again', async () => {
    await addUser(t, { name: 'dana', password: 'dana password', groups: ['users'] });
    const opened = await login('dana', 'dana password', second);
    const headers = { authorization: `Bearer ${opened.json<{ session: string }>().session}`, ...xsrfHeaders };
    const check = async (app: FastifyInstance) =>
      (await app.inject({ url: `${API}session/check`, headers })).json<{ sessionValid: boolean }>().sessionValid;
    expect(await check(second)).toBe(true);
    const id = (await list('q=dana')).people[0]?.id ?? 0;

    const disabled = await call('POST', `admin/people/${id}`, admin.headers, { disabled: true });
    expect(disabled.json()).toMatchObject({ person: { disabled: true } });
    expect(await check(second)).toBe(false);
    expect(await check(t.app)).toBe(false);
    const count = await t.app.db.kysely.selectFrom('session').select('id').where('user_id', '=', id).execute();
    expect(count).toEqual([]);
    const refused = await login('dana', 'dana password', second);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'account_disabled' });
    expect((await list('disabled=true')).people.map((p) => p.name)).toContain('dana');
    expect((await list('disabled=false')).people.map((p) => p.name)).not.toContain('dana');

    await call('POST', `admin/people/${id}`, admin.headers, { disabled: false });
    expect((await login('dana', 'dana password', second)).statusCode).toBe(200);
  });

  it('shows an account blocked by failed logins and unblocks it for its owner', async () => {
    await addUser(t, { name: 'bert', password: 'bert password', groups: ['users'] });
    for (let i = 0; i < 2; i++) expect((await login('bert', `wrong ${i}`)).json().error).toBe('wrong_credentials');
    expect((await login('bert', 'bert password')).json()).toMatchObject({ error: 'login_blocked' });
    const blocked = (await list('blocked=true')).people;
    expect(blocked.map((p) => p.name)).toEqual(['bert']);
    expect(blocked[0]?.blockedUntil).toBeGreaterThan(Date.now());
    expect((await list('blocked=false')).people.map((p) => p.name)).not.toContain('bert');

    const unblocked = await call('POST', `admin/people/${blocked[0]?.id}`, admin.headers, { unblock: true });
    expect(unblocked.json()).toMatchObject({ person: { blockedUntil: null } });
    expect((await login('bert', 'bert password')).statusCode).toBe(200);
  });

  it('keeps every admin from taking their own admin rights or account, and keeps the last admin', async () => {
    const self = admin.userId;
    for (const [method, url, body] of [
      ['POST', `admin/people/${self}`, { groups: ['users'] }],
      ['POST', `admin/people/${self}`, { disabled: true }],
      ['DELETE', `admin/people/${self}?bookmarks=0&shareLinks=0`, undefined],
    ] as const) {
      const res = await call(method, url, admin.headers, body);
      expect(res.statusCode, `${method} ${url}`).toBe(409);
      expect(res.json()).toMatchObject({ error: 'own_admin' });
    }
    // Changes that keep the admin an admin are fine.
    const kept = await call('POST', `admin/people/${self}`, admin.headers, { groups: ['admins', 'users'] });
    expect(kept.statusCode, kept.body).toBe(200);

    // A caller that is no account (a script) cannot demote, disable or remove the last admin either.
    const system: Auth = {
      ...admin,
      userId: null,
      name: null,
      groups: [],
      isAssetUser: false,
      isGuiAdmin: true,
      sessionId: null,
      locale: null,
      expired: false,
    };
    const people = t.app.services.people;
    await expect(people.update(system, String(self), { groups: ['users'] })).rejects.toMatchObject({
      id: 'last_admin',
    });
    await expect(people.update(system, String(self), { disabled: true })).rejects.toMatchObject({ id: 'last_admin' });
    await expect(people.remove(system, String(self), { bookmarks: 0, shareLinks: 0 })).rejects.toMatchObject({
      id: 'last_admin',
    });
    expect((await person(self)).person).toMatchObject({
      disabled: false,
      groups: [{ name: 'admins' }, { name: 'users' }],
    });

    // With a second admin, one may demote the other; the one left is the last.
    const other = await signIn(t, { name: 'deputy', groups: ['admins'] });
    const demoted = await call('POST', `admin/people/${other.userId}`, admin.headers, { groups: ['users'] });
    expect(demoted.json()).toMatchObject({ person: { groups: [{ name: 'users' }] } });
    expect((await call('GET', 'admin/people', other.headers)).statusCode).toBe(403);
  });

  it('leaves an enabled admin when two admins demote each other at the same moment', async () => {
    const [a, b] = [await signIn(t, { groups: ['admins'] }), await signIn(t, { groups: ['admins'] })];
    // The account this file's other calls act as steps aside, so these two are the only admins.
    await t.app.db.kysely.updateTable('user_account').set({ disabled: 1 }).where('id', '=', admin.userId).execute();
    try {
      const answers = await Promise.all([
        call('POST', `admin/people/${b.userId}`, a.headers, { groups: ['users'] }),
        call('POST', `admin/people/${a.userId}`, b.headers, { groups: ['users'] }),
      ]);
      const statuses = answers.map((r) => r.statusCode).sort();
      expect(statuses[0]).toBe(200);
      // The other was refused: as the last admin (409), or as no admin any more (403).
      expect([403, 409]).toContain(statuses[1]);
      const admins = await t.app.db.kysely
        .selectFrom('user_group')
        .select('user_id')
        .where('group_name', '=', 'admins')
        .where('user_id', 'in', [a.userId, b.userId])
        .execute();
      expect(admins).toHaveLength(1);
    } finally {
      await t.app.db.kysely.updateTable('user_account').set({ disabled: 0 }).where('id', '=', admin.userId).execute();
    }
  });

  it('removes an account with its bookmarks and share links, after a confirmation of their counts', async () => {
    const ids = [
      await buildAsset(t.app.db, { filename: 'one.jpg', access: ['users'] }),
      await buildAsset(t.app.db, { filename: 'two.jpg', access: ['users'] }),
    ];
    const owner = await signIn(t, { name: 'olaf', groups: ['users'] });
    const saved = await t.app.inject({
      method: 'POST',
      url: `${API}config/bookmarks`,
      headers: owner.headers,
      payload: ids.map((id) => ({ id: String(id) })),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const visitor = await openShareLink(t, owner.headers, { assetIds: [String(ids[0])], downloadSets: [] });
    const belongings = (await person(owner.userId)).belongings;
    expect(belongings).toEqual({ bookmarks: 2, shareLinks: 1 });

    const stale = await call('DELETE', `admin/people/${owner.userId}?bookmarks=1&shareLinks=1`, admin.headers);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: 'conflict' });
    expect(stale.json().message).toMatch(/2 bookmarks and 1 share links/);

    const removed = await call('DELETE', `admin/people/${owner.userId}?bookmarks=2&shareLinks=1`, admin.headers);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ removed: { bookmarks: 2, shareLinks: 1 } });
    const db = t.app.db.kysely;
    expect(await db.selectFrom('bookmark').select('asset_id').where('user_id', '=', owner.userId).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom('share_link').select('id').where('user_id', '=', owner.userId).execute()).toEqual([]);
    expect(
      await db.selectFrom('share_link_asset').select('asset_id').where('share_id', '=', visitor.shareId).execute(),
    ).toEqual([]);
    expect((await call('GET', 'session/check', owner.headers)).json()).toMatchObject({ sessionValid: false });
    expect((await call('GET', 'session/check', visitor.headers)).json()).toMatchObject({ sessionValid: false });
    expect((await call('GET', `admin/people/${owner.userId}`, admin.headers)).statusCode).toBe(404);
  });

  it('searches name, display name and mail case-insensitively, filters, sorts and pages', async () => {
    const users = t.app.services.repositories.users;
    for (let i = 0; i < 30; i++) {
      await users.createUser({
        name: `pager${String(i).padStart(2, '0')}`,
        email: `Pager.${i}@Example.ORG`,
        groups: i % 3 === 0 ? ['public'] : ['users'],
      });
    }
    const sso = await users.createUser({
      name: 'Søren',
      email: 'soren@corp.example',
      authSource: 'oidc:corp',
      externalId: 's-1',
      groups: ['users'],
      groupOrigin: 'provider',
    });
    await users.setGroups(sso, ['public']);
    await users.recordLogin(sso, Date.now() + 1000);

    const first = await list('q=PAGER&limit=12');
    expect(first.people.map((p) => p.name)).toEqual(
      Array.from({ length: 12 }, (_, i) => `pager${String(i).padStart(2, '0')}`),
    );
    expect(first.more).toBe(true);
    const last = await list('q=pager&offset=24&limit=12');
    expect(last.people).toHaveLength(6);
    expect(last.more).toBe(false);
    expect((await list('q=pager&sort=name&order=desc&limit=1')).people[0]?.name).toBe('pager29');
    expect((await list('q=example.org&group=public&limit=100')).people).toHaveLength(10);
    expect((await list('q=pager.7@')).people.map((p) => p.email)).toEqual(['Pager.7@Example.ORG']);
    // % and _ are searched for as themselves.
    expect((await list('q=%25')).people).toEqual([]);
    expect((await list('q=r_')).people).toEqual([]);
    expect((await list('q=ines%20ex')).people.map((p) => p.name)).toEqual(['Ines']);

    const provider = await list('login=oidc:corp');
    expect(provider.people).toHaveLength(1);
    expect(provider.people[0]).toMatchObject({
      name: 'Søren',
      login: 'oidc:corp',
      invited: false,
      groups: [
        { name: 'public', fromProvider: false },
        { name: 'users', fromProvider: true },
      ],
    });
    expect((await list('q=SØREN')).people.map((p) => p.name)).toEqual(['Søren']);
    expect((await list('sort=lastLogin&order=desc&limit=1')).people[0]?.name).toBe('Søren');
    expect((await list('login=native&q=søren')).people).toEqual([]);

    // A login through the provider sets its groups again; those given by hand stay.
    await users.setGroups(sso, ['admins'], 'provider');
    expect((await person(sso)).person.groups).toEqual([
      { name: 'admins', fromProvider: true },
      { name: 'public', fromProvider: false },
    ]);
    // And the admin's edit of the groups given by hand leaves the provider's alone.
    const edited = await call('POST', `admin/people/${sso}`, admin.headers, { groups: ['users'] });
    expect(edited.json<{ person: Person }>().person.groups).toEqual([
      { name: 'admins', fromProvider: true },
      { name: 'users', fromProvider: false },
    ]);
    const reset = await call('POST', `admin/people/${sso}`, admin.headers, { sendLink: true });
    expect(reset.statusCode).toBe(409);
    expect(reset.json().message).toMatch(/oidc:corp/);
  });

  it('mails a reset link to an account that has a password', async () => {
    const id = await addUser(t, {
      name: 'rita',
      password: 'rita password',
      groups: ['users'],
      email: 'rita@example.org',
    });
    const sent = await call('POST', `admin/people/${id}`, admin.headers, { sendLink: true, displayName: 'Rita R.' });
    expect(sent.json()).toMatchObject({ mailSent: true, person: { displayName: 'Rita R.', invited: false } });
    const mail = outbox().at(-1) ?? '';
    expect(mail).toMatch(/^To: rita@example\.org$/m);
    expect(mail).toMatch(/^Subject: Your new password for the media portal$/m);
    const row = await t.app.db.kysely
      .selectFrom('password_reset')
      .select(['purpose'])
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.purpose).toBe('reset');
    const token = tokenIn(mail);
    // A second link replaces the first.
    await call('POST', `admin/people/${id}`, admin.headers, { sendLink: true });
    const replaced = await call('POST', 'user/reset-password', xsrfHeaders, { token, pass: 'rita renewed' });
    expect(replaced.json()).toMatchObject({ error: 'link_invalid' });
    const latest = tokenIn(outbox().at(-1) ?? '');
    expect(
      (await call('POST', 'user/reset-password', xsrfHeaders, { token: latest, pass: 'rita renewed' })).json(),
    ).toEqual({ ok: true });
    expect((await login('rita', 'rita renewed')).statusCode).toBe(200);
  });
});
