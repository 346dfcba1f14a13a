import type { Kysely } from 'kysely';
import { isLive } from '../access/rule.ts';
import type { CatalogueWriteFeed, WrittenRows } from '../db/catalogue-state.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { FieldRegistry } from './fields.ts';
import { rowsByAsset, SearchRepository } from './search.repository.ts';
import { indexText } from './text.ts';
import type { TextDocument, TextIndex } from './text-index.ts';

/** The searchable fields kept in asset_value (the others are asset columns). */
export function textValueFields(fields: FieldRegistry): string[] {
  return fields.searchable.filter((f) => f.storage === 'value').map((f) => f.field_name);
}

/** The documents of the live assets of a batch read with the text fields' values. */
export function textDocuments(batch: WrittenRows): TextDocument[] {
  const values = rowsByAsset(batch.values);
  return batch.assets
    .filter((a) => isLive(a.status))
    .map((a) => {
      const own = values.get(a.id) ?? [];
      return {
        id: a.id,
        title: indexText(own.filter((v) => v.field === 'title').map((v) => v.value)),
        body: indexText([...own.map((v) => v.value), a.filename]),
      };
    });
}

/**
 * Writes the texts of these assets as the database holds them (read in `repository`'s transaction);
 * those gone or no longer live leave the index. `fresh`: none of them is in the index yet.
 */
export async function writeTexts(
  repository: SearchRepository,
  trx: Kysely<Database>,
  text: TextIndex,
  fields: FieldRegistry,
  ids: readonly number[],
  fresh = false,
): Promise<void> {
  const batch = await repository.batch(ids, textValueFields(fields), false);
  await writeDocuments(trx, text, ids, textDocuments(batch), fresh);
}

/** Writes the documents of these assets; those without one leave the index. */
async function writeDocuments(
  trx: Kysely<Database>,
  text: TextIndex,
  ids: readonly number[],
  docs: TextDocument[],
  fresh: boolean,
): Promise<void> {
  const kept = new Set(docs.map((d) => d.id));
  await text.write(
    docs,
    ids.filter((id) => !kept.has(id)),
    trx,
    fresh,
  );
}

/** Compares texts as SQLite's binary collation does (UTF-8 bytes, that is code points). */
function binaryText(a: string, b: string): number {
  if (a === b) return 0;
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(a + b)) return a < b ? -1 : 1;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** The order of SQLite's read of asset_value (asset_id, field, lang, ord). */
function binaryOrder(a: WrittenRows['values'][number], b: WrittenRows['values'][number]): number {
  return a.asset_id - b.asset_id || binaryText(a.field, b.field) || binaryText(a.lang, b.lang) || a.ord - b.ord;
}

/**
 * Feeds the shared full-text index in the transaction that writes the assets, so a bulk write
 * (import, bench data) leaves no text to catch up afterwards. It does so only when the index is
 * current up to the change before this one (or the catalogue was empty): then writing this
 * change's texts and moving the watermark to it keeps the index exactly as a catch-up would. Else
 * (another process's change not yet caught up, a full load under way) it leaves the change to the
 * catch-up (catch-up.ts), as before.
 */
export class TextFeed implements CatalogueWriteFeed {
  constructor(
    private readonly db: Db,
    private readonly text: TextIndex,
    private readonly fields: FieldRegistry,
  ) {}

  async begin(trx: Kysely<Database>): Promise<void> {
    await new SearchRepository(this.db, trx).lockTextState();
  }

  async written(
    trx: Kysely<Database>,
    seq: number,
    ids: readonly number[],
    fresh: boolean,
    rows: WrittenRows,
  ): Promise<void> {
    const repository = new SearchRepository(this.db, trx);
    const state = await repository.textState();
    if (state.loadSeq !== -1 || ids.length === 0) return;
    if (state.watermark === -1) {
      // Never loaded: current once emptied, if this change wrote the catalogue's first assets.
      const first = Math.min(...ids);
      if (!fresh || (await repository.idsBetween(0, first - 1, 0, 1)).length > 0) return;
      await this.text.clear(trx);
    } else if (state.watermark !== seq - 1) return;
    if (this.db.dialect === 'sqlite') {
      // The rows just written, in the order SQLite reads them back (its binary collation), instead
      // of reading them again. PostgreSQL orders by the database's collation: it reads them back.
      const fields = new Set(textValueFields(this.fields));
      const values = rows.values.filter((v) => fields.has(v.field)).sort(binaryOrder);
      await writeDocuments(trx, this.text, ids, textDocuments({ assets: rows.assets, values }), fresh);
    } else await writeTexts(repository, trx, this.text, this.fields, ids, fresh);
    await repository.setTextState({ ...state, watermark: seq });
  }
}
