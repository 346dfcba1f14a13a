import type { Db } from '../db/database.ts';

/** Rows per insert: three parameters each stays far below SQLite's and PostgreSQL's limits. */
const CHUNK = 1000;

/** All SQL of bookmarks. */
export class BookmarkRepository {
  constructor(private readonly db: Db) {}

  /** The user's bookmarked asset ids in saved order (access is checked by the caller). */
  async list(userId: number): Promise<number[]> {
    const rows = await this.db.kysely
      .selectFrom('bookmark')
      .select('asset_id')
      .where('user_id', '=', userId)
      .orderBy('position')
      .execute();
    return rows.map((r) => Number(r.asset_id));
  }

  /** Replaces the user's list in one transaction: a failure leaves the old list. */
  async replace(userId: number, assetIds: readonly number[]): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('bookmark').where('user_id', '=', userId).execute();
      for (let i = 0; i < assetIds.length; i += CHUNK) {
        const rows = assetIds
          .slice(i, i + CHUNK)
          .map((asset_id, j) => ({ user_id: userId, asset_id, position: i + j }));
        await trx.insertInto('bookmark').values(rows).execute();
      }
    });
  }

  /** Of `assetIds`, those the user bookmarked. */
  async bookmarkedOf(userId: number, assetIds: readonly number[]): Promise<Set<number>> {
    if (assetIds.length === 0) return new Set();
    const rows = await this.db.kysely
      .selectFrom('bookmark')
      .select('asset_id')
      .where('user_id', '=', userId)
      .where('asset_id', 'in', [...assetIds])
      .execute();
    return new Set(rows.map((r) => Number(r.asset_id)));
  }
}
