import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { leaveCheckpointsToThread, openDatabase, type Db } from '../db/database.ts';
import { TEXT_MERGE_STEP } from '../search/sqlite-text.repository.ts';
import { startCheckpointer, type Checkpointer } from './checkpointer.ts';

// Another process (an import, bench-data) leaves pages in the write-ahead log that it could not copy
// while the server read; the server's next small write must not copy them on its event loop.
describe('the SQLite write-ahead log of a server process', () => {
  let dir: string;
  let file: string;
  let db: Db;
  let other: SQLite.Database;
  let checkpointer: Checkpointer | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-checkpoint-'));
    file = path.join(dir, 'vitrine.db');
    db = await openDatabase({ dialect: 'sqlite', file });
    await sql`create table probe (x integer)`.execute(db.kysely);
    await sql`create table bulk (payload blob)`.execute(db.kysely);
    other = new SQLite(file);
    // As a process whose checkpoints a reader kept from copying everything: its pages stay in the log.
    other.pragma('wal_autocheckpoint = 0');
  });

  afterEach(async () => {
    await checkpointer?.stop();
    checkpointer = undefined;
    other.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The other process writes some 8 MB (2,000 pages, twice SQLite's checkpoint threshold). */
  const writeElsewhere = () => {
    const insert = other.prepare('insert into bulk (payload) values (?)');
    other.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(Buffer.alloc(4000, i % 251));
    })();
  };
  const databaseBytes = () => statSync(file).size;

  it('is copied by its thread, not by the server’s next write', async () => {
    const copied: number[] = [];
    await leaveCheckpointsToThread(db);
    checkpointer = startCheckpointer(
      file,
      (error) => {
        throw new Error(error);
      },
      (pages) => copied.push(pages),
    );
    const before = databaseBytes();
    writeElsewhere();
    await sql`insert into probe (x) values (1)`.execute(db.kysely);
    // The server's commit left the log as it was: the database file has not grown.
    expect(databaseBytes()).toBe(before);
    // The thread copies it within a round or two.
    const deadline = Date.now() + 5000;
    const done = () => databaseBytes() > before + 7_000_000 && copied.some((pages) => pages >= 2000);
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(databaseBytes()).toBeGreaterThan(before + 7_000_000);
    expect(copied.some((pages) => pages >= 2000)).toBe(true);
    expect(Number((await sql<{ n: number }>`select count(*) as n from bulk`.execute(db.kysely)).rows[0]!.n)).toBe(2000);
  });

  it('without the thread, the server’s next write copies the other process’s pages itself', async () => {
    const before = databaseBytes();
    writeElsewhere();
    await sql`insert into probe (x) values (1)`.execute(db.kysely);
    expect(databaseBytes()).toBeGreaterThan(before + 7_000_000);
  });

  it('merges the full-text index’s segments as its upkeep, which the writing statements no longer do (decision 0272)', async () => {
    // Eight transactions, eight segments: the migrated index does not merge them as it writes.
    for (let t = 0; t < 8; t++)
      await db.kysely.transaction().execute(async (trx) => {
        for (let i = 0; i < 50; i++) {
          const id = t * 50 + i + 1;
          await sql`insert into search_fts (rowid, title, body) values (${id}, ${`title ${id}`}, ${`harbour boat ${id}`})`.execute(
            trx,
          );
        }
      });
    const dataRows = async () =>
      Number((await sql<{ n: number }>`select count(*) as n from search_fts_data`.execute(db.kysely)).rows[0]!.n);
    const unmerged = await dataRows();
    const steps: number[] = [];
    await leaveCheckpointsToThread(db);
    checkpointer = startCheckpointer(
      file,
      (error) => {
        throw new Error(error);
      },
      (_pages, upkeep) => steps.push(upkeep),
      [TEXT_MERGE_STEP],
    );
    const deadline = Date.now() + 5000;
    const merged = async () => (await dataRows()) < unmerged && steps.some((n) => n > 0);
    while (!(await merged()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await dataRows()).toBeLessThan(unmerged);
    expect(steps.some((n) => n > 0)).toBe(true);
    const found = await sql<{
      n: number;
    }>`select count(*) as n from search_fts where search_fts match 'harbour'`.execute(db.kysely);
    expect(Number(found.rows[0]!.n)).toBe(400);
  });
});
