import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Share links (docs/security.md "Share links"): a user grants people without an account a view of
 * chosen assets. Only the SHA-256 of a link's token is stored. A visitor who opened a link holds a
 * session that names the link (`session.share_id`), so revoking or expiring the link ends it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('share_link')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('user_account.id').onDelete('cascade'))
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('download_sets', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('share_link_user_idx').on('share_link').column('user_id').execute();
  await db.schema
    .createTable('share_link_asset')
    .addColumn('share_id', 'bigint', (c) => c.notNull().references('share_link.id').onDelete('cascade'))
    .addColumn('asset_id', 'bigint', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('share_link_asset_pk', ['share_id', 'asset_id'])
    .execute();
  await db.schema.alterTable('session').addColumn('share_id', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('session').dropColumn('share_id').execute();
  await db.schema.dropTable('share_link_asset').execute();
  await db.schema.dropTable('share_link').execute();
}
