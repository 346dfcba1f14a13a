import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/database.ts';
import {
  parseIdList,
  TSVECTOR_TEXT_CHARS,
  type TextAtom,
  type TextDocument,
  type TextIndex,
} from '@vitrine/search-engine';

/** Documents read to find the frequent words of a large index (a random sample of them). */
const FREQUENT_SAMPLE = 200_000;

/** tsquery text of one atom ('simple' configuration: the tokens are already folded). */
export function tsqueryExpression(atom: TextAtom): string {
  const last = atom.tokens.length - 1;
  return atom.tokens.map((t, i) => `'${t}'${atom.prefix && i === last ? ':*' : ''}`).join(' <-> ');
}

/** Full-text index in PostgreSQL: tsvector columns with GIN indexes (search_document). */
export class PostgresTextIndex implements TextIndex<Kysely<Database>> {
  constructor(
    private readonly db: Db,
    /** Documents read to find the frequent words of an index larger than that. */
    private readonly sampleSize = FREQUENT_SAMPLE,
  ) {}

  async write(docs: readonly TextDocument[], removed: readonly number[], trx: Kysely<Database>): Promise<void> {
    if (removed.length > 0) {
      await sql`delete from search_document where asset_id = any(${[...removed]}::bigint[])`.execute(trx);
    }
    // The body vector starts with the title, so a long body cannot push the title out of it.
    const limit = TSVECTOR_TEXT_CHARS;
    for (let i = 0; i < docs.length; i += 1000) {
      const chunk = docs.slice(i, i + 1000);
      await sql`
          insert into search_document (asset_id, title, body)
          select id, to_tsvector('simple', left(title, ${limit})),
                 to_tsvector('simple', left(title, ${limit}))
                   || to_tsvector('simple', left(body, greatest(${limit} - length(title), 0)))
          from unnest(${chunk.map((d) => d.id)}::bigint[], ${chunk.map((d) => d.title)}::text[],
                      ${chunk.map((d) => d.body)}::text[]) as t(id, title, body)
          on conflict (asset_id) do update set title = excluded.title, body = excluded.body`.execute(trx);
    }
  }

  async clear(executor: Kysely<Database>): Promise<void> {
    await sql`truncate search_document`.execute(executor);
  }

  /**
   * The body vector holds the title too, so one bitmap scan of the body index finds both lists:
   * reading the matched rows is the dear part for a common word, and this reads them once. Ids are
   * sorted here rather than by the database.
   */
  async matchWithTitle(atom: TextAtom): Promise<{ all: Int32Array; title: Int32Array }> {
    const query = sql`to_tsquery('simple', ${tsqueryExpression(atom)})`;
    const { rows } = await sql<{ ids: string | null; title: string | null }>`
      select string_agg(asset_id::text, ',') as ids,
             string_agg(asset_id::text, ',') filter (where title @@ ${query}) as title
      from search_document where body @@ ${query}`.execute(this.db.kysely);
    return { all: parseIdList(rows[0]?.ids), title: parseIdList(rows[0]?.title) };
  }

  async frequentWords(minDocs: number, documents = 0): Promise<string[]> {
    // Reading every document's words costs seconds at a million: a large index is read from a
    // random sample of its rows, with a bound low enough that a word at minDocs is all but never
    // missed (a missed word is still found, through the index, on its first search).
    const share = Math.min(1, this.sampleSize / Math.max(1, documents));
    const source =
      share < 1
        ? `select body from search_document tablesample bernoulli (${(share * 100).toFixed(4)}) repeatable (1)`
        : 'select body from search_document';
    const bound = share < 1 ? Math.floor(minDocs * share * 0.8) : minDocs;
    const { rows } = await sql<{ word: string }>`
      select word from ts_stat(${source}) where ndoc >= ${bound}`.execute(this.db.kysely);
    return rows.map((r) => r.word);
  }

  async match(atom: TextAtom): Promise<Int32Array> {
    const column = atom.scope === 'title' ? sql.ref('title') : sql.ref('body');
    const { rows } = await sql<{ ids: string | null }>`
      select string_agg(asset_id::text, ',' order by asset_id) as ids from search_document
      where ${column} @@ to_tsquery('simple', ${tsqueryExpression(atom)})`.execute(this.db.kysely);
    return parseIdList(rows[0]?.ids);
  }
}
