import type { ValueRow } from '@vitrine/search-engine';
import {
  ACCESS_GROUPS,
  COLLECTIONS,
  CREATED,
  createdMs,
  createdValues,
  listValues,
  STATUS,
  type FieldValues,
} from '../catalogue/edit-overlay.ts';
import type { AssetBatch } from '../db/asset-batch.ts';

/**
 * Assets as an edit sees them: the fields it reads, from the catalogue's rows of the assets, and
 * the rows it leaves behind once its changes are written (edit.repository.ts).
 */

/** Each asset's fields as they are now: values per language, by field. */
export type AssetFields = Map<string, FieldValues>;

/** What one asset looks like to a batch: its status and file name, and the fields the batch reads. */
export interface CurrentAsset {
  id: number;
  status: string;
  filename: string;
  fields: AssetFields;
}

/** One change of the history: a field of an asset before and after. */
export interface ChangeRow {
  asset_id: number;
  field: string;
  before: FieldValues | null;
  after: FieldValues | null;
}

/** True when `after` is `before` with values added at the end of some languages' lists (nothing else changed). */
export function appends(before: FieldValues, after: FieldValues): boolean {
  for (const [lang, values] of Object.entries(before)) {
    const now = after[lang];
    if (!now || now.length < values.length || values.some((v, i) => now[i] !== v)) return false;
  }
  return true;
}

/**
 * The value rows a change of an index field writes: every value when the field is written anew,
 * else only those appended after the values it kept (numbered on from them).
 */
export function valueRows(c: ChangeRow, how: 'rewritten' | 'appended'): (ValueRow & Record<string, unknown>)[] {
  return Object.entries(c.after ?? {}).flatMap(([lang, values]) => {
    const kept = how === 'rewritten' ? 0 : (c.before?.[lang]?.length ?? 0);
    return values.slice(kept).map((value, i) => ({ asset_id: c.asset_id, field: c.field, lang, ord: kept + i, value }));
  });
}

const pseudoFields = new Set([CREATED, ACCESS_GROUPS, COLLECTIONS, STATUS]);

/** Binary order of texts, as SQLite compares them (and the same on every database here). */
const byText = (a: string, b: string) => (a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b)));

/** The fields a batch reads of each asset, from the assets' rows. */
export function currentOf(read: AssetBatch, fields: readonly string[]): Map<number, CurrentAsset> {
  const out = new Map<number, CurrentAsset>();
  for (const a of read.assets) {
    const own: AssetFields = new Map();
    for (const f of fields) own.set(f, {});
    if (fields.includes(CREATED)) own.set(CREATED, createdValues(a.created));
    if (fields.includes(STATUS)) own.set(STATUS, listValues([a.status]));
    out.set(a.id, { id: a.id, status: a.status, filename: a.filename, fields: own });
  }
  const valueFields = new Set(fields.filter((f) => !pseudoFields.has(f)));
  // In (asset, field, language, ord) order: each language's values in their order.
  for (const v of read.values) {
    if (!valueFields.has(v.field)) continue;
    const f = out.get(v.asset_id)?.fields.get(v.field);
    if (f) (f[v.lang] ??= []).push(v.value);
  }
  if (fields.includes(ACCESS_GROUPS)) {
    for (const r of [...read.access].sort((a, b) => byText(a.group_name, b.group_name))) {
      const f = out.get(r.asset_id)?.fields.get(ACCESS_GROUPS);
      if (f) (f[''] ??= []).push(r.group_name);
    }
  }
  if (fields.includes(COLLECTIONS)) {
    for (const r of read.collections) {
      const f = out.get(r.asset_id)?.fields.get(COLLECTIONS);
      if (f) (f[''] ??= []).push(String(r.collection_id));
    }
  }
  return out;
}

/**
 * The changed assets as the catalogue holds them once `changes` are written (`writeValues`, and
 * `updated_at` set to `now` by the catalogue change): the rows they were read with, changed as the
 * statements change them. A test compares it with a read of the catalogue on both databases.
 */
export function leftBehind(read: AssetBatch, changes: readonly ChangeRow[], now: number): AssetBatch {
  const changed = new Map<number, ChangeRow[]>();
  for (const c of changes) {
    const list = changed.get(c.asset_id);
    if (list) list.push(c);
    else changed.set(c.asset_id, [c]);
  }
  const out: AssetBatch = { assets: [], values: [], access: [], collections: [] };
  for (const a of read.assets) {
    const own = changed.get(a.id);
    if (!own) continue;
    const asset = { ...a, updated_at: now };
    for (const c of own) {
      const value = c.after?.['']?.[0] ?? '';
      if (c.field === STATUS) asset.status = value;
      else if (c.field === CREATED) asset.created = value === '' ? null : createdMs({ '': [value] });
    }
    out.assets.push(asset);
  }
  const byField = (id: number, field: string) => changed.get(id)?.find((c) => c.field === field);
  for (const v of read.values) {
    const c = byField(v.asset_id, v.field);
    if (!c) out.values.push(v);
    else if (appends(c.before ?? {}, c.after ?? {})) out.values.push(v);
  }
  for (const c of changes) {
    if (pseudoFields.has(c.field)) continue;
    out.values.push(...valueRows(c, appends(c.before ?? {}, c.after ?? {}) ? 'appended' : 'rewritten'));
  }
  for (const g of read.access) if (changed.has(g.asset_id) && !byField(g.asset_id, ACCESS_GROUPS)) out.access.push(g);
  for (const m of read.collections)
    if (changed.has(m.asset_id) && !byField(m.asset_id, COLLECTIONS)) out.collections.push(m);
  for (const c of changes) {
    const list = [...new Set(c.after?.[''] ?? [])];
    if (c.field === ACCESS_GROUPS) out.access.push(...list.map((group_name) => ({ asset_id: c.asset_id, group_name })));
    if (c.field === COLLECTIONS)
      out.collections.push(...list.map((v) => ({ asset_id: c.asset_id, collection_id: Number(v) })));
  }
  out.values.sort(
    (a, b) => a.asset_id - b.asset_id || byText(a.field, b.field) || byText(a.lang, b.lang) || a.ord - b.ord,
  );
  out.collections.sort((a, b) => a.collection_id - b.collection_id);
  return out;
}
