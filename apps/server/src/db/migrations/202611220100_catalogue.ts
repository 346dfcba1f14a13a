import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * The catalogue: one row per asset with the single-valued fields as columns (sortable, usable in
 * ranges), multi-valued and per-language values in asset_value, collections and access groups in
 * their own tables. Dates are epoch milliseconds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('asset')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('source_path', 'text', (c) => c.notNull().unique())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('mime', 'varchar(127)', (c) => c.notNull())
    .addColumn('format', 'varchar(32)', (c) => c.notNull())
    .addColumn('asset_group', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('created', 'bigint')
    .addColumn('imp_date', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('pixel_x', 'integer')
    .addColumn('pixel_y', 'integer')
    .addColumn('bbox_x', 'real')
    .addColumn('bbox_y', 'real')
    .addColumn('color_code', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating', 'integer')
    .addColumn('duration', 'real')
    .addColumn('page_count', 'integer')
    .addColumn('gps_lat', 'double precision')
    .addColumn('gps_lon', 'double precision')
    .addColumn('obj_dload_cnt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('asset_status_imp_idx').on('asset').columns(['status', 'imp_date']).execute();
  await db.schema.createIndex('asset_sha_idx').on('asset').column('sha256').execute();

  await db.schema
    .createTable('asset_value')
    .addColumn('asset_id', 'bigint', (c) => c.notNull().references('asset.id').onDelete('cascade'))
    .addColumn('field', 'varchar(64)', (c) => c.notNull())
    .addColumn('lang', 'varchar(8)', (c) => c.notNull().defaultTo(''))
    .addColumn('ord', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('asset_value_pk', ['asset_id', 'field', 'lang', 'ord'])
    .execute();
  await db.schema.createIndex('asset_value_field_idx').on('asset_value').columns(['field', 'value']).execute();

  await db.schema
    .createTable('collection')
    .addColumn('id', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull().unique())
    .addColumn('parent_id', 'bigint', (c) => c.references('collection.id').onDelete('set null'))
    .addColumn('thumbnail_asset_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('asset_collection')
    .addColumn('asset_id', 'bigint', (c) => c.notNull().references('asset.id').onDelete('cascade'))
    .addColumn('collection_id', 'bigint', (c) => c.notNull().references('collection.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('asset_collection_pk', ['asset_id', 'collection_id'])
    .execute();
  await db.schema.createIndex('asset_collection_c_idx').on('asset_collection').column('collection_id').execute();

  await db.schema
    .createTable('asset_access')
    .addColumn('asset_id', 'bigint', (c) => c.notNull().references('asset.id').onDelete('cascade'))
    .addColumn('group_name', 'varchar(100)', (c) => c.notNull())
    .addPrimaryKeyConstraint('asset_access_pk', ['asset_id', 'group_name'])
    .execute();
  await db.schema.createIndex('asset_access_group_idx').on('asset_access').column('group_name').execute();

  // A counter every process bumps when it changes the catalogue, so that caches in other
  // processes (search indexes) can tell they are stale with one cheap query.
  await db.schema
    .createTable('catalogue_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('generation', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into catalogue_state (id, generation) values (1, 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['catalogue_state', 'asset_access', 'asset_collection', 'collection', 'asset_value', 'asset']) {
    await db.schema.dropTable(t).execute();
  }
}
