import type { Kysely } from 'kysely';

/**
 * The fields whose words the full-text index holds (search_state.text_fields): when the settings
 * change them (a field given an audience keeps its words out), the index is made again, so that no
 * word of a field now restricted is found. Null: an index made before they were recorded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('search_state').addColumn('text_fields', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('search_state').dropColumn('text_fields').execute();
}
