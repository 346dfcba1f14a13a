import type { Kysely } from 'kysely';

/**
 * Derivatives being made on request (PDF pages past those made at import): one row per asset, kind
 * and page while one process makes it, so other processes wait for its file instead of making it
 * again. A row whose holder died is taken over after `expires_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('derivative_claim')
    .addColumn('asset_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('holder', 'varchar(128)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('derivative_claim_pk', ['asset_id', 'kind', 'page'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('derivative_claim').execute();
}
