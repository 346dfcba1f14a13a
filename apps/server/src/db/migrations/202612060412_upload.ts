import type { Kysely } from 'kysely';

/**
 * Uploads through the tus protocol (docs/security.md "Uploads"): one row per upload an editor
 * starts, so every process knows whose an upload is (another editor's PATCH or HEAD is not found)
 * and what each editor brought in a day (`editing.maxDailyMb`, counted from `bytes` of the rows
 * begun since midnight that are under way or done). `state`: open, done, failed, cancelled;
 * `asset_id` is the asset a finished upload became.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upload')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('account', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('asset_id', 'bigint')
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('upload_account_idx').on('upload').columns(['account', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upload').execute();
}
