import type { Kysely } from 'kysely';
import {
  pause,
  rowsByAsset,
  textDocuments,
  textValueFields,
  writeDocuments,
  type FieldRegistry,
  type TextDocument,
  type TextIndex,
} from '@vitrine/search-engine';
import { indexRule } from '../access/rule.ts';
import type { CatalogueWriteFeed, WrittenRows } from '../db/catalogue-state.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { statementRows } from '../db/write-thread.ts';
import { SearchRepository } from './search.repository.ts';

/** Assets whose documents are made and written in one turn of the event loop. */
const TEXT_SLICE = 250;

/** Compares texts as SQLite's binary collation does (UTF-8 bytes, that is code points). */
function binaryText(a: string, b: string): number {
  if (a === b) return 0;
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(a + b)) return a < b ? -1 : 1;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** The order of a catch-up's read of asset_value (asset_id, field, lang, ord; search.repository.ts batch). */
function binaryOrder(a: WrittenRows['values'][number], b: WrittenRows['values'][number]): number {
  return a.asset_id - b.asset_id || binaryText(a.field, b.field) || binaryText(a.lang, b.lang) || a.ord - b.ord;
}

/**
 * Feeds the shared full-text index in the transaction that writes the assets, so a bulk write
 * (import, bench data) leaves no text to catch up afterwards. It does so only when the index is
 * current up to the change before this one (or the catalogue was empty): then writing this
 * change's texts and moving the watermark to it keeps the index exactly as a catch-up would. Else
 * (another process's change not yet caught up, a full load under way) it leaves the change to the
 * catch-up (@vitrine/search-engine, catch-up), as before.
 */
export class TextFeed implements CatalogueWriteFeed {
  constructor(
    private readonly db: Db,
    private readonly text: TextIndex<Kysely<Database>>,
    private readonly fields: FieldRegistry,
  ) {}

  async begin(trx: Kysely<Database>): Promise<void> {
    await new SearchRepository(this.db, trx).lockTextState();
  }

  textFields(): readonly string[] {
    return textValueFields(this.fields);
  }

  async written(
    trx: Kysely<Database>,
    seq: number,
    ids: readonly number[],
    fresh: boolean,
    rows: (fields: readonly string[]) => WrittenRows | Promise<WrittenRows>,
  ): Promise<readonly TextDocument[] | undefined> {
    const repository = new SearchRepository(this.db, trx);
    const state = await repository.textState();
    if (state.loadSeq !== -1 || ids.length === 0) return undefined;
    if (state.watermark === -1) {
      // Never loaded: current once emptied, if this change wrote the catalogue's first assets.
      const first = Math.min(...ids);
      if (!fresh || (await repository.idsBetween(0, first - 1, 0, 1)).length > 0) return undefined;
      await this.text.clear(trx);
      // The index is made anew from these fields: recorded, or the first server start would take it
      // for one of unknown fields and make it yet again (a full load of every asset's texts).
      await repository.setTextFields(this.fields.textSignature, false);
    } else if (state.watermark !== seq - 1) return undefined;
    // The rows just written, in the order a catch-up reads them (code points, search.repository.ts
    // batch), instead of reading them again.
    const names = this.textFields();
    const fields = new Set(names);
    const written = await rows(names);
    const assets = new Map(written.assets.map((a) => [a.id, a]));
    const values = rowsByAsset(written.values.filter((v) => fields.has(v.field)));
    const documents: TextDocument[] = [];
    // A few hundred assets' documents made at a time, with a turn of the event loop between: made
    // at once, thousands of them held it over 100 ms (an edit runs beside searches). A statement
    // writes more of them where the database works off the event loop (statementRows).
    const slice = statementRows(trx, TEXT_SLICE);
    for (let i = 0; i < ids.length; i += slice) {
      const some = ids.slice(i, i + slice);
      const docs: TextDocument[] = [];
      for (let j = 0; j < some.length; j += TEXT_SLICE) {
        if (i + j > 0) await pause();
        const part = some.slice(j, j + TEXT_SLICE);
        const batch = {
          assets: part.flatMap((id) => assets.get(id) ?? []),
          values: part.flatMap((id) => values.get(id) ?? []).sort(binaryOrder),
        };
        docs.push(...textDocuments(batch, indexRule));
      }
      await writeDocuments(trx, this.text, some, docs, fresh);
      documents.push(...docs);
    }
    await repository.setTextState({ ...state, watermark: seq });
    return documents;
  }
}
