import type { Db } from '../db/database.ts';
import type { Settings } from '../settings.ts';
import { FieldRegistry } from './fields.ts';
import { PostgresTextIndex } from './postgres-text.repository.ts';
import { SearchEngine } from './search-engine.ts';
import { SearchRepository } from './search.repository.ts';
import { SqliteTextIndex } from './sqlite-text.repository.ts';

/** The index snapshot's file name in DATA_DIR. */
export const SNAPSHOT_FILE = 'search-index.snapshot';

/** The engine for the configured database: FTS5 on SQLite, tsvector/GIN on PostgreSQL. */
export function createSearchEngine(
  db: Db,
  declaredFields: Settings['file']['fields'],
  options: ConstructorParameters<typeof SearchEngine>[3] = {},
): SearchEngine {
  const text = db.dialect === 'postgres' ? new PostgresTextIndex(db) : new SqliteTextIndex(db);
  return new SearchEngine(new SearchRepository(db), text, new FieldRegistry(declaredFields), options);
}
