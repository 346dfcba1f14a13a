import { sql, type Kysely } from 'kysely';

/**
 * When a cached conversion was last served (touched at most hourly), so the cache can be trimmed to
 * its size limit by removing the least recently used files first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('conversion')
    .addColumn('last_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update conversion set last_used = created_at`.execute(db);
  await db.schema.createIndex('conversion_last_used_idx').on('conversion').column('last_used').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('conversion_last_used_idx').execute();
  await db.schema.alterTable('conversion').dropColumn('last_used').execute();
}
