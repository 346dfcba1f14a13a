import type { Kysely } from 'kysely';

/**
 * A delivered download is logged once per signed URL and caller (`download_once`, keyed by a hash
 * of both, kept until the URL expires): fetching one URL again, whole or in ranges, adds no download,
 * so the "Downloads" sort cannot be pushed by replaying a URL. The key is the unique constraint every
 * process's batch of deliveries inserts against, so several processes never count one twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('download_once')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('download_once_expires_idx').on('download_once').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('download_once').execute();
}
