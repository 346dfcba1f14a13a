import type { Kysely } from 'kysely';

/**
 * Part hashes of a picture (issue #52, decision 0271): the perceptual hashes of 45 windows of it
 * (alike/signature.ts PART_WINDOWS), 16 hexadecimal digits each, one after the other; null in
 * signatures made before them (version 1, made again by `vitrine import`). Read only for the asset a
 * `similar:` search asks about, never by the million, so they stay out of the search index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('asset_signature').addColumn('parts', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('asset_signature').dropColumn('parts').execute();
}
