import type { Kysely } from 'kysely';

/**
 * The asset lists of zips (`POST download/zip`): a zip's signed URL names its list by a reference
 * (`ref`, the base64url SHA-256 of the ids in their order), so the URL stays short however many
 * assets it holds, and any process reads the list back. A row is kept until the last URL handed out
 * for it expires (`expires_at`, ms); the purge job removes it then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('zip_list')
    .addColumn('ref', 'varchar(43)', (c) => c.primaryKey())
    .addColumn('ids', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('zip_list_expires_idx').on('zip_list').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('zip_list').execute();
}
