import { type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Background work and its results. `job` is the queue every process shares: a worker claims a row
 * by setting a lease (`locked_until`), so a job whose process died is picked up again once the lease
 * runs out. `derivative` lists the files made from an asset (thumbnail, preview, poster, web video,
 * page previews), keyed by the content hash they were made from. `asset.fingerprint` lets a
 * re-import skip files whose content and sidecar metadata did not change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.alterTable('asset').addColumn('fingerprint', 'varchar(64)').execute();
  await db.schema
    .createTable('job')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('run_after', 'bigint', (c) => c.notNull())
    .addColumn('locked_by', 'varchar(128)')
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_status_run_idx').on('job').columns(['status', 'run_after']).execute();

  await db.schema
    .createTable('derivative')
    .addColumn('asset_id', 'bigint', (c) => c.notNull().references('asset.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('mime', 'varchar(127)', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('placeholder', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('derivative_pk', ['asset_id', 'kind', 'page'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('derivative').execute();
  await db.schema.dropTable('job').execute();
  await db.schema.alterTable('asset').dropColumn('fingerprint').execute();
}
