import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * PostgreSQL refuses a btree entry larger than about 2.7 KB, so an index on whole metadata values
 * made the import of a long value (a description, a transcript) fail. The index holds the first 256
 * characters of the value instead (at most 1 KB in UTF-8). SQLite stores long keys in overflow
 * pages and keeps its index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema.dropIndex('asset_value_field_idx').execute();
  await sql`create index asset_value_field_idx on asset_value (field, left(value, 256))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema.dropIndex('asset_value_field_idx').execute();
  await db.schema.createIndex('asset_value_field_idx').on('asset_value').columns(['field', 'value']).execute();
}
