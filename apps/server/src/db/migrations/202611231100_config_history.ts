import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/** Every saved version of a config document, with who saved it and when, so admins can roll back. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('config_history')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('lang', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('saved_by', 'varchar(256)', (c) => c.notNull())
    .addColumn('saved_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('restored_from', 'bigint')
    .execute();
  await db.schema.createIndex('config_history_name').on('config_history').columns(['name', 'lang', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('config_history').execute();
}
