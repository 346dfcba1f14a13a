import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * The catalogue's lookup indexes whose keys come in no order (a metadata value, a file's checksum):
 * written row by row, each transaction of a bulk write touches pages all over them, and once they
 * outgrow the page cache (some 2.7 GB at ten million assets) every commit writes tens of thousands
 * of pages. Sorted once after the rows they are made in minutes.
 */
export const LOOKUP_INDEXES = ['asset_value_field_idx', 'asset_sha_idx'] as const;

/** WAL pages between checkpoints during a bulk write (SQLite's default is 1,000). */
const BULK_CHECKPOINT_PAGES = 100_000;

/**
 * Drops `names` (SQLite) and records the statements that make them again in `deferred_index`, in
 * one transaction: a process that ends before `createDeferredIndexes` leaves them recorded, and the
 * next open of the database makes them. Answers the names dropped (those that exist).
 */
export async function deferIndexes(db: Kysely<Database>, names: readonly string[]): Promise<string[]> {
  // Read before the transaction: one that reads first cannot write once another connection (the
  // indexing thread) committed meanwhile (SQLite's stale snapshot); one that writes first waits.
  const { rows } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master where type = 'index' and name in (${sql.join(names)})`.execute(db);
  if (rows.length === 0) return [];
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('deferred_index')
      .values(rows.map((r) => ({ name: r.name, definition: r.sql })))
      .execute();
    for (const { name } of rows) await sql`drop index ${sql.id(name)}`.execute(trx);
  });
  return rows.map((r) => r.name);
}

/**
 * Makes every index recorded in `deferred_index`, each in a transaction with removing its record;
 * `progress` hears of each made.
 */
export async function createDeferredIndexes(
  db: Kysely<Database>,
  progress?: (done: number, total: number) => void,
): Promise<string[]> {
  const deferred = await db.selectFrom('deferred_index').select(['name', 'definition']).orderBy('name').execute();
  if (deferred.length > 0) progress?.(0, deferred.length);
  for (const [i, { name, definition }] of deferred.entries()) {
    await db.transaction().execute(async (trx) => {
      await sql.raw(definition).execute(trx);
      await trx.deleteFrom('deferred_index').where('name', '=', name).execute();
    });
    progress?.(i + 1, deferred.length);
  }
  return deferred.map((d) => d.name);
}

/**
 * Runs a bulk write of new assets (SQLite): checkpoints the write-ahead log every
 * BULK_CHECKPOINT_PAGES pages instead of every thousand (a page written by many transactions is
 * copied into the database once) and empties it at the end, and when the catalogue is empty and `deferLookups` (no server
 * reads it meanwhile), makes LOOKUP_INDEXES after the rows instead of with each, also when `fn`
 * fails; `progress` hears of the indexes made. PostgreSQL writes as it always does.
 */
export async function withBulkWrite<T>(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  options: { deferLookups: boolean; progress?: (done: number, total: number) => void },
  fn: () => Promise<T>,
): Promise<T> {
  if (dialect !== 'sqlite') return fn();
  const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
  const before = Number(rows[0]?.wal_autocheckpoint ?? 1000);
  await sql.raw(`pragma wal_autocheckpoint = ${BULK_CHECKPOINT_PAGES}`).execute(db);
  try {
    const empty = !(await db.selectFrom('asset').select('id').limit(1).executeTakeFirst());
    if (options.deferLookups && empty) await deferIndexes(db, LOOKUP_INDEXES);
    try {
      return await fn();
    } finally {
      await createDeferredIndexes(db, options.progress);
    }
  } finally {
    await sql.raw(`pragma wal_autocheckpoint = ${before}`).execute(db);
    // The log holds up to BULK_CHECKPOINT_PAGES pages: copied into the database now, and emptied, so
    // that the next process does not read through it (or copy it at its first commit).
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  }
}
