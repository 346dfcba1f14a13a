import type { Kysely } from 'kysely';

/**
 * The folder an asset was imported from, as the import found it (symlinks resolved): its file is
 * served and converted only while it still lies inside. Assets imported before have none until
 * they are imported again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('asset').addColumn('import_root', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('asset').dropColumn('import_root').execute();
}
