import type { Kysely } from 'kysely';

/**
 * Caption tracks of videos, read at import from WebVTT or SubRip files beside them (docs/catalogue.md
 * "Captions"), kept in the database as they were found (SubRip is turned into WebVTT when served).
 * `plays_in_browser`: whether a browser plays the original file itself (its container and codecs),
 * so the player may offer it as a source besides the web MP4.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('asset_caption')
    .addColumn('asset_id', 'bigint', (c) => c.notNull())
    .addColumn('track', 'integer', (c) => c.notNull())
    .addColumn('lang', 'varchar(35)', (c) => c.notNull())
    .addColumn('format', 'varchar(4)', (c) => c.notNull())
    .addColumn('filename', 'varchar(1024)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('asset_caption_pk', ['asset_id', 'track'])
    .execute();
  await db.schema
    .alterTable('asset')
    .addColumn('plays_in_browser', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('asset').dropColumn('plays_in_browser').execute();
  await db.schema.dropTable('asset_caption').execute();
}
