import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/** Accounts, their groups and sessions. Session ids are stored as SHA-256 of the token. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('user_account')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('name', 'varchar(256)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(320)')
    .addColumn('display_name', 'varchar(256)')
    .addColumn('password_hash', 'text')
    .addColumn('auth_source', 'varchar(32)', (c) => c.notNull().defaultTo('native'))
    .addColumn('external_id', 'varchar(512)')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locale', 'varchar(8)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_group')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('user_account.id').onDelete('cascade'))
    .addColumn('group_name', 'varchar(100)', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_group_pk', ['user_id', 'group_name'])
    .execute();

  await db.schema
    .createTable('session')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.references('user_account.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('locale', 'varchar(8)')
    .execute();
  await db.schema.createIndex('session_user_idx').on('session').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['session', 'user_group', 'user_account']) await db.schema.dropTable(t).execute();
}
