import type { Kysely } from 'kysely';

/**
 * Indexes a bulk write dropped to build them once after its rows (db/deferred-indexes.ts), each
 * with the statement that makes it again. A process that ends before it made them leaves their rows
 * here, and the next open of the database makes them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deferred_index')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('definition', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('deferred_index').execute();
}
