import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { PasswordChecksBusy } from '../adapters/password.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { accountKey, LoginThrottleRepository } from '../user/login-throttle.repository.ts';
import { slowdownMs, throttledCheck } from './throttled-check.ts';

describe('slowdownMs', () => {
  it('waits nothing up to maxFailures, then 250 ms doubling with each failure, never beyond the cap', () => {
    expect([0, 4, 5, 6, 7, 8, 9, 10, 1000].map((failures) => slowdownMs(failures, 5, 4000))).toEqual([
      0, 0, 250, 500, 1000, 2000, 4000, 4000, 4000,
    ]);
    expect(slowdownMs(5, 5, 100)).toBe(100);
    expect(slowdownMs(50, 5, 0)).toBe(0);
  });
});

/**
 * The throttle itself on both databases, with the waits it asks for recorded instead of slept
 * (login-security.test.ts and share-password.test.ts drive it over HTTP).
 */
describe.each(dialects)(
  'the login throttle on %s (docs/security.md "Failed logins and share-link passwords")',
  (dialect) => {
    let test: TestDatabase;
    let db: Db;
    let throttle: LoginThrottleRepository;
    let waits: number[];
    beforeEach(async () => {
      test = await createTestDatabase(dialect);
      db = await openDatabase(test.config);
      throttle = new LoginThrottleRepository(db);
      waits = [];
    });
    afterEach(async () => {
      await db.close();
      await test.drop();
    });

    const anna = accountKey('anna');
    const attempt = (client: string, pass: boolean | (() => Promise<boolean>), subject = anna) =>
      throttledCheck(
        throttle,
        { subject, client, maxFailures: 3, maxFailuresPerClient: 10, blockMs: 60_000, maxDelayMs: 1000 },
        typeof pass === 'function' ? pass : async () => pass,
        async (ms) => waits.push(ms),
      );

    it('blocks a client after maxFailures on a name, even for the right password; other clients go on', async () => {
      for (let i = 0; i < 3; i++) expect(await attempt('192.0.2.1', false)).toBe(false);
      await expect(attempt('192.0.2.1', true)).rejects.toMatchObject({ id: 'login_blocked', retryAfterMinutes: 1 });
      expect(await attempt('198.51.100.1', true)).toBe(true);
      // The block holds after the owner's login elsewhere.
      await expect(attempt('192.0.2.1', true)).rejects.toMatchObject({ id: 'login_blocked' });
    });

    it('only slows a name failed from many clients, the wait growing to the cap, and forgets it when a login works', async () => {
      for (let i = 0; i < 8; i++) expect(await attempt(`198.51.100.${i + 1}`, false)).toBe(false);
      expect(await attempt('203.0.113.1', true)).toBe(true);
      expect(await attempt('203.0.113.2', false)).toBe(false);
      expect(waits).toEqual([250, 500, 1000, 1000, 1000, 1000]);
    });

    it('counts attempts still being checked, so concurrent ones from one client check at most maxFailures passwords', async () => {
      let checked = 0;
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () =>
          attempt('192.0.2.1', async () => {
            checked++;
            return false;
          }),
        ),
      );
      expect(checked).toBeLessThanOrEqual(3);
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(20 - checked);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ id: 'login_blocked' });
    });

    it('blocks a client after maxFailuresPerClient failures on any names, before any name blocks it', async () => {
      for (let i = 0; i < 10; i++) expect(await attempt('192.0.2.1', false, accountKey(`name${i % 5}`))).toBe(false);
      await expect(attempt('192.0.2.1', true)).rejects.toMatchObject({ id: 'login_blocked' });
      expect(await attempt('192.0.2.2', true)).toBe(true);
    });

    it("forgets every client's block on a name when it is cleared (a new password)", async () => {
      for (const client of ['192.0.2.1', '192.0.2.2'])
        for (let i = 0; i < 3; i++) expect(await attempt(client, false)).toBe(false);
      for (let i = 0; i < 3; i++) expect(await attempt('192.0.2.3', false, accountKey('bob'))).toBe(false);
      await throttle.clear(anna);
      expect(await attempt('192.0.2.1', true)).toBe(true);
      expect(await attempt('192.0.2.2', true)).toBe(true);
      await expect(attempt('192.0.2.3', true, accountKey('bob'))).rejects.toMatchObject({ id: 'login_blocked' });
    });

    it('gives back the attempts of a check refused as busy, and answers it 429 rate_limited', async () => {
      await expect(
        attempt('192.0.2.1', () => Promise.reject(new PasswordChecksBusy('Too many tasks are waiting.'))),
      ).rejects.toMatchObject({ id: 'rate_limited' });
      expect(await db.kysely.selectFrom('login_attempt').selectAll().execute()).toEqual([]);
    });
  },
);
