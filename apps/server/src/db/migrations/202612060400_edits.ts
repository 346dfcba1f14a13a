import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Edits in the browser (decision 0250): `asset_edit` is the overlay, one row per edited field of an
 * asset with the values the file had at the last import (`imported`, JSON of values per language);
 * `edit_batch` and `edit_change` are the history, one batch per edit, bin, restore, undo, reset,
 * removal or upload, with each asset's field before and after. `asset.status` may be 'bin' (no
 * schema change: a varchar).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('asset_edit')
    .addColumn('asset_id', 'bigint', (c) => c.notNull())
    .addColumn('field', 'varchar(64)', (c) => c.notNull())
    .addColumn('imported', 'text', (c) => c.notNull())
    .addColumn('edited_by', 'text')
    .addColumn('edited_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('asset_edit_pk', ['asset_id', 'field'])
    .execute();
  await db.schema
    .createTable('edit_batch')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('account_id', 'bigint')
    .addColumn('account_name', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('assets', 'integer', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('undo_of', 'bigint')
    .addColumn('undone_by', 'bigint')
    .execute();
  await db.schema
    .createTable('edit_change')
    .addColumn('batch_id', 'bigint', (c) => c.notNull())
    .addColumn('asset_id', 'bigint', (c) => c.notNull())
    .addColumn('field', 'varchar(64)', (c) => c.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    // Rows of batch N (undo) by the key; changes of asset X (history) by the index below.
    .addPrimaryKeyConstraint('edit_change_pk', ['batch_id', 'asset_id', 'field'])
    .execute();
  await db.schema.createIndex('edit_change_asset_idx').on('edit_change').columns(['asset_id', 'batch_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('edit_change').execute();
  await db.schema.dropTable('edit_batch').execute();
  await db.schema.dropTable('asset_edit').execute();
}
