import { sql, type Kysely } from 'kysely';

/**
 * Groups saved in the admin area (issue #50, decision 0260) are a config document (`groups`, with
 * its history in config_history). `group_rights_state.version` names the history entry in force, so
 * every process checks one row per request to learn whether the groups changed; 0: none was saved,
 * the settings file decides.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('group_rights_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into group_rights_state (id, version) values (1, 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('group_rights_state').execute();
}
