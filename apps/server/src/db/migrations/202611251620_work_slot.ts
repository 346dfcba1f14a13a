import type { Kysely } from 'kysely';

/**
 * The slots of expensive work (conversions, page renders, checksums, …) that every process shares:
 * one row per slot taken, numbered below the kind's total, held by one process until `expires_at`
 * (renewed while the work runs, so a dead process's slot is taken over soon).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('work_slot')
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('holder', 'varchar(128)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('work_slot_pk', ['kind', 'slot'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('work_slot').execute();
}
