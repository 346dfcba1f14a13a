import { colorCodes } from '@vitrine/contract/fields';
import { LruCache } from './cache.ts';
import type { CodeColumn } from './facet-index/code-column.ts';
import { bitSetOf } from './facet-index/doc-sets.ts';
import type { FacetIndex } from './facet-index/facet-index.ts';
import type { FieldRegistry, SearchField } from './fields.ts';
import type { AccessRule } from './ports.ts';

/** What is computed from one index version is kept up to this many entries and bytes. */
const VIEW_CACHE = { entries: 512, bytes: 128 * 1024 * 1024 };

export const languageColumn = (field: string, lang: string): string => `${field}@${lang}`;

/** Value fields of the index that keep one column per content language. */
export function isPerLanguage(field: SearchField): boolean {
  return field.coded && field.storage === 'value' && field.localized === true;
}

/**
 * One version of the in-memory index as a search sees it: the index, the collection names and the
 * content languages of that version, and everything computed from them (document lists, sort
 * orders, counts), kept in one bounded cache that dies with the view. A search takes the current
 * view once and answers from it alone, so it never mixes two versions.
 */
export class IndexView {
  readonly version: number;
  private readonly cache = new LruCache<string, unknown>(VIEW_CACHE);
  /** Arrays visibleAll() answered, with the caller's groups key. */
  private readonly wholeCatalogues = new WeakMap<Int32Array, string>();

  constructor(
    readonly index: FacetIndex,
    readonly fields: FieldRegistry,
    /** Languages the index has columns for (per-language fields keep one column each). */
    readonly languages: readonly string[],
    readonly collectionNames: ReadonlyMap<number, string>,
    private readonly rule: AccessRule,
  ) {
    this.version = index.version;
  }

  /** A value computed from this version, kept while the bound allows. */
  cached<T>(key: string, make: () => T): T {
    return this.cache.getOrSet<T>(key, make);
  }

  /** A value kept under `key` (cached or keep), if it still is. */
  kept<T>(key: string): T | undefined {
    return this.cache.get(key) as T | undefined;
  }

  /** Keeps a value computed from this version (one made in steps, where cached cannot wait). */
  keep(key: string, value: unknown): void {
    this.cache.set(key, value);
  }

  /** The name of the index column holding a coded field's values in a content language. */
  columnName(name: string, lang = 'en'): string {
    const field = this.fields.get(name);
    if (!field || !isPerLanguage(field)) return name;
    return languageColumn(name, this.languages.includes(lang) ? lang : 'en');
  }

  column(name: string, lang = 'en'): CodeColumn {
    return this.index.codes.get(this.columnName(name, lang))!;
  }

  /** Every column of a coded field: one, or one per content language. */
  columns(name: string): CodeColumn[] {
    const field = this.fields.get(name)!;
    if (!isPerLanguage(field)) return [this.index.codes.get(name)!];
    return this.languages.map((l) => this.index.codes.get(languageColumn(name, l))!);
  }

  allDocs(): Int32Array {
    return this.cached('all', () => {
      const docs = new Int32Array(this.index.size);
      for (let i = 0; i < docs.length; i++) docs[i] = i;
      return docs;
    });
  }

  /** Masks of a caller's groups for this index (the access rule's bit-mask form). */
  callerMasks(groups: readonly string[]): Uint32Array {
    return this.index.callerMasks(groups, this.rule);
  }

  /** Active documents a caller sees in the whole catalogue. */
  visibleAll(groups: readonly string[]): Int32Array {
    const key = groupsKey(groups);
    return this.cached(`visible ${key}`, () => {
      const docs = this.index.visibleDocs(this.callerMasks(groups));
      this.wholeCatalogues.set(docs, key);
      return docs;
    });
  }

  /** visibleAll, made in parts with `step` between them when it is not kept (a search's first). */
  async visibleAllInSteps(groups: readonly string[], step: () => Promise<void>): Promise<Int32Array> {
    const key = groupsKey(groups);
    const kept = this.kept<Int32Array>(`visible ${key}`);
    if (kept) return kept;
    const docs = await this.index.visibleDocsInSteps(this.callerMasks(groups), step);
    this.wholeCatalogues.set(docs, key);
    this.keep(`visible ${key}`, docs);
    return docs;
  }

  /**
   * The documents a caller sees as a bit set (as a filter's, facets.ts), when it is kept or `make`
   * (it is made from visibleAll: a pass over the whole catalogue).
   */
  visibleBitSet(groups: readonly string[], make: boolean): Uint32Array | undefined {
    const key = `visible set ${groupsKey(groups)}`;
    if (!make) return this.kept(key);
    return this.cached(key, () => bitSetOf(this.visibleAll(groups), this.index.size));
  }

  /** Active documents a caller sees among the assets `ids` (a share link's scope). */
  visibleOf(groups: readonly string[], ids: readonly number[]): Int32Array {
    const docs = this.index.docsOf([...new Set(ids)].sort((a, b) => a - b));
    return this.index.visibleDocs(this.callerMasks(groups), docs);
  }

  /** The groups key when `docs` is a caller's whole visible catalogue (visibleAll's answer). */
  wholeCatalogueOf(docs: Int32Array): string | undefined {
    return this.wholeCatalogues.get(docs);
  }

  label(field: string, value: string): string | undefined {
    if (field === 'color_code') return colorCodes[Number(value)];
    if (field === 'meta_collections') return this.collectionNames.get(Number(value));
    return undefined;
  }
}

export const groupsKey = (groups: readonly string[]): string => [...groups].sort().join('\n');
