import { sql, type Kysely } from 'kysely';

/**
 * Statistics of use counted once per day, with rolling period counts (issue #51, decision 0257
 * "Amended"). `insight_state`: one row, the last day counted into `insight_daily` (each day is
 * counted once, when it has settled) and the last day the period counts follow. `insight_span`: per
 * preset period (7, 30, 90, 365 days), the counts of each key over the period's days before today,
 * per audience and for both ('all'), kept up to date a day at a time, so the Statistics answer of a
 * preset reads its top lists without grouping a year of keys.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('insight_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('counted_through', 'varchar(10)')
    .addColumn('spans_through', 'varchar(10)')
    .execute();
  // An install with counts already has them through its last counted day; its spans are built by
  // the job's next run (spans_through null).
  await sql`insert into insight_state (id, counted_through, spans_through)
    select 1, max(day), null from insight_daily`.execute(db);
  await db.schema
    .createTable('insight_span')
    .addColumn('span', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(24)', (c) => c.notNull())
    .addColumn('audience', 'varchar(8)', (c) => c.notNull())
    .addColumn('key', 'varchar(200)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('insight_span_pk', ['span', 'kind', 'audience', 'key'])
    .execute();
  await db.schema
    .createIndex('insight_span_top_idx')
    .on('insight_span')
    .columns(['span', 'audience', 'kind', 'count desc', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('insight_span').execute();
  await db.schema.dropTable('insight_state').execute();
}
