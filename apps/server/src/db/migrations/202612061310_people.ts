import { sql, type Kysely } from 'kysely';

/**
 * Accounts in the admin area (issue #50, docs/security.md "People"): when each account last logged
 * in; whether each of its groups was given by hand or comes from its identity provider's `groupMap`
 * (a single sign-on login replaces only the latter); and whether a set-password link is a reset or
 * an invitation (each has its own lifetime). The indexes serve the People list at 100,000 accounts:
 * members of a group, and the orders it offers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_account').addColumn('last_login_at', 'bigint').execute();
  await db.schema
    .alterTable('user_group')
    .addColumn('origin', 'varchar(16)', (c) => c.notNull().defaultTo('hand'))
    .execute();
  // Until now every group of a single sign-on account was set by its provider at login.
  await sql`update user_group set origin = 'provider'
    where user_id in (select id from user_account where auth_source <> 'native')`.execute(db);
  await db.schema
    .alterTable('password_reset')
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull().defaultTo('reset'))
    .execute();
  await db.schema.createIndex('user_group_name_idx').on('user_group').columns(['group_name', 'user_id']).execute();
  await db.schema
    .createIndex('user_account_last_login_idx')
    .on('user_account')
    .columns(['last_login_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('user_account_last_login_idx').execute();
  await db.schema.dropIndex('user_group_name_idx').execute();
  await db.schema.alterTable('password_reset').dropColumn('purpose').execute();
  await db.schema.alterTable('user_group').dropColumn('origin').execute();
  await db.schema.alterTable('user_account').dropColumn('last_login_at').execute();
}
