import type { Kysely } from 'kysely';

/**
 * Single sign-on hands the browser a one-time code instead of a session token. Only the code's
 * hash is kept, with the hash of the cookie of the browser that started the login.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_code')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('user_account.id').onDelete('cascade'))
    .addColumn('binding', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_code').execute();
}
