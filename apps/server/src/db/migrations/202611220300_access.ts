import type { Kysely } from 'kysely';

/**
 * Login throttling and password-reset links. Both live in the database so that every server process
 * sees the same counts and links (ARCHITECTURE §1).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_attempt')
    .addColumn('name', 'varchar(256)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('blocked_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('password_reset')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('user_account.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('password_reset_user_idx').on('password_reset').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['password_reset', 'login_attempt']) await db.schema.dropTable(t).execute();
}
