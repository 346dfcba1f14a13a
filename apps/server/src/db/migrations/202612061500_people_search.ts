import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * The People list's search (text anywhere in the name, display name or mail address) on PostgreSQL:
 * without an index each search read every account (80–160 ms at 100,000 accounts, most of the
 * 300 ms goal under load); trigram indexes (pg_trgm, in Debian's postgresql-contrib, trusted since
 * PostgreSQL 13 so a database owner may create it) find the matches instead. Where the extension
 * is missing or may not be created the search still works, by reading every account, and the
 * portal starts as before. SQLite reads every account (tens of ms) and has no such index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  // Never logged in counts as longest ago: PostgreSQL sorts nulls first in ascending order, so the
  // ascending index of 202612061310_people served neither order of the list (a sort of every
  // account, 130 ms at 100,000); this one does, read forwards or backwards. SQLite's nulls come first
  // as the list wants.
  await sql`create index user_account_last_login_nulls_idx on user_account
    (last_login_at desc nulls last, id desc)`.execute(db);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions
    where name = 'pg_trgm'`.execute(db);
  if (!rows[0]?.n) return;
  // A refused CREATE EXTENSION must not end the migration's transaction.
  await sql`savepoint people_trigrams`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint people_trigrams`.execute(db);
    return;
  }
  await sql`release savepoint people_trigrams`.execute(db);
  // The expressions are the search's own (people.repository.ts `list`), or the planner cannot use them.
  await sql`create index user_account_name_trgm_idx on user_account using gin (name_key gin_trgm_ops)`.execute(db);
  await sql`create index user_account_email_trgm_idx on user_account using gin (lower(email) gin_trgm_ops)`.execute(db);
  await sql`create index user_account_display_trgm_idx on user_account
    using gin (lower(display_name) gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index if exists user_account_last_login_nulls_idx`.execute(db);
  await sql`drop index if exists user_account_display_trgm_idx`.execute(db);
  await sql`drop index if exists user_account_email_trgm_idx`.execute(db);
  await sql`drop index if exists user_account_name_trgm_idx`.execute(db);
}
