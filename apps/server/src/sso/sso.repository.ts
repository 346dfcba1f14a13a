import type { Db } from '../db/database.ts';

/** One-time single sign-on codes, in the database so that any server process can redeem them. */
export class SsoRepository {
  constructor(private readonly db: Db) {}

  async createCode(idHash: string, userId: number, binding: string, expiresAt: number): Promise<void> {
    await this.db.kysely
      .insertInto('sso_code')
      .values({ id: idHash, user_id: userId, binding, expires_at: expiresAt })
      .execute();
  }

  /**
   * Removes the code and gives what it was for; a second redeemer (or a concurrent one) finds
   * nothing, so a code opens at most one session.
   */
  async takeCode(idHash: string): Promise<{ userId: number; binding: string; expiresAt: number } | undefined> {
    const row = await this.db.kysely
      .deleteFrom('sso_code')
      .where('id', '=', idHash)
      .returning(['user_id', 'binding', 'expires_at'])
      .executeTakeFirst();
    return row ? { userId: Number(row.user_id), binding: row.binding, expiresAt: Number(row.expires_at) } : undefined;
  }
}
