import type { Kysely } from 'kysely';

/**
 * Active assets in id order, as the search index and the full-text index read them in batches
 * ("active ids after N"): without it PostgreSQL may answer each batch through the (status,
 * imp_date) index and sort every active asset again, so reading a catalogue costs its size squared.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('asset_status_id_idx').on('asset').columns(['status', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('asset_status_id_idx').execute();
}
