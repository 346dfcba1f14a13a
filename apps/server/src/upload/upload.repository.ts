import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Database, UploadTable } from '../db/schema.ts';

export type UploadRow = UploadTable;

/** States whose bytes count against an editor's daily limit: under way, or arrived. */
const COUNTED = ['open', 'done'] as const;

/** The first key of the advisory locks that serialise one account's new uploads (PostgreSQL). */
const UPLOAD_LOCK_CLASS = 0x75706c64; // 'upld'

/** Rows of uploads (tus, upload/files): whose each is, its size and what became of it. */
export class UploadRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** Bytes of `account`'s uploads begun since `since` (ms) that are under way or done. */
  async usedSince(account: number, since: number, db: Kysely<Database> = this.db): Promise<number> {
    const row = await db
      .selectFrom('upload')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('used'))
      .where('account', '=', account)
      .where('created_at', '>=', since)
      .where('state', 'in', COUNTED)
      .executeTakeFirstOrThrow();
    return Number(row.used);
  }

  /**
   * Records a new upload when it fits into the daily limit: answers undefined when it was recorded,
   * else the bytes already used since `since`. The sum and the insert are one step for the account:
   * SQLite's single writer serialises the transactions; on PostgreSQL, where two transactions would
   * both sum the rows before either inserts (read committed), an advisory lock of the account,
   * held until the commit, makes the next creation wait for this one's row.
   */
  async open(
    row: Pick<UploadRow, 'id' | 'account' | 'bytes' | 'filename' | 'created_at'>,
    limit: { since: number; maxBytes: number },
  ): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') {
        // Two int4 keys: the account (ids beyond int4 share a lock, which only makes them wait).
        await sql`select pg_advisory_xact_lock(${UPLOAD_LOCK_CLASS}, ${row.account % 2_147_483_647}::int)`.execute(trx);
      }
      const used = await this.usedSince(row.account, limit.since, trx);
      if (used + row.bytes > limit.maxBytes) return used;
      await trx
        .insertInto('upload')
        .values({ ...row, state: 'open', asset_id: null })
        .execute();
      return undefined;
    });
  }

  async find(id: string): Promise<UploadRow | undefined> {
    const row = await this.db.selectFrom('upload').selectAll().where('id', '=', id).executeTakeFirst();
    return (
      row && { ...row, account: Number(row.account), bytes: Number(row.bytes), created_at: Number(row.created_at) }
    );
  }

  /** An open upload became an asset. */
  async done(id: string, assetId: number): Promise<void> {
    await this.db.updateTable('upload').set({ state: 'done', asset_id: assetId }).where('id', '=', id).execute();
  }

  /** An open upload ended without an asset: its bytes no longer count. */
  async end(id: string, state: 'failed' | 'cancelled'): Promise<void> {
    await this.db.updateTable('upload').set({ state }).where('id', '=', id).where('state', '=', 'open').execute();
  }

  /** Ids of uploads begun before `before` (ms) that are still open, oldest first. */
  async openBefore(before: number, limit = 500): Promise<string[]> {
    const rows = await this.db
      .selectFrom('upload')
      .select('id')
      .where('state', '=', 'open')
      .where('created_at', '<', before)
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * An open upload left unfinished too long: its bytes no longer count. Answers whether this call
   * ended it (another process's purge, or its last byte, may have come first).
   */
  async expire(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('upload')
      .set({ state: 'expired' })
      .where('id', '=', id)
      .where('state', '=', 'open')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A DAM collection by id. */
  async collection(id: number): Promise<{ id: number; name: string; path: string } | undefined> {
    const row = await this.db
      .selectFrom('collection')
      .select(['id', 'name', 'path'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { id: Number(row.id), name: row.name, path: row.path };
  }
}
