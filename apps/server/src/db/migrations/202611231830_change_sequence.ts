import { sql, type Kysely } from 'kysely';

/**
 * The catalogue change log: each write transaction takes the next catalogue generation first (a row
 * lock held until it commits, so sequence order is commit order) and records the ids it touched
 * under it. Search indexes catch up by sequence, not by a clock: no change is missed whatever a
 * process's clock says or when a transaction commits. The full-text index's watermark becomes a
 * sequence number; a full load remembers where it started (text_load_seq) and how far it got
 * (text_load_after), so processes share it chunk by chunk. The index then starts from a full load.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalogue_change')
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('first_id', 'bigint', (c) => c.notNull())
    .addColumn('last_id', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalogue_change_pk', ['seq', 'first_id'])
    .execute();
  await db.schema.alterTable('search_state').dropColumn('text_generation').execute();
  await db.schema
    .alterTable('search_state')
    .addColumn('text_load_seq', 'bigint', (c) => c.notNull().defaultTo(-1))
    .execute();
  await db.schema
    .alterTable('search_state')
    .addColumn('text_load_after', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update search_state set text_watermark = -1 where id = 1`.execute(db);
  // Changes are no longer found by time.
  await db.schema.dropIndex('asset_updated_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('asset_updated_idx').on('asset').column('updated_at').execute();
  await db.schema.alterTable('search_state').dropColumn('text_load_after').execute();
  await db.schema.alterTable('search_state').dropColumn('text_load_seq').execute();
  await db.schema
    .alterTable('search_state')
    .addColumn('text_generation', 'bigint', (c) => c.notNull().defaultTo(-1))
    .execute();
  await sql`update search_state set text_watermark = -1 where id = 1`.execute(db);
  await db.schema.dropTable('catalogue_change').execute();
}
