import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PeopleAnswer } from '@vitrine/contract/people';
import type { SearchAnswer } from '@vitrine/contract/search';
import { loadSettings } from '../src/settings.ts';
import { openServices, type Services } from '../src/services.ts';
import { xsrfHeaders } from './auth.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import { buildAsset } from './factories.ts';
import { startServerProcess, tempDataDir, type ServerProcess } from './server-process.ts';

const API = '/assetportal/api/';

const settings = {
  groups: [{ name: 'public' }, { name: 'users' }, { name: 'admins', guiAdmin: true }],
  conversionSets: [
    { id: 1, title: 'Web', format: 'jpeg', maxSize: 1024 },
    { id: 2, title: 'Print', format: 'tiff' },
  ],
  fields: [{ field_name: 'rating', visibleTo: ['admins'] }],
};

/**
 * People and groups on three real `vitrine serve` processes over one PostgreSQL database (issue #50,
 * docs/scale-out.md): what an admin changes through one process applies on the next request of the
 * others, which are never restarted and keep nothing of their own.
 */
describe('people and groups on three server processes on PostgreSQL (issue #50)', () => {
  let database: TestDatabase;
  let data: ReturnType<typeof tempDataDir>;
  let services: Services;
  let a: ServerProcess;
  let b: ServerProcess;
  let c: ServerProcess;
  let admin: Record<string, string>;
  let photo: number;

  const call = async (
    on: ServerProcess,
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => {
    const res = await fetch(on.url + API + url, {
      method,
      headers: payload ? { ...headers, 'content-type': 'application/json' } : headers,
      body: payload ? JSON.stringify(payload) : undefined,
    });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };
  const login = async (on: ServerProcess, user: string, pass: string) => {
    const res = await call(on, 'POST', 'session/get', xsrfHeaders, { user, pass });
    expect(res.status, res.text).toBe(200);
    return { authorization: `Bearer ${res.json().session as string}`, ...xsrfHeaders };
  };
  /** The conversion sets the caller may download the photo in, as process `on` answers. */
  const sets = async (on: ServerProcess, headers: Record<string, string>) => {
    const res = await call(on, 'GET', `session/csets?asset_id=${photo}`, headers);
    expect(res.status, res.text).toBe(200);
    return (res.json().convert_sets as { id: number }[]).map((s) => s.id);
  };
  const photoDoc = async (on: ServerProcess, headers: Record<string, string>) => {
    const res = await call(on, 'GET', `search?solr_q=*&id=${photo}`, headers);
    expect(res.status, res.text).toBe(200);
    const doc = (res.json() as unknown as SearchAnswer).response.docs[0];
    expect(doc, 'the photo').toBeDefined();
    return doc as Record<string, unknown>;
  };
  const sessionValid = async (on: ServerProcess, headers: Record<string, string>) => {
    const res = await call(on, 'GET', 'session/check', headers);
    return res.json().sessionValid;
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    if (database.config.dialect !== 'postgres') throw new Error('a PostgreSQL database was asked for');
    data = tempDataDir();
    const dataDir = path.join(data.dir, 'data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify(settings));
    const env = { DATA_DIR: dataDir, DATABASE_URL: database.config.url };
    // The first process runs the migrations; the other two start on the migrated database together.
    a = await startServerProcess(env);
    [b, c] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    services = await openServices(loadSettings({ ...env, LOG_LEVEL: 'silent' }));
    photo = await buildAsset(services.db, {
      filename: 'harbour.jpg',
      rating: 4,
      values: { title: 'Harbour' },
      access: ['public', 'users', 'admins'],
    });
    await services.users.add({ name: 'ada', password: 'ada long secret', groups: ['admins'] });
    await services.users.add({ name: 'uma', password: 'uma long secret', groups: ['users'] });
    admin = await login(a, 'ada', 'ada long secret');
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a, b, c].map((p) => p?.kill()));
    await services?.close();
    await database?.drop();
    data?.remove();
  });

  it("a group's download sets and field audiences saved through one process apply on the next request of the others", async () => {
    const uma = await login(b, 'uma', 'uma long secret');
    for (const p of [b, c]) {
      expect(await sets(p, uma)).toEqual([0]);
      expect(await photoDoc(p, uma)).not.toHaveProperty('rating');
    }

    const saved = await call(a, 'POST', 'admin/groups/users', admin, { downloadSets: [0, 2], fields: ['rating'] });
    expect(saved.status, saved.text).toBe(200);
    for (const p of [b, c]) {
      expect(await sets(p, uma)).toEqual([0, 2]);
      expect(await photoDoc(p, uma)).toMatchObject({ rating: 4 });
    }

    const narrowed = await call(a, 'POST', 'admin/groups/users', admin, { downloadSets: [1], fields: [] });
    expect(narrowed.status, narrowed.text).toBe(200);
    for (const p of [c, b]) {
      expect(await sets(p, uma)).toEqual([1]);
      expect(await photoDoc(p, uma)).not.toHaveProperty('rating');
    }

    // A rollback through another process, to the version before the last, is a change like any other.
    const history = await call(c, 'GET', 'admin/groups/history?limit=2', admin);
    expect(history.status, history.text).toBe(200);
    const previous = (history.json().versions as { id: number }[])[1];
    expect(previous).toBeDefined();
    const rolledBack = await call(c, 'POST', `admin/groups/rollback/${previous?.id}`, admin);
    expect(rolledBack.status, rolledBack.text).toBe(200);
    for (const p of [a, b]) {
      expect(await sets(p, uma)).toEqual([0, 2]);
      expect(await photoDoc(p, uma)).toMatchObject({ rating: 4 });
    }
  });

  it('disabling an account through one process ends its sessions on the others and refuses new logins there', async () => {
    await services.users.add({ name: 'dana', password: 'dana long secret', groups: ['users'] });
    const onB = await login(b, 'dana', 'dana long secret');
    const onC = await login(c, 'dana', 'dana long secret');
    expect(await sessionValid(b, onB)).toBe(true);
    expect(await sessionValid(c, onC)).toBe(true);
    expect((await call(c, 'GET', 'config/bookmarks', onC)).status).toBe(200);

    const found = await call(a, 'GET', 'admin/people?q=dana', admin);
    const id = (found.json() as unknown as PeopleAnswer).people[0]?.id;
    expect(id).toBeDefined();
    const disabled = await call(a, 'POST', `admin/people/${id}`, admin, { disabled: true });
    expect(disabled.status, disabled.text).toBe(200);

    for (const [p, headers] of [
      [b, onB],
      [c, onC],
      [b, onC],
    ] as const) {
      expect(await sessionValid(p, headers)).toBe(false);
      const asked = await call(p, 'GET', 'config/bookmarks', headers);
      expect(asked.status, asked.text).toBe(401);
    }
    const again = await call(c, 'POST', 'session/get', xsrfHeaders, { user: 'dana', pass: 'dana long secret' });
    expect(again.status).toBe(403);
    expect(again.json().error).toBe('account_disabled');

    expect((await call(a, 'POST', `admin/people/${id}`, admin, { disabled: false })).status).toBe(200);
    expect(await sessionValid(b, await login(b, 'dana', 'dana long secret'))).toBe(true);
  });
});
