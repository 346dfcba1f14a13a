import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The edit overlay (decision 0250) as the asset-write path applies it: the values of one field of an
 * asset, per language, in the shape the history and `asset_edit.imported` keep them (JSON).
 * Besides index fields, three pseudo-fields: `created` (the date column, as an ISO 8601 text),
 * `access_groups` (group names) and `collections` (collection ids as texts).
 */
export type FieldValues = Record<string, string[]>;

export const CREATED = 'created';
export const ACCESS_GROUPS = 'access_groups';
export const COLLECTIONS = 'collections';
export const STATUS = 'status';

/** Values of one index field from value rows (in their order within each language). */
export function valuesOfField(rows: readonly { field: string; lang: string; value: string }[], field: string) {
  const out: FieldValues = {};
  for (const r of rows) if (r.field === field) (out[r.lang] ??= []).push(r.value);
  return out;
}

export const createdValues = (ms: number | null | undefined): FieldValues =>
  ms === null || ms === undefined ? {} : { '': [new Date(Number(ms)).toISOString()] };

export const createdMs = (values: FieldValues): number | null => {
  const iso = values['']?.[0];
  return iso === undefined ? null : Date.parse(iso);
};

export const listValues = (list: readonly (string | number)[]): FieldValues =>
  list.length === 0 ? {} : { '': list.map(String) };

/** The same values, whatever the order of their languages (a field's change is recorded only when they differ). */
export function sameValues(a: FieldValues | null, b: FieldValues | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  // As their canonical texts compare (below), without making them: a bulk edit compares thousands.
  let langs = 0;
  for (const lang in a) {
    const x = a[lang]!;
    if (x.length === 0) continue;
    langs++;
    const y = b[lang];
    if (y?.length !== x.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  }
  for (const lang in b) if (b[lang]!.length > 0) langs--;
  return langs === 0;
}

/** A stable JSON text of values: languages sorted, empty languages left out. */
export function canonical(values: FieldValues | null): string {
  if (values === null) return 'null';
  // Most values are one language, or sorted already: their JSON text is the canonical one.
  const keys = Object.keys(values);
  let sorted = true;
  for (let i = 0; i < keys.length && sorted; i++)
    sorted = values[keys[i]!]!.length > 0 && (i === 0 || keys[i - 1]! < keys[i]!);
  if (sorted) return JSON.stringify(values);
  const langs = Object.keys(values)
    .filter((l) => (values[l]?.length ?? 0) > 0)
    .sort();
  return JSON.stringify(Object.fromEntries(langs.map((l) => [l, values[l]])));
}

/** Values read back from their JSON text. */
export const parseValues = (text: string | null): FieldValues | null =>
  text === null ? null : (JSON.parse(text) as FieldValues);

/** The edited fields of assets, by asset id: one indexed read per batch of ids. */
export async function editedFields(trx: Kysely<Database>, ids: readonly number[]): Promise<Map<number, Set<string>>> {
  const out = new Map<number, Set<string>>();
  if (ids.length === 0) return out;
  const rows = await trx.selectFrom('asset_edit').select(['asset_id', 'field']).where('asset_id', 'in', ids).execute();
  for (const r of rows) {
    const id = Number(r.asset_id);
    let set = out.get(id);
    if (!set) out.set(id, (set = new Set()));
    set.add(r.field);
  }
  return out;
}
