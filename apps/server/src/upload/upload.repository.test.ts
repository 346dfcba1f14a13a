import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { UploadRepository } from './upload.repository.ts';

describe.each(dialects)('UploadRepository.open on %s (docs/security.md "Uploads")', (dialect) => {
  let test: TestDatabase;
  let db: Db;
  let repo: UploadRepository;

  const begin = (account: number, bytes: number, now: number) =>
    repo.open(
      { id: randomBytes(16).toString('hex'), account, bytes, filename: 'same-moment.jpg', created_at: now },
      { since: now - 1000, maxBytes: 1000 },
    );

  /**
   * Runs `race` while another transaction holds the upload table against writes (reads go on), so
   * each creation has summed what it sees before any can insert; let go once `waiting` statements
   * wait for a lock. SQLite has one writer and no such interleaving: there the race just runs.
   */
  async function interleaved<T>(waiting: number, race: () => Promise<T>): Promise<T> {
    if (dialect === 'sqlite') return race();
    return db.kysely.connection().execute(async (held) => {
      await sql`begin`.execute(held);
      await sql`lock table upload in share mode`.execute(held);
      const raced = race();
      try {
        await vi.waitFor(
          async () => {
            const { rows } = await sql<{ n: string }>`
              select count(*) as n from pg_locks
              where not granted and database = (select oid from pg_database where datname = current_database())`.execute(
              db.kysely,
            );
            expect(Number(rows[0]?.n)).toBe(waiting);
          },
          { timeout: 10_000, interval: 20 },
        );
      } finally {
        await sql`commit`.execute(held);
      }
      return raced;
    });
  }

  beforeAll(async () => {
    test = await createTestDatabase(dialect);
    db = await openDatabase(test.config);
    repo = new UploadRepository(db.kysely, db.dialect);
  });
  afterAll(async () => {
    await db.close();
    await test.drop();
  });

  it('lets only one of two uploads begun at the same moment pass the daily limit', async () => {
    const now = Date.now();
    // Each fits alone, the two do not fit together.
    const answers = await interleaved(2, () => Promise.all([begin(1, 600, now), begin(1, 600, now)]));
    expect(answers.filter((a) => a === undefined)).toHaveLength(1);
    expect(answers.filter((a) => a === 600)).toHaveLength(1);
    expect(await repo.usedSince(1, now - 1000)).toBe(600);
  });

  it('lets another editor’s upload begun at that moment pass beside it', async () => {
    const now = Date.now();
    const answers = await interleaved(2, () => Promise.all([begin(2, 600, now), begin(3, 600, now)]));
    expect(answers).toEqual([undefined, undefined]);
  });
});
