import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * A change as its writer wrote it, kept beside the change log for the catalogue's other processes
 * (PostgreSQL: several server processes share one catalogue): a process whose index lacks only that
 * change takes it without reading the changed assets again. In parts of a few hundred assets, JSON
 * texts of the search engine's format (written-change.ts); pruned with the change log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalogue_change_written')
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalogue_change_written_pk', ['seq', 'part'])
    .execute();
  // Read once or twice within seconds of being written, then pruned: not worth compressing.
  if (isPostgres(db))
    await sql`alter table catalogue_change_written alter column body set storage external`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('catalogue_change_written').execute();
}
