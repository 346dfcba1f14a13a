import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { hashToken } from '../auth/tokens.ts';
import { PURGE_JOB } from '../jobs/purge.jobs.ts';

const API = '/assetportal/api/';
const DAY = 24 * 3600_000;

describe.each(dialects)('the absolute lifetime of a session on %s (settings session.maxDays)', (dialect) => {
  let t: TestApp;
  afterEach(async () => t.close());

  /** A signed-in user whose session was opened `days` ago and was used a moment ago. */
  async function sessionOpened(days: number) {
    const { token, headers } = await signIn(t, { groups: ['users'] });
    await t.app.db.kysely
      .updateTable('session')
      .set({ created_at: Date.now() - days * DAY, last_seen: Date.now() })
      .where('id', '=', hashToken(token))
      .execute();
    return { token, check: async () => (await t.app.inject({ url: `${API}session/check`, headers })).json<unknown>() };
  }

  it('ends a session older than 30 days (the default) however recently it was used, and keeps a younger one', async () => {
    t = await startTestApp({ dialect });
    const old = await sessionOpened(30.01);
    const young = await sessionOpened(29.9);
    expect(await old.check()).toEqual({ isGuiAdmin: false, sessionValid: false });
    expect(await young.check()).toEqual({ isGuiAdmin: false, sessionValid: true });
    // Its use just now did not keep it alive: a call that needs the session is refused.
    const locale = await t.app.inject({
      url: `${API}session/set_locale?locale=en`,
      headers: { authorization: `Bearer ${old.token}` },
    });
    expect(locale.statusCode).toBe(401);
  });

  it('follows session.maxDays, and the purge removes sessions past it though their idle expiry is ahead', async () => {
    t = await startTestApp({ dialect, settings: { session: { maxDays: 2 } } });
    const old = await sessionOpened(2.5);
    const young = await sessionOpened(1.5);
    expect(await old.check()).toMatchObject({ sessionValid: false });
    expect(await young.check()).toMatchObject({ sessionValid: true });

    const ids = async () =>
      (await t.app.db.kysely.selectFrom('session').select('id').execute()).map((r) => r.id).sort();
    expect(await ids()).toEqual([hashToken(old.token), hashToken(young.token)].sort());
    const worker = t.app.services.jobWorker({
      pollMs: 20,
      concurrency: 1,
      recurring: [{ job: { name: PURGE_JOB, key: PURGE_JOB, payload: {} }, everyMs: 150 }],
    });
    worker.start();
    await vi.waitFor(async () => expect(await ids()).toEqual([hashToken(young.token)]), {
      timeout: 10_000,
      interval: 50,
    });
    await worker.stop();
  });
});
