import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * For pruning the catalogue change log: a catalogue identity (a snapshot of another database's
 * index is never used), the sequence up to which changes were pruned (an index older than it
 * cannot catch up and is rebuilt), and the readers of the log: each server process and each index
 * snapshot records the last change it holds, so the purge keeps what they still need.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('catalogue_state').addColumn('instance', 'text').execute();
  await db.schema
    .alterTable('catalogue_state')
    .addColumn('pruned_through', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update catalogue_state set instance = ${randomUUID()} where id = 1`.execute(db);
  await db.schema
    .createTable('catalogue_reader')
    .addColumn('reader', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('catalogue_reader').execute();
  await db.schema.alterTable('catalogue_state').dropColumn('pruned_through').execute();
  await db.schema.alterTable('catalogue_state').dropColumn('instance').execute();
}
