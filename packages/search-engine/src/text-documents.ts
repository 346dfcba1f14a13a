/**
 * The documents of the full-text index made from the catalogue's rows, and their writing: the
 * catch-up (catch-up/text-catch-up.ts) and the host's feed of asset writes (the server's TextFeed)
 * both write texts this way, so the text index holds the same whichever wrote them.
 */
import type { FieldRegistry } from './fields.ts';
import { rowsByAsset, type AccessRule, type Catalogue, type CatalogueAsset, type ValueRow } from './ports.ts';
import { pause } from './engine-types.ts';
import { indexText } from './text.ts';
import type { TextDocument, TextIndex } from './text-index.ts';

/** The searchable fields kept in asset_value (the others are asset columns). */
export function textValueFields(fields: FieldRegistry): string[] {
  return fields.searchable.filter((f) => f.storage === 'value').map((f) => f.field_name);
}

/** The documents of the live assets of a batch read with the text fields' values. */
export function textDocuments(
  batch: { assets: readonly CatalogueAsset[]; values: readonly ValueRow[] },
  rule: Pick<AccessRule, 'isLive'>,
): TextDocument[] {
  const values = rowsByAsset(batch.values);
  return batch.assets
    .filter((a) => rule.isLive(a.status))
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
 * Writes the texts of these assets as the database holds them (read in `catalogue`'s transaction
 * `trx`); those gone or no longer live leave the index. `fresh`: none of them is in the index yet.
 * Answers the documents written (those of the live assets).
 */
export async function writeTexts<Tx>(
  catalogue: Catalogue<Tx>,
  trx: Tx,
  text: TextIndex<Tx>,
  fields: FieldRegistry,
  rule: Pick<AccessRule, 'isLive'>,
  ids: readonly number[],
  fresh = false,
): Promise<TextDocument[]> {
  const batch = await catalogue.batch(ids, textValueFields(fields), false);
  // Made a slice at a time with a turn between: 5,000 documents at once held the event loop some
  // 50 ms and left as much garbage to collect (an edit on PostgreSQL).
  const values = rowsByAsset(batch.values);
  const docs: TextDocument[] = [];
  for (let i = 0; i < batch.assets.length; i += DOCUMENT_SLICE) {
    if (i > 0) await pause();
    const assets = batch.assets.slice(i, i + DOCUMENT_SLICE);
    docs.push(...textDocuments({ assets, values: assets.flatMap((a) => values.get(a.id) ?? []) }, rule));
  }
  await writeDocuments(trx, text, ids, docs, fresh);
  return docs;
}

/** Documents made in one turn of the event loop (writeTexts). */
const DOCUMENT_SLICE = 250;

/** Writes the documents of these assets; those without one leave the index. */
export async function writeDocuments<Tx>(
  trx: Tx,
  text: TextIndex<Tx>,
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
