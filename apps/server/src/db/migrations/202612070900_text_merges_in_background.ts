import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * SQLite's full-text index no longer merges its segments in the statement that writes them
 * (`automerge` 0; decision 0272): a write of 5,000 documents that happened to set a merge off took
 * 1.2–2.9 s instead of 0.35–0.5 s at a million assets. A server process merges in its upkeep thread
 * instead (adapters/checkpointer.ts); without one (an import alone), SQLite's crisis merge still
 * bounds the segments of a level to 16.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`insert into search_fts (search_fts, rank) values ('automerge', 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`insert into search_fts (search_fts, rank) values ('automerge', 4)`.execute(db);
}
