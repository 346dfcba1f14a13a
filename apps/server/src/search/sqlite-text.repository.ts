import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/database.ts';
import {
  indexedDocument,
  parseIdList,
  pause,
  type TextAtom,
  type TextDocument,
  type TextIndex,
} from '@vitrine/search-engine';

/**
 * Documents from which the index is dear to ask for a common word: FTS5 reads a word's matches at
 * about 2.5 million ids a second (a word in a fifth of a million documents, some 50 ms on a first
 * search; of ten million, 800 ms). Below it the engine asks the index each time; from it the engine
 * keeps the frequent words' postings in memory (frequent-words.ts).
 */
export const SQLITE_FREQUENT_FROM = 2_000_000;

/** FTS5 query text of one atom: tokens are [\p{L}\p{N}]+ after folding, so quoting them is safe. */
export function fts5Expression(atom: TextAtom): string {
  const phrase = `"${atom.tokens.join(' ')}"${atom.prefix ? '*' : ''}`;
  return atom.scope === 'title' ? `title : ${phrase}` : `body : ${phrase}`;
}

/** Full-text index in an SQLite FTS5 table (search_fts, rowid = asset id). */
/**
 * One step of merging the full-text index's segments (about 500 pages, a few tens of milliseconds),
 * done only where a level holds four or more, as SQLite's automatic merges did in the writing
 * statements before decision 0272; the server's upkeep thread runs it (adapters/checkpointer.ts).
 */
export const TEXT_MERGE_STEP = `insert into search_fts (search_fts, rank) values ('merge', 500)`;

export class SqliteTextIndex implements TextIndex<Kysely<Database>> {
  constructor(
    private readonly db: Db,
    /** Documents from which frequentWords names any (SQLITE_FREQUENT_FROM). */
    private readonly frequentFrom = SQLITE_FREQUENT_FROM,
  ) {}

  async write(
    docs: readonly TextDocument[],
    removed: readonly number[],
    executor: Kysely<Database>,
    fresh = false,
  ): Promise<void> {
    const ids = fresh ? removed : [...docs.map((d) => d.id), ...removed];
    // A turn of the event loop between statements: SQLite answers synchronously, and each of these
    // holds the loop some 10–30 ms (an edit of thousands of assets runs beside searches).
    for (let i = 0; i < ids.length; i += 500) {
      if (i > 0) await pause();
      const chunk = ids.slice(i, i + 500);
      await sql`delete from search_fts where rowid in (${sql.join(chunk)})`.execute(executor);
    }
    for (let i = 0; i < docs.length; i += 300) {
      await pause();
      const rows = docs.slice(i, i + 300).map((doc) => {
        const d = indexedDocument(doc);
        return sql`(${d.id}, ${d.title}, ${d.body})`;
      });
      await sql`insert into search_fts (rowid, title, body) values ${sql.join(rows)}`.execute(executor);
    }
  }

  async clear(executor: Kysely<Database>): Promise<void> {
    await sql`delete from search_fts`.execute(executor);
  }

  /**
   * Exact: FTS5's vocabulary of the body column counts the documents of each word from the index's
   * own lists (about 1.3 s at a million documents), no sample needed.
   */
  async frequentWords(minDocs: number, documents = 0): Promise<string[]> {
    if (documents < this.frequentFrom) return [];
    await sql`create virtual table if not exists temp.search_fts_words using fts5vocab(main, search_fts, 'col')`.execute(
      this.db.kysely,
    );
    const { rows } = await sql<{ term: string }>`
      select term from temp.search_fts_words where col = 'body' and doc >= ${minDocs}`.execute(this.db.kysely);
    return rows.map((r) => r.term);
  }

  async match(atom: TextAtom): Promise<Int32Array> {
    const { rows } = await sql<{ ids: string | null }>`
      select group_concat(rowid) as ids from search_fts where search_fts match ${fts5Expression(atom)}`.execute(
      this.db.kysely,
    );
    // SQLite answered synchronously (a common word at a million assets: some 20 ms); reading its
    // ids is a turn of its own.
    await pause();
    return parseIdList(rows[0]?.ids);
  }
}
