import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, retryWhileBusy, type Db } from './database.ts';

// Another process writing the SQLite catalogue (an import, bench-data, a backup) holds its write
// lock; the server's statements wait for it without stopping the event loop.
describe('SQLite database locked by another process', () => {
  let dir: string;
  let file: string;
  let db: Db;
  let other: SQLite.Database;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-busy-'));
    file = path.join(dir, 'vitrine.db');
    db = await openDatabase({ dialect: 'sqlite', file });
    await sql`CREATE TABLE busy_probe (x INTEGER)`.execute(db.kysely);
    other = new SQLite(file);
  });

  afterEach(async () => {
    other.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Holds the write lock in the other connection until a timer of this event loop releases it. */
  function holdLockFor(ms: number): string[] {
    const events: string[] = [];
    other.exec('BEGIN IMMEDIATE');
    setTimeout(() => {
      other.exec('COMMIT');
      events.push('released');
    }, ms);
    return events;
  }

  it('a write waits for the lock while timers run, then succeeds', async () => {
    const events = holdLockFor(200);
    await sql`INSERT INTO busy_probe (x) VALUES (1)`.execute(db.kysely);
    events.push('written');
    // With SQLite's own busy wait the releasing timer could not run: the write failed after 5 s.
    expect(events).toEqual(['released', 'written']);
    expect(other.prepare('SELECT count(*) AS n FROM busy_probe').get()).toEqual({ n: 1 });
  });

  it('a transaction whose first write finds the lock taken waits too', async () => {
    const events = holdLockFor(200);
    await db.kysely.transaction().execute(async (trx) => {
      await sql`INSERT INTO busy_probe (x) VALUES (2)`.execute(trx);
      await sql`INSERT INTO busy_probe (x) VALUES (3)`.execute(trx);
    });
    events.push('committed');
    expect(events).toEqual(['released', 'committed']);
    expect(other.prepare('SELECT sum(x) AS s FROM busy_probe').get()).toEqual({ s: 5 });
  });

  it('gives up with SQLite’s busy error when the lock is held too long', async () => {
    other.exec('BEGIN IMMEDIATE');
    const third = new SQLite(file);
    third.pragma('busy_timeout = 0');
    let tries = 0;
    const write = retryWhileBusy(async () => {
      tries++;
      third.prepare('INSERT INTO busy_probe (x) VALUES (4)').run();
    }, 150);
    await expect(write).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    third.close();
    other.exec('ROLLBACK');
    expect(tries).toBeGreaterThan(2);
    expect(other.prepare('SELECT count(*) AS n FROM busy_probe').get()).toEqual({ n: 0 });
  });

  it('other errors are not tried again', async () => {
    let tries = 0;
    const failing = retryWhileBusy(async () => {
      tries++;
      await sql`INSERT INTO no_such_table (x) VALUES (1)`.execute(db.kysely);
    });
    await expect(failing).rejects.toThrow(/no such table/);
    expect(tries).toBe(1);
  });
});
