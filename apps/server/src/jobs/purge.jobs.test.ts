import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { dialects } from '../../test/databases.ts';
import { buildAssets } from '../../test/factories.ts';
import { createSearchEngine } from '../search/create-engine.ts';
import { SearchRepository } from '../search/search.repository.ts';
import { PURGE_JOB } from './purge.jobs.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe.each(dialects)(
  'scheduled purge of expired rows on %s (docs/security.md "What is rate-limited")',
  (dialect) => {
    let t: TestApp;
    beforeEach(async () => {
      t = await startTestApp({ dialect });
    });
    afterEach(async () => t.close());

    /** One expired and one live row in every table the purge looks after. */
    async function seed(tag: string): Promise<void> {
      const k = t.app.db.kysely;
      const now = Date.now();
      const userId = await t.app.services.repositories.users.createUser({ name: `user-${tag}`, groups: [] });
      for (const [id, expires] of [
        [`old-${tag}`, now - 1],
        [`live-${tag}`, now + HOUR],
      ] as const) {
        await k
          .insertInto('session')
          .values({ id, user_id: userId, created_at: now, last_seen: now, expires_at: expires, locale: null })
          .execute();
        await k
          .insertInto('password_reset')
          .values({ id, user_id: userId, created_at: now, expires_at: expires })
          .execute();
        await k.insertInto('sso_code').values({ id, user_id: userId, binding: 'b', expires_at: expires }).execute();
        await k
          .insertInto('saml_request')
          .values({ id, provider: 'corp', binding: 'b', expires_at: expires })
          .execute();
        await k.insertInto('saml_assertion').values({ id, expires_at: expires }).execute();
        await k
          .insertInto('derivative_claim')
          .values({
            asset_id: 1,
            kind: `page-${tag}`,
            page: expires === now - 1 ? 11 : 12,
            holder: id,
            expires_at: expires,
          })
          .execute();
        await k.insertInto('download_lock').values({ owner: id, expires_at: expires }).execute();
        await k.insertInto('zip_list').values({ ref: id, ids: '1,2', expires_at: expires }).execute();
      }
      const download = (name: string, age: number, counted: boolean) => ({
        user_id: null,
        user_name: name,
        share_id: null,
        cset_id: 0,
        kind: 'single' as const,
        asset_ids: '1',
        asset_count: 1,
        created_at: now - age,
        counted_at: counted ? now - age + HOUR : null,
      });
      await k
        .insertInto('download')
        .values([
          download(`old-counted-${tag}`, 401 * DAY, true),
          download(`old-uncounted-${tag}`, 401 * DAY, false),
          download(`live-counted-${tag}`, 399 * DAY, true),
        ])
        .execute();
      await k
        .insertInto('login_attempt')
        .values([
          { name: `account:old-${tag}`, failures: 5, blocked_until: now - 1, updated_at: now - 2 * HOUR },
          { name: `account:live-${tag}`, failures: 5, blocked_until: now + HOUR, updated_at: now - 2 * HOUR },
        ])
        .execute();
      const job = (key: string, status: 'done' | 'failed' | 'queued', age: number) => ({
        name: 'thumbnail',
        key,
        payload: '{}',
        status,
        run_after: now + DAY,
        created_at: now - age,
        updated_at: now - age,
      });
      await k
        .insertInto('job')
        .values([
          job(`old-done-${tag}`, 'done', 2 * DAY),
          job(`live-done-${tag}`, 'done', HOUR),
          job(`old-failed-${tag}`, 'failed', 31 * DAY),
          job(`live-failed-${tag}`, 'failed', 2 * DAY),
          job(`queued-${tag}`, 'queued', 40 * DAY),
        ])
        .execute();
    }

    /** What is left of the rows `seed(tag)` made, per table. */
    async function left(tag: string): Promise<Record<string, string[]>> {
      const k = t.app.db.kysely;
      const ids = async (table: 'session' | 'password_reset' | 'sso_code' | 'saml_request' | 'saml_assertion') =>
        (await k.selectFrom(table).select('id').where('id', 'like', `%-${tag}`).orderBy('id').execute()).map(
          (r) => r.id,
        );
      return {
        session: await ids('session'),
        password_reset: await ids('password_reset'),
        sso_code: await ids('sso_code'),
        saml_request: await ids('saml_request'),
        saml_assertion: await ids('saml_assertion'),
        login_attempt: (
          await k.selectFrom('login_attempt').select('name').where('name', 'like', `%-${tag}`).orderBy('name').execute()
        ).map((r) => r.name),
        job: (await k.selectFrom('job').select('key').where('key', 'like', `%-${tag}`).orderBy('key').execute()).map(
          (r) => r.key,
        ),
        derivative_claim: (
          await k.selectFrom('derivative_claim').select('holder').where('holder', 'like', `%-${tag}`).execute()
        ).map((r) => r.holder),
        download_lock: (
          await k.selectFrom('download_lock').select('owner').where('owner', 'like', `%-${tag}`).execute()
        ).map((r) => r.owner),
        zip_list: (await k.selectFrom('zip_list').select('ref').where('ref', 'like', `%-${tag}`).execute()).map(
          (r) => r.ref,
        ),
        download: (
          await k
            .selectFrom('download')
            .select('user_name')
            .where('user_name', 'like', `%-${tag}`)
            .orderBy('user_name')
            .execute()
        ).map((r) => r.user_name ?? ''),
      };
    }

    const kept = (tag: string) => ({
      session: [`live-${tag}`],
      password_reset: [`live-${tag}`],
      sso_code: [`live-${tag}`],
      saml_request: [`live-${tag}`],
      saml_assertion: [`live-${tag}`],
      login_attempt: [`account:live-${tag}`],
      job: [`live-done-${tag}`, `live-failed-${tag}`, `queued-${tag}`],
      derivative_claim: [`live-${tag}`],
      download_lock: [`live-${tag}`],
      zip_list: [`live-${tag}`],
      // A download not yet counted is kept whatever its age.
      download: [`live-counted-${tag}`, `old-uncounted-${tag}`],
    });

    it('the job worker purges expired sessions, login attempts, reset links, sign-on ids, finished jobs, claims, locks, zip lists and old counted downloads, and again on schedule', async () => {
      await seed('a');
      const worker = t.app.services.jobWorker({ pollMs: 20 });
      const scheduled = t.app.services.jobWorker({
        pollMs: 20,
        concurrency: 1,
        recurring: [{ job: { name: PURGE_JOB, key: PURGE_JOB, payload: {} }, everyMs: 150 }],
      });
      // A worker without the schedule leaves everything in place.
      worker.start();
      await worker.drain();
      await worker.stop();
      expect(await left('a')).toMatchObject({ session: [`live-a`, `old-a`] });

      scheduled.start();
      await vi.waitFor(async () => expect(await left('a')).toEqual(kept('a')), { timeout: 10_000, interval: 50 });
      // Rows that expire later are removed by a later run of the schedule.
      await seed('b');
      await vi.waitFor(async () => expect(await left('b')).toEqual(kept('b')), { timeout: 10_000, interval: 50 });
      await scheduled.drain();
      await scheduled.stop();
      expect(await left('a')).toEqual(kept('a'));
    });

    it('the purge prunes the catalogue changes the search index and every live process hold, and keeps later ones', async () => {
      const db = t.app.db;
      const search = t.app.services.search;
      await buildAssets(db, [{ values: { title: { en: 'Pruned lighthouse' } } }]);
      await search.refresh();
      const held = await new SearchRepository(db).generation();
      const [later] = await buildAssets(db, [{ values: { title: { en: 'Later lighthouse' } } }]);
      const seqs = async () =>
        (await db.kysely.selectFrom('catalogue_change').select('seq').orderBy('seq').execute()).map((r) =>
          Number(r.seq),
        );
      expect(await seqs()).toEqual(expect.arrayContaining([held, held + 1]));
      const worker = t.app.services.jobWorker({
        pollMs: 20,
        concurrency: 1,
        recurring: [{ job: { name: PURGE_JOB, key: PURGE_JOB, payload: {} }, everyMs: 150 }],
      });
      worker.start();
      await vi.waitFor(async () => expect(await seqs()).toEqual([held + 1]), { timeout: 10_000, interval: 50 });
      await worker.stop();
      expect((await new SearchRepository(db).catalogueState()).prunedThrough).toBe(held);
      // The change after the pruned ones still reaches a process's index by the log.
      await search.refresh();
      const engine = createSearchEngine(db, []);
      expect((await engine.search(['public'], { q: 'later', rows: 5 })).ids).toEqual([later]);
    });
  },
);
