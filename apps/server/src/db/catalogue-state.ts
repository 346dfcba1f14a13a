import { sql, type Kysely, type Transaction } from 'kysely';
import { ALL_ASSETS, pause, writtenParts, type TextDocument, type WrittenChange } from '@vitrine/search-engine';
import { isPostgres } from './dialect.ts';
import type { Database } from './schema.ts';

type Executor = Transaction<Database> | Kysely<Database>;

/** What an asset write tells the full-text index, in the write's own transaction. */
export interface CatalogueWriteFeed {
  /** First in the transaction, before the change sequence is taken (the lock order of the purge). */
  begin(trx: Kysely<Database>): Promise<void>;
  /**
   * After the assets of change `seq` were written; `fresh` when none of them existed before. `rows`
   * answers what was written of them: status, file name and the values of `fields` at least (asked
   * only when the feed writes: a change of existing assets reads them back for it). Answers the
   * full-text documents it wrote (those of the live assets), or nothing when it left the change to
   * the catch-up.
   */
  written(
    trx: Kysely<Database>,
    seq: number,
    ids: readonly number[],
    fresh: boolean,
    rows: (fields: readonly string[]) => WrittenRows | Promise<WrittenRows>,
  ): Promise<readonly TextDocument[] | undefined>;
  /**
   * The value fields `written` asks `rows` for (SQLite's full-text documents), or none when it reads
   * what it needs itself: a writer that read them already hands them over (an edit).
   */
  textFields?(): readonly string[];
}

/** The rows an asset write wrote that the full-text index reads. */
export interface WrittenRows {
  assets: { id: number; status: string; filename: string }[];
  values: { asset_id: number; field: string; lang: string; ord: number; value: string }[];
}

/**
 * Rows of catalogue_change per statement (four parameters each), a statement a turn of the event
 * loop: 5,000 scattered ids of an edit in one statement held it some 60 ms at a million assets.
 */
const CHANGE_ROWS = 1000;

/**
 * Starts a change of the catalogue: takes the next change sequence number (the catalogue
 * generation) and with it the row lock on catalogue_state, held until the transaction ends. Call it
 * first in every transaction that writes assets: writers then commit in sequence order and new
 * asset ids grow in that order too, so a reader that has seen sequence n has seen every change up
 * to n, and an index catching up never meets a new id below one it already holds.
 */
export async function beginCatalogueChange(trx: Executor): Promise<number> {
  const row = await trx
    .updateTable('catalogue_state')
    .set({ generation: sql`generation + 1` })
    .where('id', '=', 1)
    .returning('generation')
    .executeTakeFirstOrThrow();
  return Number(row.generation);
}

/**
 * Records which assets change `seq` touched, as runs of consecutive ids (a bulk import is one row
 * per transaction), or every asset.
 */
export async function recordCatalogueChange(
  trx: Executor,
  seq: number,
  ids: readonly number[] | 'all',
  countOnly = false,
): Promise<void> {
  const runs = ids === 'all' ? [ALL_ASSETS] : idRuns(ids);
  const count_only = countOnly ? 1 : 0;
  for (let i = 0; i < runs.length; i += CHANGE_ROWS) {
    if (i > 0) await pause();
    await trx
      .insertInto('catalogue_change')
      .values(runs.slice(i, i + CHANGE_ROWS).map(([first_id, last_id]) => ({ seq, first_id, last_id, count_only })))
      .execute();
  }
}

/**
 * Whether changes are kept as written for other processes (`keepWrittenChange`): only where several
 * server processes share a catalogue, PostgreSQL (one process serves an SQLite file).
 */
export const keepsWrittenChanges = (db: Kysely<Database>): boolean => isPostgres(db);

/**
 * Keeps change `change.seq` as its writer wrote it beside the change log, in the writer's
 * transaction, for the catalogue's other processes (Catalogue.writtenParts): pruned with the log.
 */
export async function keepWrittenChange(trx: Executor, change: WrittenChange): Promise<void> {
  let part = 0;
  for await (const body of writtenParts(change)) {
    await trx.insertInto('catalogue_change_written').values({ seq: change.seq, part: part++, body }).execute();
  }
}

/**
 * Begins and records a change whose assets are known up front. `countOnly`: it changes nothing the
 * full-text index reads (download counts, visual signatures), so that index has nothing to read
 * again (the facet index still does).
 */
export async function changeCatalogue(
  trx: Executor,
  ids: readonly number[] | 'all',
  countOnly = false,
): Promise<number> {
  const seq = await beginCatalogueChange(trx);
  await recordCatalogueChange(trx, seq, ids, countOnly);
  return seq;
}

/** Sorted runs of consecutive ids. */
export function idRuns(ids: readonly number[]): [number, number][] {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const id of sorted) {
    const last = runs[runs.length - 1];
    if (last && last[1] === id - 1) last[1] = id;
    else runs.push([id, id]);
  }
  return runs;
}
