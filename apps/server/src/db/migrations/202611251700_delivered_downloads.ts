import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Downloads are recorded when a file or zip was delivered, one row each in `download` (who, which
 * share link, which set, the assets), and folded into the assets' download counts later by a job
 * (`counted_at`), instead of counting every asset of a download URL when it was handed out. The
 * rows of download_log (one per asset, already counted) move over as counted downloads of one asset.
 * A change that only folds counts is marked `count_only` in the change log: the full-text index
 * skips it, since no text changed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('download')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'bigint')
    .addColumn('user_name', 'varchar(256)')
    .addColumn('share_id', 'bigint')
    .addColumn('cset_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('asset_ids', 'text', (c) => c.notNull())
    .addColumn('asset_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('counted_at', 'bigint')
    .execute();
  await db.schema.createIndex('download_created_idx').on('download').column('created_at').execute();
  await db.schema
    .createIndex('download_uncounted_idx')
    .on('download')
    .column('id')
    .where(sql.ref('counted_at'), 'is', null)
    .execute();
  await sql`insert into download (user_id, user_name, share_id, cset_id, kind, asset_ids, asset_count, created_at, counted_at)
    select user_id, user_name, null, cset_id, kind, cast(asset_id as varchar(20)), 1, created_at, created_at
    from download_log order by id`.execute(db);
  await db.schema.dropTable('download_log').execute();
  await db.schema
    .alterTable('catalogue_change')
    .addColumn('count_only', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.alterTable('catalogue_change').dropColumn('count_only').execute();
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
  await db.schema.dropTable('download').execute();
}
