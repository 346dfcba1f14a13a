import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { openDatabase, type Db } from '../db/database.ts';

// The Statistics answer groups the events of the day not counted yet by kind, audience and key on
// every call (insights.repository.ts `fromEvents`): 50,000 rows for half a day at 100,000 a day.
// SQLite reads them in that order from one index, without sorting them first (bench/README.md
// "bench/insights": 308 ms sorted, 72 ms from the index).
describe("the day's events grouped from their index (SQLite)", () => {
  let test: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    test = await createTestDatabase('sqlite');
    db = await openDatabase(test.config);
  });
  afterAll(async () => {
    await db.close();
    await test.drop();
  });

  const plan = async (query: string) =>
    (await sql<{ detail: string }>`${sql.raw(`explain query plan ${query}`)}`.execute(db.kysely)).rows
      .map((r) => r.detail)
      .join(' | ');

  it('groups by kind, audience and key through a covering index, with no sort', async () => {
    const detail = await plan(
      "select kind, audience, key, sum(n) from insight_event where day = '2026-12-06' group by kind, audience, key",
    );
    expect(detail).toContain('COVERING INDEX insight_event_group_idx');
    expect(detail).not.toContain('TEMP B-TREE');
  });

  it('finds searches without results of the day in the same index', async () => {
    const detail = await plan(
      "select audience, key, sum(n) from insight_event where day = '2026-12-06' and kind = 'search' and results = 0 group by audience, key",
    );
    expect(detail).toContain('COVERING INDEX insight_event_group_idx');
    expect(detail).not.toContain('TEMP B-TREE');
  });
});
