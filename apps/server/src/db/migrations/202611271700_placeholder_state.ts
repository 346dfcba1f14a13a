import { sql, type Kysely } from 'kysely';

/**
 * A count of thumbnail placeholders written (placeholder_state.mark, one row): every write of a
 * thumbnail with a placeholder raises it in the same transaction. A server process reads it with
 * the catalogue's state, which each search reads anyway, and asks again for the placeholders of
 * assets it found without one only once it moved (search/asset-rows.ts). Its own table, not a
 * column of catalogue_state, so thumbnail jobs do not wait for the row lock an import holds there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('placeholder_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('mark', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into placeholder_state (id, mark) values (1, 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('placeholder_state').execute();
}
