import {
  Kysely,
  sql,
  PostgresDialect,
  SqliteDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import pg from 'pg';
import type { Settings } from '../settings.ts';
import { createDeferredIndexes } from './deferred-indexes.ts';
import { openSqlite, withStatementCache } from './sqlite-connection.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /**
   * The PostgreSQL connection pool's connections now (metrics); undefined on SQLite, whose one
   * connection answers synchronously, so no query ever waits for a connection.
   */
  pool?: () => { max: number; total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** Connections of the PostgreSQL pool of one process. */
const POOL_MAX = 10;

// PostgreSQL returns BIGINT (count(*), sums) as text by default; our counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/**
 * How long a statement waits for another process's write lock inside SQLite (the thread waits: no
 * request, timer or probe runs meanwhile), and how long in all, the rest asynchronously.
 */
const BUSY_WAIT = { syncMs: 10, totalMs: 5000 };

/** SQLite answered that another connection holds the lock this statement needs (not a stale snapshot). */
const isBusy = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 'SQLITE_BUSY';

/**
 * A statement that finds the database locked by another process (an import, `bench-data`, a
 * backup) is tried again after an asynchronous wait, so the event loop runs meanwhile: SQLite's own
 * busy timeout blocks the thread, which froze every request for as long as the other process wrote.
 */
export async function retryWhileBusy<T>(run: () => Promise<T>, totalMs = BUSY_WAIT.totalMs): Promise<T> {
  const started = performance.now();
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    try {
      return await run();
    } catch (err) {
      if (!isBusy(err) || performance.now() - started + wait > totalMs) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The query builder's SQLite driver, with every statement tried again while the database is busy. */
class BusyRetryingDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const retrying = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const wrap = (connection: DatabaseConnection): DatabaseConnection => {
      let wrapped = retrying.get(connection);
      if (!wrapped) {
        wrapped = {
          executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
            retryWhileBusy(() => connection.executeQuery<R>(query)),
          streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => connection.streamQuery<R>(query, chunkSize),
        };
        retrying.set(connection, wrapped);
      }
      return wrapped;
    };
    // The driver's own statements (begin, commit, savepoints) go through the connection it is handed.
    return {
      init: () => driver.init(),
      acquireConnection: async () => wrap(await driver.acquireConnection()),
      beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
      commitTransaction: (connection) => driver.commitTransaction(connection),
      rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
      savepoint: driver.savepoint?.bind(driver),
      rollbackToSavepoint: driver.rollbackToSavepoint?.bind(driver),
      releaseSavepoint: driver.releaseSavepoint?.bind(driver),
      releaseConnection: (connection) => driver.releaseConnection(connection),
      destroy: () => driver.destroy(),
    };
  }
}

/**
 * Opens the database and migrates it to the latest schema; `migrate: false` leaves it as it is (a
 * restore looks at a target before it writes anything).
 */
export async function openDatabase(
  config: Settings['database'],
  onIdleError?: (err: Error) => void,
  options: { migrate?: boolean } = {},
): Promise<Db> {
  let kysely: Kysely<Database>;
  let poolUse: Db['pool'];
  if (config.dialect === 'sqlite') {
    const sqlite = openSqlite(config.file, BUSY_WAIT.syncMs);
    kysely = new Kysely<Database>({ dialect: new BusyRetryingDialect({ database: withStatementCache(sqlite) }) });
  } else {
    const pool = new pg.Pool({
      connectionString: config.url,
      max: POOL_MAX,
      // No request may wait forever on a database that is away: connecting gives up after 5 s, a
      // statement after 30 s (the server cancels it), and the client stops waiting soon after.
      connectionTimeoutMillis: 5_000,
      statement_timeout: 30_000,
      query_timeout: 35_000,
      idle_in_transaction_session_timeout: 60_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle connection the server ended (a restart, a failover) is dropped from the pool and the
    // next query opens a new one; without a listener the 'error' event would end the process.
    pool.on('error', (err) => onIdleError?.(err));
    poolUse = () => ({ max: POOL_MAX, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  try {
    if (options.migrate !== false) {
      await migrateToLatest(kysely);
      // Indexes a bulk write dropped and a process that ended too early did not make again.
      await createDeferredIndexes(kysely);
    }
  } catch (err) {
    await kysely.destroy();
    throw err;
  }
  return { kysely, dialect: config.dialect, ...(poolUse ? { pool: poolUse } : {}), close: () => kysely.destroy() };
}

/**
 * The connection of a server process on SQLite no longer copies the write-ahead log into the
 * database when a commit finds it long: the checkpointer's thread does (adapters/checkpointer.ts).
 */
export async function leaveCheckpointsToThread(db: Db): Promise<void> {
  if (db.dialect === 'sqlite') await sql`pragma wal_autocheckpoint = 0`.execute(db.kysely);
}

/** The names of the tables the database has (Kysely's migration tables included). */
export async function tableNames(db: Db): Promise<string[]> {
  const tables = await db.kysely.introspection.getTables({ withInternalKyselyTables: true });
  return tables.filter((t) => !t.isView).map((t) => t.name);
}
