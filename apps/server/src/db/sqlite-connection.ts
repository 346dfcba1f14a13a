import SQLite from 'better-sqlite3';

/** Prepared statements kept per connection, by SQL text. */
const STATEMENTS = 256;

/**
 * The connection as the query builder uses it, with its prepared statements kept for the next query
 * with the same SQL text (the builder prepares every query anew: preparing a bulk insert of a few
 * thousand parameters cost as much as a tenth of writing it). The oldest are dropped beyond
 * STATEMENTS. Queries are not streamed here (a statement would be busy while iterated).
 */
export function withStatementCache(sqlite: SQLite.Database): {
  close(): void;
  prepare(text: string): SQLite.Statement;
} {
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
 * Opens a connection to the SQLite file as every connection of the portal uses it: write-ahead log,
 * commits synced at checkpoints, foreign keys kept, and `busyMs` of waiting inside SQLite for another
 * connection's write lock (on the event loop short, the rest waited asynchronously: database.ts).
 */
export function openSqlite(file: string, busyMs: number): SQLite.Database {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${busyMs}`);
  return sqlite;
}
