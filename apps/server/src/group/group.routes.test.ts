import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupList } from '@vitrine/contract/groups';
import { must } from '@vitrine/contract/must';
import type { SearchAnswer } from '@vitrine/contract/search';
import { buildApp } from '../app.ts';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAsset } from '../../test/factories.ts';
import { addUser } from '../../test/users.ts';
import { commandLine } from './group.service.ts';

/**
 * Groups and their rights in the admin area (issue #50, decision 0260): admins only; the settings
 * file decides until the first save; a change applies on the next request of every process.
 */
const API = '/assetportal/api/';

const settings = {
  groups: [{ name: 'public' }, { name: 'users' }, { name: 'staff' }, { name: 'admins', guiAdmin: true }],
  conversionSets: [
    { id: 1, title: 'Web', format: 'jpeg', maxSize: 1024, userGroups: ['staff'] },
    { id: 2, title: 'Print', format: 'tiff' },
  ],
  // A built-in field only admins see (docs/security.md "Field audiences").
  fields: [{ field_name: 'rating', visibleTo: ['admins'] }],
};

type Call = { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: object };

describe.each(dialects)('groups in the admin area on %s (issue #50)', (dialect) => {
  let t: TestApp;
  /** A second process over the same database and data folder. */
  let b: FastifyInstance;
  let admin: Record<string, string>;
  let user: Record<string, string>;
  let photo: number;

  const call = async (c: Call, headers: Record<string, string>, app: FastifyInstance = t.app) => {
    const res = await app.inject({ method: c.method, url: API + c.url, headers, payload: c.payload });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>(), text: res.body };
  };
  const list = async (app: FastifyInstance = t.app) => {
    const res = await call({ method: 'GET', url: 'admin/groups' }, admin, app);
    expect(res.status, res.text).toBe(200);
    return res.body as unknown as GroupList;
  };
  const change = (name: string, payload: object, headers = admin) =>
    call({ method: 'POST', url: `admin/groups/${encodeURIComponent(name)}`, payload }, headers);
  /** The conversion sets `headers`' caller may download the photo in (session/csets). */
  const sets = async (app: FastifyInstance, headers: Record<string, string>) => {
    const res = await call({ method: 'GET', url: `session/csets?asset_id=${photo}` }, headers, app);
    expect(res.status, res.text).toBe(200);
    return (res.body.convert_sets as { id: number }[]).map((s) => s.id);
  };
  const photoDoc = async (app: FastifyInstance, headers: Record<string, string>) => {
    const res = await call({ method: 'GET', url: `search?solr_q=*&id=${photo}` }, headers, app);
    expect(res.status, res.text).toBe(200);
    return must((res.body as unknown as SearchAnswer).response.docs[0], 'the photo');
  };

  beforeAll(async () => {
    t = await startTestApp({ dialect, settings });
    b = await buildApp(t.settings, { logger: false });
    photo = await buildAsset(t.app.db, {
      filename: 'harbour.jpg',
      rating: 4,
      values: { title: 'Harbour' },
      access: ['public', 'users', 'staff', 'admins'],
    });
    admin = (await signIn(t, { name: 'ada', groups: ['admins'] })).headers;
    user = (await signIn(t, { name: 'uma', groups: ['users'] })).headers;
  });
  afterAll(async () => {
    await b.close();
    await t.close();
  });

  it("lists the settings file's groups until the first save, with what names each", async () => {
    const answer = await list();
    expect(answer.source).toBe('settings');
    expect(answer.version).toBeNull();
    const byName = Object.fromEntries(answer.groups.map((g) => [g.name, g]));
    expect(Object.keys(byName)).toEqual(['public', 'users', 'staff', 'admins', 'editors']);
    expect(byName.users).toMatchObject({
      portalAccess: true,
      guiAdmin: false,
      downloadSets: [0],
      shareLinks: true,
      editors: false,
      fields: ['gps_lat', 'gps_lon'],
      accounts: 1,
      assets: 1,
    });
    expect(byName.admins).toMatchObject({ guiAdmin: true, fields: ['gps_lat', 'gps_lon', 'rating'], accounts: 1 });
    expect(byName.editors).toMatchObject({ editors: true, portalAccess: false, downloadSets: [] });
    expect(byName.staff).toMatchObject({ conversionSets: [1], settings: [] });
    expect(byName.public).toMatchObject({ settings: ['guest.groups', 'catalogue.defaultAccessGroups'] });
    expect(answer.audienceFields).toEqual(expect.arrayContaining(['gps_lat', 'rating']));
    expect(answer.conversionSets.map((s) => s.id)).toEqual([0, 1, 2]);
  });

  it('refuses every call to guests (401) and to accounts that are not admins (403)', async () => {
    const calls: Call[] = [
      { method: 'GET', url: 'admin/groups' },
      { method: 'POST', url: 'admin/groups', payload: { name: 'agents' } },
      { method: 'POST', url: 'admin/groups/users', payload: { guiAdmin: true } },
      { method: 'DELETE', url: 'admin/groups/staff' },
      { method: 'GET', url: 'admin/groups/history' },
      { method: 'POST', url: 'admin/groups/rollback/1' },
    ];
    for (const c of calls) {
      const asUser = await call(c, user);
      expect(asUser.status, `${c.method} ${c.url}`).toBe(403);
      expect(asUser.body.error).toBe('forbidden');
      expect((await call(c, xsrfHeaders)).status, `${c.method} ${c.url}`).toBe(401);
    }
    // Nothing was saved by the refused calls.
    expect((await list()).source).toBe('settings');
  });

  it("a group's download sets and field audiences change what its members get on the next request, on every process", async () => {
    expect(await sets(t.app, user)).toEqual([0]);
    expect(await sets(b, user)).toEqual([0]);
    expect(await photoDoc(b, user)).not.toHaveProperty('rating');

    const saved = await change('users', { downloadSets: [0, 2], fields: ['rating'] });
    expect(saved.status, saved.text).toBe(200);
    expect((saved.body as unknown as GroupList).source).toBe('admin');
    for (const app of [t.app, b]) {
      expect(await sets(app, user)).toEqual([0, 2]);
      expect(await photoDoc(app, user)).toMatchObject({ rating: 4 });
    }

    expect((await change('users', { downloadSets: [], fields: [] })).status).toBe(200);
    for (const app of [t.app, b]) {
      expect(await sets(app, user)).toEqual([]);
      expect(await photoDoc(app, user)).not.toHaveProperty('rating');
    }
    // Admins keep the field the settings file gave them: the first save started from the file.
    expect(await photoDoc(b, admin)).toMatchObject({ rating: 4 });
    expect((await change('users', { downloadSets: [0] })).status).toBe(200);
  });

  it('who may make share links and who is an editor follow the saved groups on every process', async () => {
    const share = (app: FastifyInstance) =>
      call(
        { method: 'POST', url: 'share/create', payload: { assetIds: [String(photo)], downloadSets: [0] } },
        user,
        app,
      );
    const editOptions = (app: FastifyInstance) => call({ method: 'GET', url: 'edit/options' }, user, app);
    expect((await share(b)).status).toBe(200);
    expect((await editOptions(b)).status).toBe(403);

    expect((await change('users', { shareLinks: false, editors: true })).status).toBe(200);
    for (const app of [t.app, b]) {
      expect((await share(app)).status).toBe(403);
      expect((await editOptions(app)).status).toBe(200);
    }
    expect((await change('users', { shareLinks: true, editors: false })).status).toBe(200);
    expect((await share(b)).status).toBe(200);
    expect((await editOptions(b)).status).toBe(403);
  });

  it('bad input is a 400 that names the field', async () => {
    const cases: [object, string][] = [
      [{ name: 'a,b' }, 'name'],
      [{ name: 'agents', downloadSets: [7] }, 'downloadSets.0'],
      [{ name: 'agents', fields: ['title'] }, 'fields.0'],
      [{ name: 'agents', guiAdmin: 'yes' }, 'guiAdmin'],
    ];
    for (const [payload, path] of cases) {
      const res = await call({ method: 'POST', url: 'admin/groups', payload }, admin);
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toBe('validation');
      expect(JSON.stringify(res.body.details)).toContain(`"body.${path}"`);
    }
    const rollback = await call({ method: 'POST', url: 'admin/groups/rollback/first' }, admin);
    expect(rollback.status).toBe(400);
    expect(JSON.stringify(rollback.body.details)).toContain('"params.id"');
    expect((await change('nonesuch', { shareLinks: true })).status).toBe(404);
  });

  it('a group is created, renamed for its accounts, and removed only once nothing names it', async () => {
    const created = await call({ method: 'POST', url: 'admin/groups', payload: { name: 'partners' } }, admin);
    expect(created.status, created.text).toBe(200);
    expect((await call({ method: 'POST', url: 'admin/groups', payload: { name: 'partners' } }, admin)).status).toBe(
      409,
    );
    // Accounts may be members of the new group at once (the command line checks names against it).
    const pia = await addUser(t, { name: 'pia', password: 'a long secret', groups: ['partners'] });

    // A name the account holds already (left from a group the settings file once had) is kept once.
    await t.app.db.kysely.insertInto('user_group').values({ user_id: pia, group_name: 'agencies' }).execute();
    const renamed = await change('partners', { name: 'agencies', shareLinks: true });
    expect(renamed.status, renamed.text).toBe(200);
    const memberships = await t.app.db.kysely
      .selectFrom('user_group')
      .select('group_name')
      .where('user_id', '=', pia)
      .execute();
    expect(memberships.map((m) => m.group_name)).toEqual(['agencies']);
    expect((await list(b)).groups.find((g) => g.name === 'agencies')).toMatchObject({ accounts: 1, shareLinks: true });

    // Assets' access lists and the settings file are not rewritten by a rename.
    const users = await change('users', { name: 'members' });
    expect(users.status).toBe(409);
    expect(users.body.message).toMatch(/assets' access lists/);

    const refused = await call({ method: 'DELETE', url: 'admin/groups/agencies' }, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/1 account/);
    const publicGroup = await call({ method: 'DELETE', url: 'admin/groups/public' }, admin);
    expect(publicGroup.status).toBe(409);
    expect(publicGroup.body.message).toMatch(/access lists of 1 asset.*guest\.groups/);
    const staff = await call({ method: 'DELETE', url: 'admin/groups/staff' }, admin);
    expect(staff.status).toBe(409);
    expect(staff.body.message).toMatch(/conversion set 1/);

    await t.app.services.users.setGroups('pia', []);
    const removed = await call({ method: 'DELETE', url: 'admin/groups/agencies' }, admin);
    expect(removed.status, removed.text).toBe(200);
    expect((await list(b)).groups.map((g) => g.name)).not.toContain('agencies');
  });

  it('each save is in the history with who and when, and an earlier version can be restored', async () => {
    const history = await call({ method: 'GET', url: 'admin/groups/history?limit=200' }, admin);
    expect(history.status).toBe(200);
    const versions = history.body.versions as { id: number; saved_by: string; groups: string[] }[];
    const first = must(versions.at(-1), 'the first version');
    expect(first).toMatchObject({
      saved_by: '(settings file)',
      groups: ['public', 'users', 'staff', 'admins', 'editors'],
    });
    expect(versions[0]).toMatchObject({ saved_by: 'ada' });
    expect(versions[0]?.groups).not.toContain('agencies');

    // The version that still had the group, restored.
    const withAgencies = must(
      versions.find((v) => v.groups.includes('agencies')),
      'a version with agencies',
    );
    const restored = await call({ method: 'POST', url: `admin/groups/rollback/${withAgencies.id}` }, admin);
    expect(restored.status, restored.text).toBe(200);
    expect((await list(b)).groups.map((g) => g.name)).toContain('agencies');
    const latest = (await call({ method: 'GET', url: 'admin/groups/history?limit=1' }, admin)).body.versions as {
      restored_from: number | null;
    }[];
    expect(latest[0]?.restored_from).toBe(withAgencies.id);
    expect((await call({ method: 'POST', url: 'admin/groups/rollback/999999' }, admin)).status).toBe(404);
  });

  it('admin rights are kept: not from your own last admin group, not from the last admin group with members', async () => {
    const own = await change('admins', { guiAdmin: false });
    expect(own.status).toBe(409);
    expect(own.body.message).toMatch(/your own last admin group/);
    // The command line names no group of its own: only the last admin group with members holds it back.
    await expect(t.app.services.groups.change(commandLine, 'admins', { guiAdmin: false })).rejects.toMatchObject({
      id: 'conflict',
      message: expect.stringMatching(/admins is the last admin group with members/),
    });
    expect((await list()).groups.find((g) => g.name === 'admins')?.guiAdmin).toBe(true);

    // Another admin group with a member: now admins may lose its rights, and ada with them.
    expect((await change('staff', { guiAdmin: true })).status).toBe(200);
    await signIn(t, { name: 'sam', groups: ['staff'] });
    expect((await t.app.services.groups.change(commandLine, 'admins', { guiAdmin: false })).groups).toContainEqual(
      expect.objectContaining({ name: 'admins', guiAdmin: false }),
    );
    expect((await call({ method: 'GET', url: 'admin/groups' }, admin, b)).status).toBe(403);
  });
});

describe('groups while the database does not answer (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect: 'postgres', settings });
  });
  afterAll(async () => t.close());

  it('a request whose check of the groups is held up goes on with the rights last read', async () => {
    const { database } = t.settings;
    if (database.dialect !== 'postgres') throw new Error('this test needs PostgreSQL');
    const search = () => t.app.inject({ method: 'GET', url: `${API}search?solr_q=*`, headers: xsrfHeaders });
    expect((await search()).statusCode).toBe(200);
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      // Every read of the version row now waits for this transaction, as with a stuck database.
      await locker.query('begin');
      await locker.query('lock table group_rights_state in access exclusive mode');
      const health = await t.app.inject({ method: 'GET', url: `${API}health` });
      expect(health.statusCode, health.body).toBe(200);
      const searched = await search();
      expect(searched.statusCode, searched.body).toBe(200);
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
  }, 20_000);
});
