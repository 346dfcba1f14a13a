import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Active assets in id order, as the search index and the full-text index read them in batches
 * ("active ids after N"), on PostgreSQL: with statistics from before a bulk load it answered each
 * batch through the (status, imp_date) index and sorted every active asset again, so reading a
 * catalogue cost its size squared. SQLite walks the rowid for it and needs no index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema.createIndex('asset_status_id_idx').on('asset').columns(['status', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema.dropIndex('asset_status_id_idx').execute();
}
