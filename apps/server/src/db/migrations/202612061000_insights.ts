import type { Kysely } from 'kysely';

/**
 * Statistics of use (issue #51, docs/security.md "Statistics"). `insight_event`: what happened, as
 * the batches of each process write it, one row per counted thing (a search, a facet it used, a
 * view, an asset delivered, …) with its UTC day, audience (guest or account) and key (search text,
 * asset, conversion set, …); kept `insights.keepDays`. `insight_daily`: the counts per day, kind,
 * audience and key that a job makes from the events and keeps (key '' holds a kind's day total);
 * `insight_monthly` the same per month, so a year's top lists read twelve months, not 365 days.
 * Neither table has a column for an address or an account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('insight_event')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('kind', 'varchar(24)', (c) => c.notNull())
    .addColumn('audience', 'varchar(8)', (c) => c.notNull())
    .addColumn('key', 'varchar(200)', (c) => c.notNull())
    .addColumn('asset_id', 'bigint')
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('results', 'integer')
    .execute();
  await db.schema.createIndex('insight_event_day_idx').on('insight_event').columns(['day', 'kind']).execute();
  await db.schema
    .createTable('insight_daily')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('kind', 'varchar(24)', (c) => c.notNull())
    .addColumn('audience', 'varchar(8)', (c) => c.notNull())
    .addColumn('key', 'varchar(200)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('insight_daily_pk', ['day', 'kind', 'audience', 'key'])
    .execute();
  await db.schema
    .createIndex('insight_daily_kind_idx')
    .on('insight_daily')
    .columns(['kind', 'day', 'audience', 'key', 'count'])
    .execute();
  await db.schema
    .createTable('insight_monthly')
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('kind', 'varchar(24)', (c) => c.notNull())
    .addColumn('audience', 'varchar(8)', (c) => c.notNull())
    .addColumn('key', 'varchar(200)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('insight_monthly_pk', ['month', 'kind', 'audience', 'key'])
    .execute();
  await db.schema
    .createIndex('insight_monthly_kind_idx')
    .on('insight_monthly')
    .columns(['kind', 'month', 'audience', 'key', 'count'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('insight_monthly').execute();
  await db.schema.dropTable('insight_daily').execute();
  await db.schema.dropTable('insight_event').execute();
}
