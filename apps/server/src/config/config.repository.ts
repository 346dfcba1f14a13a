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
}
