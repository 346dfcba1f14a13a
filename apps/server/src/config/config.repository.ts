import type { Db } from '../db/database.ts';

/**
 * Configuration documents (the global config, translation sets, custom pages) stored as JSON text,
 * one row per name and language ('' when the document has no language).
 */
export class ConfigRepository {
  constructor(private readonly db: Db) {}

  async get(name: string, lang = ''): Promise<unknown> {
    const row = await this.db.kysely
      .selectFrom('config_document')
      .select('body')
      .where('name', '=', name)
      .where('lang', '=', lang)
      .executeTakeFirst();
    return row ? (JSON.parse(row.body) as unknown) : undefined;
  }

  async put(name: string, lang: string, value: unknown): Promise<void> {
    const body = JSON.stringify(value);
    const updated_at = new Date().toISOString();
    await this.db.kysely
      .insertInto('config_document')
      .values({ name, lang, body, updated_at })
      .onConflict((oc) => oc.columns(['name', 'lang']).doUpdateSet({ body, updated_at }))
      .execute();
  }

  async languages(name: string): Promise<string[]> {
    const rows = await this.db.kysely
      .selectFrom('config_document')
      .select('lang')
      .where('name', '=', name)
      .orderBy('lang')
      .execute();
    return rows.map((r) => r.lang);
  }

  async remove(name: string, lang = ''): Promise<boolean> {
    const result = await this.db.kysely
      .deleteFrom('config_document')
      .where('name', '=', name)
      .where('lang', '=', lang)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Replaces a document and records the new version in the history, in one transaction: concurrent
   * saves each leave one whole document, the later one wins. The document is written first: its row
   * lock makes concurrent saves of one document take turns, so the newest history entry is always
   * the document as stored (history ids are taken in commit order).
   */
  async save(name: string, lang: string, value: unknown, savedBy: string, restoredFrom: number | null = null) {
    const body = JSON.stringify(value);
    const saved_at = new Date().toISOString();
    return this.db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('config_document')
        .values({ name, lang, body, updated_at: saved_at })
        .onConflict((oc) => oc.columns(['name', 'lang']).doUpdateSet({ body, updated_at: saved_at }))
        .execute();
      const entry = await trx
        .insertInto('config_history')
        .values({ name, lang, body, saved_by: savedBy, saved_at, restored_from: restoredFrom })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(entry.id);
    });
  }

  /** Saved versions of a document, newest first. */
  async history(name: string, lang: string, limit: number) {
    const rows = await this.db.kysely
      .selectFrom('config_history')
      .select(['id', 'body', 'saved_by', 'saved_at', 'restored_from'])
      .where('name', '=', name)
      .where('lang', '=', lang)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      body: JSON.parse(r.body) as unknown,
      saved_by: r.saved_by,
      saved_at: r.saved_at,
      restored_from: r.restored_from === null ? null : Number(r.restored_from),
    }));
  }

  async historyEntry(name: string, lang: string, id: number): Promise<unknown> {
    const row = await this.db.kysely
      .selectFrom('config_history')
      .select('body')
      .where('id', '=', id)
      .where('name', '=', name)
      .where('lang', '=', lang)
      .executeTakeFirst();
    return row ? (JSON.parse(row.body) as unknown) : undefined;
  }
}
