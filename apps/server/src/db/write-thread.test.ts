import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database.ts';
import { WriteThread } from './write-thread.ts';

// A bulk edit's statements run in a thread beside the event loop (issue #49, decision 0272).
/** The test's tables, outside the portal's schema's types. */
type Notes = Kysely<Record<string, Record<string, unknown>>>;

describe('the write thread of a server process on SQLite', () => {
  let dir: string;
  let db: Db;
  let thread: WriteThread;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-write-thread-'));
    const file = path.join(dir, 'vitrine.db');
    db = await openDatabase({ dialect: 'sqlite', file });
    await sql`create table note (id integer primary key, text text not null unique, data blob)`.execute(db.kysely);
    thread = new WriteThread(file, db.kysely);
  });

  afterEach(async () => {
    await thread.stop();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const notes = async () =>
    (await sql<{ text: string }>`select text from note order by id`.execute(db.kysely)).rows.map((r) => r.text);

  it('writes in its own transaction, answers rows, changes and ids as the event loop’s connection does', async () => {
    const out = await thread.transaction(async (trx) => {
      const t = trx as unknown as Notes;
      const inserted = await t
        .insertInto('note')
        .values([
          { text: 'one', data: Buffer.from([1, 2, 3]) },
          { text: 'two', data: null },
        ])
        .executeTakeFirst();
      const updated = await t.updateTable('note').set({ text: 'zwei' }).where('text', '=', 'two').executeTakeFirst();
      const rows = await t.selectFrom('note').select(['text', 'data']).orderBy('id').execute();
      return { inserted, updated, rows };
    });
    expect(out.inserted.insertId).toBe(2n);
    expect(out.updated.numUpdatedRows).toBe(1n);
    expect(out.rows.map((r) => r.text)).toEqual(['one', 'zwei']);
    // A blob is a Buffer, as better-sqlite3 answers it on the event loop.
    expect(Buffer.isBuffer(out.rows[0]!.data)).toBe(true);
    expect([...(out.rows[0]!.data as Buffer)]).toEqual([1, 2, 3]);
    // Committed: the event loop's connection reads it.
    expect(await notes()).toEqual(['one', 'zwei']);
  });

  it('starts before the first write when warmed, and that write runs on the thread it started', async () => {
    expect(thread.threadId).toBeUndefined();
    await thread.warm();
    const started = thread.threadId;
    expect(started).toBeGreaterThan(0);
    await thread.transaction(async (trx) => {
      await (trx as unknown as Notes).insertInto('note').values({ text: 'first' }).execute();
    });
    expect(thread.threadId).toBe(started);
    expect(await notes()).toEqual(['first']);
  });

  it('rolls a failed transaction back whole, with SQLite’s error and code', async () => {
    await sql`insert into note (text) values ('kept')`.execute(db.kysely);
    const failed = thread.transaction(async (trx) => {
      const t = trx as unknown as Notes;
      await t.insertInto('note').values({ text: 'new' }).execute();
      await t.insertInto('note').values({ text: 'kept' }).execute();
    });
    await expect(failed).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect(await notes()).toEqual(['kept']);
    // The thread writes again afterwards.
    await thread.transaction((trx) => (trx as unknown as Notes).insertInto('note').values({ text: 'after' }).execute());
    expect(await notes()).toEqual(['kept', 'after']);
  });

  it('keeps the event loop free while a long statement runs, and the process’s other queries wait for the commit', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    let readDuring: Promise<string[]> | undefined;
    try {
      await thread.transaction(async (trx) => {
        await sql`insert into note (text) values ('during')`.execute(trx);
        // Asked while the transaction is open: answered after it (the event loop's connection is held).
        readDuring = notes();
        const before = ticks;
        // Some 300 ms of SQLite in the thread: on the event loop no timer would fire meanwhile.
        await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000) select count(*) from n`.execute(
          trx,
        );
        expect(ticks - before).toBeGreaterThanOrEqual(3);
      });
    } finally {
      clearInterval(timer);
    }
    expect(await readDuring).toEqual(['during']);
  });

  it('fails a transaction whose thread ended, writes nothing of it, and starts a new thread for the next', async () => {
    const failed = thread.transaction(async (trx) => {
      await sql`insert into note (text) values ('lost')`.execute(trx);
      await thread.stop();
      await sql`insert into note (text) values ('also lost')`.execute(trx);
    });
    await expect(failed).rejects.toThrow(/write thread ended during the transaction; nothing of it was written/);
    expect(await notes()).toEqual([]);
    await thread.transaction((trx) => sql`insert into note (text) values ('next')`.execute(trx));
    expect(await notes()).toEqual(['next']);
  });
});
