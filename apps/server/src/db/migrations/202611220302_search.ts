import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * The full-text index of the search engine: SQLite FTS5 or PostgreSQL tsvector/GIN, both fed with
 * folded tokens (search/text.ts) so they match alike. `title` feeds relevance, `body` holds every
 * searchable field (title included). search_state remembers up to which asset change (updated_at)
 * the index has caught up and at which catalogue generation, shared by every server process.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('text_watermark', 'bigint', (c) => c.notNull())
    .addColumn('text_generation', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into search_state (id, text_watermark, text_generation) values (1, -1, -1)`.execute(db);
  // Catching up reads "assets changed since": without this index that is a scan of the catalogue.
  await db.schema.createIndex('asset_updated_idx').on('asset').column('updated_at').execute();

  if (isPostgres(db)) {
    await db.schema
      .createTable('search_document')
      .addColumn('asset_id', 'bigint', (c) => c.primaryKey())
      .addColumn('title', sql`tsvector`, (c) => c.notNull())
      .addColumn('body', sql`tsvector`, (c) => c.notNull())
      .execute();
    await sql`create index search_document_title_idx on search_document using gin (title)`.execute(db);
    await sql`create index search_document_body_idx on search_document using gin (body)`.execute(db);
  } else {
    await sql`create virtual table search_fts using fts5(title, body, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable(isPostgres(db) ? 'search_document' : 'search_fts').execute();
  await db.schema.dropTable('search_state').execute();
  await db.schema.dropIndex('asset_updated_idx').execute();
}
