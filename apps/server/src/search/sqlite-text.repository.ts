import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/database.ts';
import { parseIdList, type TextAtom, type TextDocument, type TextIndex } from '@vitrine/search-engine';

/** FTS5 query text of one atom: tokens are [\p{L}\p{N}]+ after folding, so quoting them is safe. */
export function fts5Expression(atom: TextAtom): string {
  const phrase = `"${atom.tokens.join(' ')}"${atom.prefix ? '*' : ''}`;
  return atom.scope === 'title' ? `title : ${phrase}` : `body : ${phrase}`;
}

/** Full-text index in an SQLite FTS5 table (search_fts, rowid = asset id). */
export class SqliteTextIndex implements TextIndex<Kysely<Database>> {
  constructor(private readonly db: Db) {}

  async write(
    docs: readonly TextDocument[],
    removed: readonly number[],
    executor: Kysely<Database>,
    fresh = false,
  ): Promise<void> {
    const ids = fresh ? removed : [...docs.map((d) => d.id), ...removed];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      await sql`delete from search_fts where rowid in (${sql.join(chunk)})`.execute(executor);
    }
    for (let i = 0; i < docs.length; i += 300) {
      const rows = docs.slice(i, i + 300).map((d) => sql`(${d.id}, ${d.title}, ${d.body})`);
      await sql`insert into search_fts (rowid, title, body) values ${sql.join(rows)}`.execute(executor);
    }
  }

  async clear(executor: Kysely<Database>): Promise<void> {
    await sql`delete from search_fts`.execute(executor);
  }

  async match(atom: TextAtom): Promise<Int32Array> {
    const { rows } = await sql<{ ids: string | null }>`
      select group_concat(rowid) as ids from search_fts where search_fts match ${fts5Expression(atom)}`.execute(
      this.db.kysely,
    );
    return parseIdList(rows[0]?.ids);
  }
}
