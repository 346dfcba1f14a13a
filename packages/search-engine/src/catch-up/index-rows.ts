/**
 * Applying catalogue rows to the in-memory index: a batch of assets read from the catalogue becomes
 * the rows the facet index keeps (codes per coded field and content language, numbers, file name,
 * access groups, live or not).
 */
import type { IndexRow } from '../facet-index/facet-index.ts';
import { parseNumber } from '../facets.ts';
import { columnOf, pickLanguage, type FieldRegistry, type SearchField } from '../fields.ts';
import { isPerLanguage, languageColumn } from '../index-view.ts';
import { rowsByAsset, type AccessRule, type AssetBatch, type SignatureRow, type ValueRow } from '../ports.ts';

/** The value fields (asset_value) the in-memory index keeps. */
export function indexValueFields(fields: FieldRegistry): string[] {
  return fields.all
    .filter((f) => (f.coded || f.numeric) && f.storage === 'value' && f.field_name !== 'meta_collections')
    .map((f) => f.field_name);
}

/**
 * The columns of a coded value field from an asset's rows of it, put into `codes`: per language the
 * values that language's docs show (asset-presenter) for a per-language field, so a value that
 * exists in one language only still counts once.
 */
export function valueFieldCodes(
  f: SearchField,
  mine: ValueRow[],
  indexLanguages: readonly string[],
  codes: Record<string, string[]>,
): void {
  if (!isPerLanguage(f)) {
    codes[f.field_name] = mine.map((v) => v.value);
    return;
  }
  for (const lang of indexLanguages)
    codes[languageColumn(f.field_name, lang)] = pickLanguage(mine, lang).map((v) => v.value);
}

/** The rows of a batch as the index keeps them; content languages met on its values are added to `languages`. */
export function indexRows(
  batch: AssetBatch,
  fields: FieldRegistry,
  indexLanguages: readonly string[],
  languages: Set<string>,
  rule: Pick<AccessRule, 'isLive'>,
  /** The batch's visual signatures, when the host has them. */
  signatures: readonly SignatureRow[] = [],
): IndexRow[] {
  const visual = new Map(signatures.map((s) => [s.asset_id, s]));
  const values = rowsByAsset(batch.values);
  const access = rowsByAsset(batch.access);
  const collections = rowsByAsset(batch.collections);
  return batch.assets.map((a) => {
    const own = values.get(a.id) ?? [];
    for (const v of own) if (v.lang) languages.add(v.lang);
    const row: IndexRow = {
      id: a.id,
      active: rule.isLive(a.status),
      access: (access.get(a.id) ?? []).map((g) => g.group_name),
      codes: {},
      numbers: {},
      strings: { filename: a.filename },
      visual: visual.get(a.id) ?? null,
    };
    const column = (name: string): string | number | null =>
      (a as unknown as Record<string, string | number | null>)[columnOf[name] ?? name] ?? null;
    for (const f of fields.coded) {
      const name = f.field_name;
      if (name === 'meta_collections') {
        row.codes[name] = (collections.get(a.id) ?? []).map((c) => String(c.collection_id));
      } else if (f.storage === 'column') {
        const v = column(name);
        row.codes[name] = v == null ? [] : [String(v)];
      } else {
        valueFieldCodes(
          f,
          own.filter((v) => v.field === name),
          indexLanguages,
          row.codes,
        );
      }
    }
    for (const f of fields.numeric) {
      const name = f.field_name;
      if (f.storage === 'column') {
        const v = column(name);
        row.numbers[name] = v == null ? null : Number(v);
      } else {
        const v = own.find((x) => x.field === name);
        row.numbers[name] = v ? parseNumber(v.value, f.type === 'date') : null;
      }
    }
    return row;
  });
}
