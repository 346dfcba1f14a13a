import { sql, type Kysely } from 'kysely';

/**
 * Failed logins and share-link passwords block the pair (account or link, client address), not the
 * account or link for everyone: a pair's row names what it belongs to in `subject`, so a new
 * password forgets every client's block on the account at once. Rows kept under an account's or a
 * link's own key only slow its answers from now on, so blocks they hold end here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('login_attempt').addColumn('subject', 'varchar(1100)').execute();
  await db.schema.createIndex('login_attempt_subject_idx').on('login_attempt').column('subject').execute();
  await sql`update login_attempt set blocked_until = null where name like 'account:%' or name like 'share:%'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('login_attempt_subject_idx').execute();
  await db.schema.alterTable('login_attempt').dropColumn('subject').execute();
}
