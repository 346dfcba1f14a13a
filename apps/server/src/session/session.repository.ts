import type { Db } from '../db/database.ts';

export interface SessionUser {
  sessionId: string;
  userId: number | null;
  name: string | null;
  disabled: boolean;
  expiresAt: number;
  locale: string | null;
  groups: string[];
  /** The share link a visitor opened, for a session that holds one. */
  shareId: number | null;
}

export class SessionRepository {
  /**
   * `maxAgeMs` (settings `session.maxDays`): a session this old is ended however recently it was
   * used, so a stolen token that is kept busy does not live forever. Without it, only idleness ends one.
   */
  constructor(
    private readonly db: Db,
    private readonly lifetime: { maxAgeMs: number } = { maxAgeMs: Infinity },
  ) {}

  /** Sessions created before this are past their absolute lifetime. */
  private bornAfter(now: number): number {
    return now - this.lifetime.maxAgeMs;
  }

  async createSession(
    idHash: string,
    userId: number | null,
    expiresAt: number,
    locale: string | null = null,
    shareId: number | null = null,
  ): Promise<void> {
    const now = Date.now();
    await this.db.kysely
      .insertInto('session')
      .values({
        id: idHash,
        user_id: userId,
        created_at: now,
        last_seen: now,
        expires_at: expiresAt,
        locale,
        ...(shareId === null ? {} : { share_id: shareId }),
      })
      .execute();
  }

  /**
   * The session with its user and groups, or undefined when there is no such session or it is past
   * its absolute lifetime.
   */
  async findSession(idHash: string): Promise<SessionUser | undefined> {
    const row = await this.db.kysely
      .selectFrom('session')
      .leftJoin('user_account', 'user_account.id', 'session.user_id')
      .select([
        'session.id',
        'session.user_id',
        'session.expires_at',
        'session.locale',
        'session.share_id',
        'session.created_at',
        'user_account.name',
        'user_account.disabled',
      ])
      .where('session.id', '=', idHash)
      .executeTakeFirst();
    if (!row || Number(row.created_at) <= this.bornAfter(Date.now())) return undefined;
    const groups = row.user_id
      ? (
          await this.db.kysely
            .selectFrom('user_group')
            .select('group_name')
            .where('user_id', '=', row.user_id)
            .orderBy('group_name')
            .execute()
        ).map((g) => g.group_name)
      : [];
    return {
      sessionId: row.id,
      userId: row.user_id,
      name: row.name ?? null,
      disabled: Boolean(row.disabled),
      expiresAt: row.expires_at,
      locale: row.locale,
      groups,
      shareId: row.share_id == null ? null : Number(row.share_id),
    };
  }

  async touchSession(idHash: string, expiresAt: number): Promise<void> {
    await this.db.kysely
      .updateTable('session')
      .set({ last_seen: Date.now(), expires_at: expiresAt })
      .where('id', '=', idHash)
      .execute();
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.kysely.deleteFrom('session').where('id', '=', idHash).execute();
  }

  async setLocale(idHash: string, locale: string): Promise<void> {
    await this.db.kysely.updateTable('session').set({ locale }).where('id', '=', idHash).execute();
  }

  /** Removes sessions that expired or outlived their absolute lifetime; answers how many. */
  async purgeExpired(now: number): Promise<number> {
    const bornAfter = this.bornAfter(now);
    const result = await this.db.kysely
      .deleteFrom('session')
      .where((eb) =>
        Number.isFinite(bornAfter)
          ? eb.or([eb('expires_at', '<=', now), eb('created_at', '<=', bornAfter)])
          : eb('expires_at', '<=', now),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
