import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Downloads: the per-user lock that allows one conversion download at a time across all server
 * processes, the cache of conversions by (content hash, conversion set), checksums of original files
 * (a zip's layout is known before its first byte), and the download log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('download_lock')
    .addColumn('owner', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('conversion')
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('cset_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('path', 'text')
    .addColumn('mime', 'varchar(127)')
    .addColumn('bytes', 'bigint')
    .addColumn('crc32', 'bigint')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('claimed_until', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('conversion_pk', ['sha256', 'cset_key'])
    .execute();

  await db.schema
    .createTable('file_checksum')
    .addColumn('sha256', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('crc32', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('download_log')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'bigint')
    .addColumn('user_name', 'varchar(256)')
    .addColumn('asset_id', 'bigint', (c) => c.notNull())
    .addColumn('cset_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('download_log_asset_idx').on('download_log').column('asset_id').execute();
  await db.schema.createIndex('download_log_created_idx').on('download_log').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['download_log', 'file_checksum', 'conversion', 'download_lock']) {
    await db.schema.dropTable(t).execute();
  }
}
