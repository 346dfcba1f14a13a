import type { Kysely } from 'kysely';

/**
 * Visual signatures of assets (issue #52, decision 0262): one row per asset that has a picture (an
 * image, a video's poster, a PDF's first page, a 3D model's view), made from the same decode as its
 * preview. `phash` is the 64-bit perceptual hash as 16 hexadecimal digits (the same text on both
 * databases, no signed 64-bit integers); `colours` compact JSON `[[L,a,b,share],…]` in OKLab;
 * `sha256` the content it was made from; `version` how it was made (alike/signature.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('asset_signature')
    .addColumn('asset_id', 'bigint', (c) => c.primaryKey().references('asset.id').onDelete('cascade'))
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('phash', 'varchar(16)', (c) => c.notNull())
    .addColumn('colours', 'text', (c) => c.notNull())
    .addColumn('aspect', 'real', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('asset_signature').execute();
}
