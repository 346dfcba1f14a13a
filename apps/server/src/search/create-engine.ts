import type { Kysely } from 'kysely';
import { FieldRegistry, SearchEngine, type TextIndex } from '@vitrine/search-engine';
import { declaredFields } from '../access/field-audience.ts';
import { indexRule } from '../access/rule.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { Settings } from '../settings.ts';
import { PostgresTextIndex } from './postgres-text.repository.ts';
import { SearchRepository } from './search.repository.ts';
import { SqliteTextIndex } from './sqlite-text.repository.ts';
import { TextFeed } from './text-feed.ts';

/** The index snapshot's file name in DATA_DIR. */
export const SNAPSHOT_FILE = 'search-index.snapshot';

/** The engine for the configured database: FTS5 on SQLite, tsvector/GIN on PostgreSQL. */
export function createSearchEngine(
  db: Db,
  fields: Settings['file']['fields'],
  options: ConstructorParameters<typeof SearchEngine>[2] = {},
  /** The catalogue's reads; the server shares its own, which answers what the engine's checks saw. */
  catalogue = new SearchRepository(db),
): SearchEngine<Kysely<Database>> {
  const ports = { catalogue, text: textIndexOf(db), rule: indexRule };
  return new SearchEngine(ports, new FieldRegistry(declaredFields(fields)), options);
}

function textIndexOf(db: Db): TextIndex<Kysely<Database>> {
  return db.dialect === 'postgres' ? new PostgresTextIndex(db) : new SqliteTextIndex(db);
}

/** The full-text feed of asset writes (CatalogueRepository) for the configured database and fields. */
export function createTextFeed(db: Db, fields: Settings['file']['fields']): TextFeed {
  return new TextFeed(db, textIndexOf(db), new FieldRegistry(declaredFields(fields)));
}
