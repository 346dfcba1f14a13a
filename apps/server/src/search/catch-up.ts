import { isLive } from '../access/rule.ts';
import { pickLanguage } from './asset-presenter.ts';
import { baseContentLanguages, type Progress } from './engine-types.ts';
import { FacetIndex, type IndexRow } from './facet-index.ts';
import { parseNumber } from './facets.ts';
import type { FieldRegistry } from './fields.ts';
import { columnOf } from './fields.ts';
import { IndexView, isPerLanguage, languageColumn } from './index-view.ts';
import type { AssetBatch, SearchRepository } from './search.repository.ts';
import { indexText } from './text.ts';
import type { TextDocument, TextIndex } from './text-index.ts';

/** Changes are re-read from a little before the watermark: a transaction may commit late. */
const WATERMARK_MARGIN_MS = 10_000;
const BATCH = 5000;

/**
 * Keeps the in-memory index and the shared full-text index up to date with the catalogue, whichever
 * process changed it: each refresh reads catalogue_state.generation once and, when it moved,
 * applies the assets changed since its watermark.
 */
export class CatchUp {
  private index: FacetIndex;
  private generation = -1;
  private watermark = -1;
  private refreshing: Promise<void> | undefined;
  private collectionNames = new Map<number, string>();
  /** Content languages seen on the catalogue's values. */
  readonly languages = new Set<string>(baseContentLanguages);
  /** Languages the current index has columns for (per-language fields keep one column each). */
  private indexLanguages: readonly string[] = baseContentLanguages;
  private current: IndexView | undefined;

  constructor(
    private readonly repository: SearchRepository,
    private readonly text: TextIndex,
    private readonly fields: FieldRegistry,
  ) {
    this.index = this.emptyIndex();
  }

  /** The index as it is now, for one search. */
  view(): IndexView {
    if (this.current?.version !== this.index.version || this.current.index !== this.index) {
      this.current = new IndexView(this.index, this.fields, this.indexLanguages, this.collectionNames);
    }
    return this.current;
  }

  /** Brings the index up to date with the catalogue; cheap when nothing changed. */
  async refresh(progress?: Progress): Promise<void> {
    this.refreshing ??= this.catchUp(progress).finally(() => {
      this.refreshing = undefined;
    });
    await this.refreshing;
  }

  private emptyIndex(): FacetIndex {
    return new FacetIndex(
      this.fields.coded.flatMap((f) =>
        isPerLanguage(f) ? this.indexLanguages.map((l) => languageColumn(f.field_name, l)) : [f.field_name],
      ),
      this.fields.numeric.map((f) => f.field_name),
      ['filename'],
    );
  }

  private get indexValueFields(): string[] {
    return this.fields.all
      .filter((f) => (f.coded || f.numeric) && f.storage === 'value' && f.field_name !== 'meta_collections')
      .map((f) => f.field_name);
  }

  private get textValueFields(): string[] {
    return this.fields.searchable.filter((f) => f.storage === 'value').map((f) => f.field_name);
  }

  private async catchUp(progress?: Progress): Promise<void> {
    const generation = await this.repository.generation();
    if (generation === this.generation) return;
    await this.catchUpText(generation, progress);
    if (this.watermark === -1) await this.loadAll(progress);
    else if (!(await this.applyChanges())) await this.loadAll(progress);
    this.collectionNames = new Map((await this.repository.collections()).map((c) => [c.id, c.name]));
    this.current = undefined;
    this.generation = generation;
  }

  private async loadAll(progress?: Progress): Promise<void> {
    this.indexLanguages = [...this.languages].sort();
    await this.loadAllOnce(progress);
    // A language first seen during the load needs its own columns, filled for every asset.
    if (this.languages.size !== this.indexLanguages.length) {
      this.indexLanguages = [...this.languages].sort();
      await this.loadAllOnce(progress);
    }
  }

  private async loadAllOnce(progress?: Progress): Promise<void> {
    const watermark = await this.repository.maxUpdatedAt();
    const total = progress ? await this.repository.countAssets() : 0;
    const index = this.emptyIndex();
    let after = 0;
    let done = 0;
    for (;;) {
      const ids = await this.repository.activeIdsAfter(after, BATCH);
      if (ids.length === 0) break;
      const batch = await this.repository.batch(ids, this.indexValueFields);
      for (const row of this.indexRows(batch)) index.put(row, true);
      after = ids[ids.length - 1]!;
      done += ids.length;
      progress?.('facet index', done, total);
    }
    index.pack();
    // Versions only grow, also across rebuilds, so no cache mistakes the new index for the old.
    index.version += this.index.version + 1;
    this.index = index;
    this.watermark = watermark;
  }

  /** Applies changed assets; answers false when the index must be rebuilt instead. */
  private async applyChanges(): Promise<boolean> {
    let after = 0;
    let watermark = this.watermark;
    for (;;) {
      const changed = await this.repository.changedSince(this.watermark - WATERMARK_MARGIN_MS, after, BATCH);
      if (changed.length === 0) break;
      const batch = await this.repository.batch(
        changed.map((c) => c.id),
        this.indexValueFields,
      );
      const rows = this.indexRows(batch);
      if (this.languages.size !== this.indexLanguages.length) return false;
      for (const row of rows) if (!this.index.put(row)) return false;
      for (const c of changed) watermark = Math.max(watermark, c.updated_at);
      after = changed[changed.length - 1].id;
    }
    this.watermark = watermark;
    return true;
  }

  /**
   * Feeds the shared full-text index with assets changed since its watermark. Skipped when the
   * generation is the one the last catch-up (of any process) started from: nothing changed since.
   */
  private async catchUpText(generation: number, progress?: Progress): Promise<void> {
    const state = await this.repository.textState();
    if (state.generation === generation) return;
    const from = state.watermark;
    const upTo = await this.repository.maxUpdatedAt();
    const total = progress ? await this.repository.countAssets() : 0;
    let after = 0;
    let done = 0;
    for (;;) {
      const ids =
        from === -1
          ? await this.repository.activeIdsAfter(after, BATCH)
          : (await this.repository.changedSince(from - WATERMARK_MARGIN_MS, after, BATCH)).map((c) => c.id);
      if (ids.length === 0) break;
      const batch = await this.repository.batch(ids, this.textValueFields);
      const docs = this.textDocuments(batch);
      const kept = new Set(docs.map((d) => d.id));
      await this.text.write(
        docs,
        ids.filter((id) => !kept.has(id)),
      );
      after = ids[ids.length - 1]!;
      done += ids.length;
      progress?.('text index', done, from === -1 ? total : done);
    }
    await this.repository.advanceTextState(Math.max(upTo, from), generation);
  }

  private indexRows(batch: AssetBatch): IndexRow[] {
    const values = grouped(batch.values);
    const access = grouped(batch.access);
    const collections = grouped(batch.collections);
    return batch.assets.map((a) => {
      const own = values.get(a.id) ?? [];
      for (const v of own) if (v.lang) this.languages.add(v.lang);
      const row: IndexRow = {
        id: a.id,
        active: isLive(a.status),
        access: (access.get(a.id) ?? []).map((g) => g.group_name),
        codes: {},
        numbers: {},
        strings: { filename: a.filename },
      };
      const column = (name: string): string | number | null =>
        (a as unknown as Record<string, string | number | null>)[columnOf[name] ?? name] ?? null;
      for (const f of this.fields.coded) {
        const name = f.field_name;
        if (name === 'meta_collections') {
          row.codes[name] = (collections.get(a.id) ?? []).map((c) => String(c.collection_id));
        } else if (f.storage === 'column') {
          const v = column(name);
          row.codes[name] = v == null ? [] : [String(v)];
        } else if (isPerLanguage(f)) {
          // Per language the values that language's docs show (asset-presenter), so a value that
          // exists in one language only still counts once.
          const mine = own.filter((v) => v.field === name);
          for (const lang of this.indexLanguages) {
            row.codes[languageColumn(name, lang)] = pickLanguage(mine, lang).map((v) => v.value);
          }
        } else {
          row.codes[name] = own.filter((v) => v.field === name).map((v) => v.value);
        }
      }
      for (const f of this.fields.numeric) {
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

  private textDocuments(batch: AssetBatch): TextDocument[] {
    const values = grouped(batch.values);
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
}

function grouped<T extends { asset_id: number }>(rows: T[]): Map<number, T[]> {
  const acc = new Map<number, T[]>();
  for (const r of rows) {
    const list = acc.get(r.asset_id);
    if (list) list.push(r);
    else acc.set(r.asset_id, [r]);
  }
  return acc;
}
