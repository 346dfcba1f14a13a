import type { Db } from '../db/database.ts';

/**
 * Failed logins per name, in the database so every server process counts the same attempts. Names
 * are counted whether or not the account exists, so blocking reveals nothing.
 */
export class LoginThrottleRepository {
  constructor(private readonly db: Db) {}

  /** When the name is blocked, the moment the block ends; otherwise undefined. */
  async blockedUntil(name: string, now: number): Promise<number | undefined> {
    const row = await this.db.kysely
      .selectFrom('login_attempt')
      .select('blocked_until')
      .where('name', '=', name.toLowerCase())
      .executeTakeFirst();
    return row?.blocked_until && row.blocked_until > now ? row.blocked_until : undefined;
  }

  /**
   * Counts one failure; the failure that reaches `maxFailures` blocks the name until `blockUntil`
   * and starts the count afresh. Runs as one transaction so concurrent attempts are all counted.
   */
  async recordFailure(name: string, now: number, maxFailures: number, blockUntil: number): Promise<void> {
    const key = name.toLowerCase();
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('login_attempt')
        .values({ name: key, failures: 0, blocked_until: null, updated_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await trx
        .updateTable('login_attempt')
        .set((eb) => ({ failures: eb('failures', '+', 1), updated_at: now }))
        .where('name', '=', key)
        .returning('failures')
        .executeTakeFirstOrThrow();
      if (row.failures >= maxFailures) {
        await trx
          .updateTable('login_attempt')
          .set({ failures: 0, blocked_until: blockUntil })
          .where('name', '=', key)
          .execute();
      }
    });
  }

  async clear(name: string): Promise<void> {
    await this.db.kysely.deleteFrom('login_attempt').where('name', '=', name.toLowerCase()).execute();
  }
}
