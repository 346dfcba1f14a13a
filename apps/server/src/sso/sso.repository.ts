import type { Db } from '../db/database.ts';

/**
 * Single sign-on state every server process shares: one-time codes, sent SAML request ids and
 * consumed SAML assertion ids.
 */
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

  async saveSamlRequest(id: string, provider: string, binding: string, expiresAt: number): Promise<void> {
    await this.db.kysely.insertInto('saml_request').values({ id, provider, binding, expires_at: expiresAt }).execute();
  }

  /** Removes a sent, unexpired request of the provider and gives its binding; undefined when there is none. */
  async takeSamlRequest(id: string, provider: string, now: number): Promise<string | undefined> {
    const row = await this.db.kysely
      .deleteFrom('saml_request')
      .where('id', '=', id)
      .where('provider', '=', provider)
      .where('expires_at', '>', now)
      .returning('binding')
      .executeTakeFirst();
    return row?.binding;
  }

  /** Records a consumed assertion; false when it was consumed before (a replay). */
  async consumeSamlAssertion(id: string, expiresAt: number): Promise<boolean> {
    const result = await this.db.kysely
      .insertInto('saml_assertion')
      .values({ id, expires_at: expiresAt })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Removes expired codes, requests and remembered assertions; answers how many. */
  async purgeExpired(now: number): Promise<number> {
    let removed = 0;
    for (const table of ['sso_code', 'saml_request', 'saml_assertion'] as const) {
      const result = await this.db.kysely.deleteFrom(table).where('expires_at', '<=', now).executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    return removed;
  }
}
