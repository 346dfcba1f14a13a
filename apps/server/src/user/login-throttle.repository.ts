import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { nameKey } from '../db/name-key.ts';
import { clientGroup } from '../http/client-address.ts';

/** The throttling key of an account name, whether or not such an account exists. */
export const accountKey = (name: string): string => `account:${nameKey(name)}`;
/** The throttling key of a client address: IPv6 clients count by their /64 (http/client-address.ts). */
export const clientKey = (address: string): string => `client:${clientGroup(address)}`;
/**
 * The throttling key of one client's attempts on an account or a link (`subject`). A client's key
 * holds no space, so the first space ends it and no two pairs share a key.
 */
export const pairKey = (client: string, subject: string): string => `${clientKey(client)} ${subject}`;

/**
 * Login attempts per key (a client address; an account name or a link, from one client address or
 * from all: session/throttled-check.ts), in the database so every server process counts the same
 * attempts. An attempt is reserved before the password is checked, with one conditional UPDATE, so
 * concurrent attempts can never check more passwords than the limit.
 */
export class LoginThrottleRepository {
  constructor(private readonly db: Db) {}

  /**
   * Reserves one attempt for the key. Returns undefined when reserved; otherwise the moment the key
   * is free again (a block, or all attempts reserved by checks still running). Attempts older than
   * `windowMs` and blocks that ended are forgotten first. `subject`: the account's or link's key a
   * pair's key belongs to (`pairKey`), so that `clear` of that key forgets the pair too.
   */
  async reserve(
    key: string,
    now: number,
    max: number,
    windowMs: number,
    subject: string | null = null,
  ): Promise<number | undefined> {
    const db = this.db.kysely;
    await db
      .insertInto('login_attempt')
      .values({ name: key, failures: 0, blocked_until: null, updated_at: now, subject })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    await db
      .updateTable('login_attempt')
      .set({ failures: 0, blocked_until: null, updated_at: now })
      .where('name', '=', key)
      .where((eb) =>
        eb.or([
          eb('blocked_until', '<=', now),
          eb.and([eb('blocked_until', 'is', null), eb('updated_at', '<=', now - windowMs)]),
        ]),
      )
      .execute();
    const reserved = await db
      .updateTable('login_attempt')
      .set((eb) => ({ failures: eb('failures', '+', 1), updated_at: now }))
      .where('name', '=', key)
      .where('blocked_until', 'is', null)
      .where('failures', '<', max)
      .returning('failures')
      .executeTakeFirst();
    if (reserved) return undefined;
    const row = await db.selectFrom('login_attempt').select('blocked_until').where('name', '=', key).executeTakeFirst();
    return row?.blocked_until ?? now + windowMs;
  }

  /**
   * Counts one request on the key within a fixed window of `windowMs` that starts with the first
   * request after the last window ended, in one statement so concurrent requests of all processes
   * count alike. Returns undefined while the count is at most `max`; otherwise the end of the
   * window. The window's start is kept in `updated_at`, so the purge forgets a key an hour after
   * its window began (windows are at most that long).
   */
  async hit(key: string, now: number, max: number, windowMs: number): Promise<number | undefined> {
    const { count, since } = await this.add(key, now, 1, windowMs);
    return count > max ? since + windowMs : undefined;
  }

  /**
   * Spends one request of a budget that comes back evenly, one every `intervalMs`, and holds at most
   * `burst` (a token bucket, kept as its "theoretical arrival time" in `updated_at`: the moment the
   * bucket would be full again plus one interval per request). One statement, so concurrent
   * requests of all processes spend alike. Returns undefined when spent; otherwise the moment the
   * next request is allowed. `failures` says whether the last request was refused.
   */
  async spend(key: string, now: number, intervalMs: number, burst: number): Promise<number | undefined> {
    // The latest arrival time that still leaves room for one more request.
    const room = now + (burst - 1) * intervalMs;
    const row = await this.db.kysely
      .insertInto('login_attempt')
      .values({ name: key, failures: 0, blocked_until: null, updated_at: now + intervalMs })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({
          failures: sql<number>`CASE WHEN login_attempt.updated_at <= ${room} THEN 0 ELSE 1 END`,
          updated_at: sql<number>`CASE WHEN login_attempt.updated_at > ${room} THEN login_attempt.updated_at
            WHEN login_attempt.updated_at > ${now} THEN login_attempt.updated_at + ${intervalMs}
            ELSE ${now + intervalMs} END`,
        }),
      )
      .returning(['failures', 'updated_at'])
      .executeTakeFirstOrThrow();
    return Number(row.failures) > 0 ? Number(row.updated_at) - (burst - 1) * intervalMs : undefined;
  }

  /**
   * Adds `by` requests to the key's count within its window (as `hit` counts one), and answers the
   * count with the window's start: for counts kept in memory and folded in now and then.
   */
  async add(key: string, now: number, by: number, windowMs: number): Promise<{ count: number; since: number }> {
    const row = await this.db.kysely
      .insertInto('login_attempt')
      .values({ name: key, failures: by, blocked_until: null, updated_at: now })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet((eb) => {
          const ended = eb('login_attempt.updated_at', '<=', now - windowMs);
          return {
            failures: eb
              .case()
              .when(ended)
              .then(by)
              .else(eb('login_attempt.failures', '+', by))
              .end(),
            updated_at: eb.case().when(ended).then(now).else(eb.ref('login_attempt.updated_at')).end(),
          };
        }),
      )
      .returning(['failures', 'updated_at'])
      .executeTakeFirstOrThrow();
    return { count: Number(row.failures), since: Number(row.updated_at) };
  }

  /**
   * Counts one attempt on a key that never blocks (an account or a link across all clients), and
   * answers the count with it: attempts that failed or are still being checked within `windowMs` of
   * the last one. A check that passes forgets the key; one that never ran releases its attempt.
   */
  async count(key: string, now: number, windowMs: number): Promise<number> {
    const row = await this.db.kysely
      .insertInto('login_attempt')
      .values({ name: key, failures: 1, blocked_until: null, updated_at: now })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('login_attempt.updated_at', '<=', now - windowMs)
            .then(1)
            .else(eb('login_attempt.failures', '+', 1))
            .end(),
          updated_at: now,
        })),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    return Number(row.failures);
  }

  /** A reserved attempt failed: when it was the last one allowed, the key is blocked until `blockUntil`. */
  async failed(key: string, max: number, blockUntil: number): Promise<void> {
    await this.db.kysely
      .updateTable('login_attempt')
      .set({ blocked_until: blockUntil })
      .where('name', '=', key)
      .where('failures', '>=', max)
      .where('blocked_until', 'is', null)
      .execute();
  }

  /** A reserved attempt that was not a failure (a login that worked, or one refused before the check). */
  async release(key: string): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('login_attempt')
        .set((eb) => ({ failures: eb('failures', '-', 1) }))
        .where('name', '=', key)
        .where('failures', '>', 0)
        .execute();
      await trx
        .deleteFrom('login_attempt')
        .where('name', '=', key)
        .where('failures', '<=', 0)
        .where('blocked_until', 'is', null)
        .execute();
    });
  }

  /** Forgets the attempts counted on the key (a login that worked, from the client it came from). */
  async forget(key: string): Promise<void> {
    await this.db.kysely.deleteFrom('login_attempt').where('name', '=', key).execute();
  }

  /** Forgets every attempt for the key and the blocks of every client on it (a new password). */
  async clear(key: string): Promise<void> {
    await this.db.kysely
      .deleteFrom('login_attempt')
      .where((eb) => eb.or([eb('name', '=', key), eb('subject', '=', key)]))
      .execute();
  }

  /** Removes rows whose block ended and whose attempts are older than `windowMs`. */
  async purge(now: number, windowMs: number): Promise<number> {
    const result = await this.db.kysely
      .deleteFrom('login_attempt')
      .where('updated_at', '<=', now - windowMs)
      .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
