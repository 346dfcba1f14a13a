import type { Kysely } from 'kysely';

/**
 * Bookmarks (portal-spec §3 "Bookmark", §7 `config/bookmarks`): a user's bookmarked assets in the
 * order they were saved. Guests keep theirs in the browser only, so every row has a user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bookmark')
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('asset_id', 'bigint', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('bookmark_pk', ['user_id', 'asset_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bookmark').execute();
}
