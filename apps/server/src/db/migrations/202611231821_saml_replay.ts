import type { Kysely } from 'kysely';

/**
 * SAML: the ids of the requests we sent (an answer must be in response to one of them, once) and
 * of the assertions consumed (none is accepted twice). In the database, so every process shares them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('saml_request')
    .addColumn('id', 'varchar(300)', (c) => c.primaryKey())
    .addColumn('provider', 'varchar(64)', (c) => c.notNull())
    .addColumn('binding', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('saml_assertion')
    .addColumn('id', 'varchar(400)', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('saml_assertion').execute();
  await db.schema.dropTable('saml_request').execute();
}
