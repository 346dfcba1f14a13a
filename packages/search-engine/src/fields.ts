import { builtInFields, type BuiltInField } from '@vitrine/contract/fields';
import type { IndexField } from '@vitrine/contract/search';
import type { ValueRow } from './ports.ts';

/**
 * The index fields of this server: the built-in ones and those the settings declare (stored in
 * asset_value). Tells the engine how it may use each field: count it as a facet (codes), filter a
 * range or sort on it (numbers), search its text.
 */
export interface SearchField extends BuiltInField {
  /** Counted as a facet and matched by field:value: values kept as codes in memory. */
  coded: boolean;
  /** Kept as numbers in memory: ranges, sorting, min/max. */
  numeric: boolean;
}

/** Asset table columns that hold a field under another name. */
export const columnOf: Record<string, string> = { asset_groups: 'asset_group' };

const isNumericType = (t: IndexField['type']) => t === 'int' || t === 'float' || t === 'date';

export class FieldRegistry {
  readonly all: SearchField[];
  private readonly byName: Map<string, SearchField>;

  constructor(declared: readonly (IndexField & { textSearch?: boolean })[] = []) {
    const builtInNames = new Set(builtInFields.map((f) => f.field_name));
    const extra: BuiltInField[] = declared
      .filter((f) => !builtInNames.has(f.field_name))
      .map(({ textSearch, ...f }) => ({
        ...f,
        storage: 'value',
        // A field only some callers see keeps its words out of the full-text index (`textSearch: false`).
        searchable: textSearch !== false && (f.type === 'text' || f.type === 'string'),
        sortable: isNumericType(f.type) && !f.multi_valued,
      }));
    this.all = [...builtInFields, ...extra].map((f) => ({
      ...f,
      numeric:
        isNumericType(f.type) && (f.storage === 'column' || !f.multi_valued) && f.field_name !== 'meta_collections',
      coded: (f.is_facet && !f.range_facet) || (f.storage === 'value' && f.type === 'string'),
    }));
    this.byName = new Map(this.all.map((f) => [f.field_name, f]));
  }

  get(name: string): SearchField | undefined {
    return this.byName.get(name);
  }

  get coded(): SearchField[] {
    return this.all.filter((f) => f.coded);
  }

  get numeric(): SearchField[] {
    return this.all.filter((f) => f.numeric);
  }

  /** Fields whose text the full-text index reads; title also on its own for relevance. */
  get searchable(): SearchField[] {
    return this.all.filter((f) => f.searchable);
  }

  /** The fields whose words the full-text index holds, in a stable form (text-catch-up.ts). */
  get textSignature(): string {
    return this.searchable.map((f) => f.field_name).join(',');
  }

  /** Text fields declared without full-text search (a field only some callers see). */
  get keptOutOfText(): boolean {
    return this.all.some((f) => f.storage === 'value' && !f.searchable && (f.type === 'text' || f.type === 'string'));
  }

  isSortable(name: string): boolean {
    const f = this.byName.get(name);
    return name === 'score' || (!!f && !!f.sortable && (f.numeric || f.field_name === 'filename'));
  }

  /** Fields as `index/fields` lists them (without the server's storage details). */
  visible(): IndexField[] {
    return this.all.map(
      ({ field_name, default_labels, is_facet, range_facet, multi_valued, origin, type, options }) => ({
        field_name,
        default_labels,
        is_facet,
        range_facet,
        multi_valued,
        origin,
        type,
        options,
      }),
    );
  }
}

/** Language preference for per-language values: the caller's, then none, then English, German. */
export function pickLanguage(rows: ValueRow[], lang: string): ValueRow[] {
  for (const want of [lang, '', 'en', 'de']) {
    const hit = rows.filter((r) => r.lang === want);
    if (hit.length > 0) return hit;
  }
  const first = rows[0]?.lang;
  return rows.filter((r) => r.lang === first);
}
