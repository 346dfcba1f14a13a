import type { Kysely } from 'kysely';
import { nameKey } from '../name-key.ts';

interface Tables {
  user_account: { id: number; name: string; name_key: string | null };
}

/**
 * Security: account names found by one normalised key (NFC + case folding) on both databases;
 * login attempts counted under keys of the new form, so the old per-name rows are dropped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_account').addColumn('name_key', 'varchar(1024)').execute();
  const k = db as unknown as Kysely<Tables>;
  const users = await k.selectFrom('user_account').select(['id', 'name']).orderBy('id').execute();
  const taken = new Set<string>();
  for (const user of users) {
    const key = nameKey(user.name);
    // Names that only differ in case or composition cannot both be found by name; the older
    // account keeps the name, the younger one is kept under a key nobody types.
    const unique = taken.has(key) ? `${key}\u0000${user.id}` : key;
    taken.add(unique);
    await k.updateTable('user_account').set({ name_key: unique }).where('id', '=', user.id).execute();
  }
  await db.schema.createIndex('user_account_name_key_idx').on('user_account').column('name_key').unique().execute();
  // Keys of the new form (`account:<name key>`, `client:<address>`) are longer than names were.
  await db.schema.dropTable('login_attempt').execute();
  await db.schema
    .createTable('login_attempt')
    .addColumn('name', 'varchar(1100)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('blocked_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('user_account_name_key_idx').execute();
  await db.schema.alterTable('user_account').dropColumn('name_key').execute();
}
