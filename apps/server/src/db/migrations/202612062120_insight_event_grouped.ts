import type { Kysely } from 'kysely';

/**
 * The Statistics answer groups the day's events not counted yet (today's, half a day of 100,000
 * a day: 50,000 rows) by kind, audience and key on every call. With only (day, kind) indexed the
 * database sorted them each time (SQLite: 308 ms of a 441 ms answer at that volume); an index in
 * that order holding every column the grouping reads serves them sorted (72 ms). It begins with
 * (day, kind), so it also serves what the former index served, which it replaces.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('insight_event_group_idx')
    .on('insight_event')
    .columns(['day', 'kind', 'audience', 'key', 'n', 'results'])
    .execute();
  await db.schema.dropIndex('insight_event_day_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('insight_event_day_idx').on('insight_event').columns(['day', 'kind']).execute();
  await db.schema.dropIndex('insight_event_group_idx').execute();
}
