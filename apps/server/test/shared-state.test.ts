import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { defaultGlobalConfig } from '@vitrine/contract/global-config';
import { buildApp } from '../src/app.ts';
import { JobWorker, type JobHandler } from '../src/jobs/job.worker.ts';
import { startTestApp, type TestApp } from './app.ts';
import { signIn, xsrfHeaders } from './auth.ts';
import { dialects } from './databases.ts';
import { buildAsset } from './factories.ts';
import { addUser } from './users.ts';

const api = '/assetportal/api/';

/**
 * Two server instances over one database and one data folder, as two processes behind a balancer
 * are (docs/scale-out.md): whatever one of them is told, the other must know at once.
 */
describe.each(dialects)('state shared by several server processes on %s (docs/scale-out.md)', (dialect) => {
  let t: TestApp;
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    t = await startTestApp({ dialect, settings: { login: { maxFailures: 3 } } });
    a = t.app;
    b = await buildApp(t.settings, { logger: false });
  });
  afterAll(async () => {
    await b.close();
    await t.close();
  });

  it('a session opened on one process is valid on the other, and a logout there ends it everywhere', async () => {
    await addUser(t, { name: 'nora', password: 'a long secret', groups: ['users'] });
    const login = await a.inject({
      method: 'POST',
      url: `${api}session/get`,
      payload: { user: 'nora', pass: 'a long secret' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const headers = { authorization: `Bearer ${login.json().session}`, ...xsrfHeaders };
    expect((await b.inject({ url: `${api}session/check`, headers })).json()).toEqual({
      isGuiAdmin: false,
      sessionValid: true,
    });
    expect((await b.inject({ url: `${api}session/logout`, headers })).statusCode).toBe(200);
    expect((await a.inject({ url: `${api}session/check`, headers })).json().sessionValid).toBe(false);
  });

  it('login failures counted by one process block the account on the other (portal-spec §4 "Login")', async () => {
    await addUser(t, { name: 'olga', password: 'a long secret', groups: ['users'] });
    for (let i = 0; i < 3; i++) {
      const wrong = await a.inject({
        method: 'POST',
        url: `${api}session/get`,
        payload: { user: 'olga', pass: `x${i}` },
      });
      expect(wrong.json().error).toBe('wrong_credentials');
    }
    const right = await b.inject({
      method: 'POST',
      url: `${api}session/get`,
      payload: { user: 'olga', pass: 'a long secret' },
    });
    expect(right.json().error).toBe('login_blocked');
  });

  it('a config saved through one process is served by the other at once, with its history', async () => {
    const admin = (await signIn(t, { name: 'ada', groups: ['admins'] })).headers;
    const config = { ...defaultGlobalConfig, global: { ...defaultGlobalConfig.global, website_title: 'Shared' } };
    expect(
      (await a.inject({ method: 'POST', url: `${api}config/global`, headers: admin, payload: config })).statusCode,
    ).toBe(200);
    expect((await b.inject(`${api}config/global`)).json().global.website_title).toBe('Shared');
    const history = (await b.inject({ url: `${api}config/history?limit=1`, headers: admin })).json();
    expect(history.versions[0]).toMatchObject({ saved_by: 'ada' });
  });

  it('bookmarks written through one process are read back through the other', async () => {
    const user = await signIn(t, { groups: ['users'] });
    const id = await buildAsset(t.app.db, { filename: 'kept.jpg', access: ['users'] });
    const saved = await a.inject({
      method: 'POST',
      url: `${api}config/bookmarks`,
      headers: user.headers,
      payload: [{ id: String(id) }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await b.inject({ url: `${api}config/bookmarks`, headers: user.headers })).json()).toEqual([
      { id: String(id) },
    ]);
  });

  it("the other process's search sees an asset added after its index was loaded (catalogue generation)", async () => {
    const guest = { ...xsrfHeaders };
    const before = (await b.inject({ url: `${api}search?solr_q=zebrafinch`, headers: guest })).json();
    expect(before.response.numFound).toBe(0);
    await buildAsset(a.db, { filename: 'zebrafinch.jpg', values: { title: 'Zebrafinch on a branch' } });
    const after = (await b.inject({ url: `${api}search?solr_q=zebrafinch`, headers: guest })).json();
    expect(after.response.numFound).toBe(1);
  });

  it('a job queued once runs once although workers in both processes claim jobs', async () => {
    const runs: string[] = [];
    const handler: JobHandler<{ n: number }> = {
      name: 'shared-state-count',
      parse: (p) => p as { n: number },
      run: async ({ n }) => {
        runs.push(`${n}`);
        await new Promise((r) => setTimeout(r, 5 + (n % 3) * 5));
      },
    };
    for (let n = 0; n < 24; n++) {
      await a.services.repositories.jobs.enqueue({ name: 'shared-state-count', key: `count:${n}`, payload: { n } });
    }
    const workers = [a, b].map(
      (app) => new JobWorker(app.services.repositories.jobs, [handler as JobHandler], { concurrency: 3, pollMs: 10 }),
    );
    await Promise.all(workers.map((w) => w.drain()));
    await Promise.all(workers.map((w) => w.stop()));
    expect(runs.length).toBe(24);
    expect(new Set(runs).size).toBe(24);
  });
});
