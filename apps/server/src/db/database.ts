import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Settings } from '../settings.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

// PostgreSQL returns BIGINT (count(*), sums) as text by default; our counts fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Prepared statements kept per connection, by SQL text. */
const STATEMENTS = 256;

/**
 * The connection as the query builder uses it, with its prepared statements kept for the next query
 * with the same SQL text (the builder prepares every query anew: preparing a bulk insert of a few
 * thousand parameters cost as much as a tenth of writing it). The oldest are dropped beyond
 * STATEMENTS. Queries are not streamed here (a statement would be busy while iterated).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (statement) statements.delete(text);
      else {
        statement = sqlite.prepare(text);
        if (statements.size >= STATEMENTS) statements.delete(statements.keys().next().value!);
      }
      statements.set(text, statement);
      return statement;
    },
  };
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
  if (config.dialect === 'sqlite') {
    const sqlite = new SQLite(config.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  } else {
    const pool = new pg.Pool({
      connectionString: config.url,
      max: 10,
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
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  try {
    if (options.migrate !== false) await migrateToLatest(kysely);
  } catch (err) {
    await kysely.destroy();
    throw err;
  }
  return { kysely, dialect: config.dialect, close: () => kysely.destroy() };
}

/** The names of the tables the database has (Kysely's migration tables included). */
export async function tableNames(db: Db): Promise<string[]> {
  const tables = await db.kysely.introspection.getTables({ withInternalKyselyTables: true });
  return tables.filter((t) => !t.isView).map((t) => t.name);
}
