import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
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

export async function openDatabase(config: Settings['database']): Promise<Db> {
  let kysely: Kysely<Database>;
  if (config.dialect === 'sqlite') {
    const sqlite = new SQLite(config.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  } else {
    kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: config.url, max: 10 }) }),
    });
  }
  try {
    await migrateToLatest(kysely);
  } catch (err) {
    await kysely.destroy();
    throw err;
  }
  return { kysely, dialect: config.dialect, close: () => kysely.destroy() };
}
