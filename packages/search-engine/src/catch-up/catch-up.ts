import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { baseContentLanguages, pause, slicer, type Progress } from '../engine-types.ts';
import { FacetIndex } from '../facet-index/facet-index.ts';
import { documentWords } from '../frequent-words.ts';
import type { FieldRegistry, SearchField } from '../fields.ts';
import { IndexView, isPerLanguage, languageColumn } from '../index-view.ts';
import {
  rowsByAsset,
  type AccessRule,
  type Catalogue,
  type CatalogueState,
  type EnginePorts,
  type ValueRow,
} from '../ports.ts';
import { readSnapshot, writeSnapshot, type SnapshotShape } from '../snapshot.ts';
import { textDocuments, textValueFields } from '../text-documents.ts';
import type { TextDocument, TextIndex } from '../text-index.ts';
import { BATCH, changedIds, onlyCreated, readAhead } from './change-feed.ts';
import { findFrequentWords } from './frequent-postings.ts';
import { indexRows, indexValueFields, valueFieldCodes } from './index-rows.ts';
import { TextCatchUp } from './text-catch-up.ts';
import { writtenChangeOf } from './written-change.ts';

/**
 * Changed assets read in one step and applied in the next (the event loop waits for each step: at a
 * million assets a step of 500 took up to 60 ms).
 */
const APPLY_BATCH = 250;

/** Changed assets whose words are held before the frequent words' postings are put right (memory). */
const WORDS_PUT_AT = 20_000;

/** A process tells the change log which changes it holds at most this often. */
const READER_MARK_MS = 60_000;
/** Readers of the change log not heard of for this long no longer hold changes back from the purge. */
export const CHANGE_READER_TTL_MS = 24 * 3600_000;
/** A process that applied changes writes a new snapshot at most this often. */
const SNAPSHOT_EVERY_MS = 10 * 60_000;

/** A catalogue being written in this process, which a load can follow (CatchUp.loadWhileWritten). */
export interface CatalogueWriting {
  /** How many assets the writing will have written in all (for progress). */
  total: number;
  /** True once the writing has ended (every write committed). */
  ended(): boolean;
  /** Resolves when more assets were written, or the writing ended. */
  wrote(): Promise<void>;
  /** The same writing for another loop following it (each waits on its own). */
  follower(): CatalogueWriting;
}

/** A change this process committed, as its writer knows it: the values of the fields it changed. */
export interface WrittenChange {
  /** Its change sequence number. */
  seq: number;
  /** The assets it changed. */
  ids: readonly number[];
  /** The value fields it changed (asset_value); no other part of the assets. */
  fields: readonly string[];
  /** The assets' rows of `fields` after the change, in `ord` order (a field without rows has no values). */
  values: readonly ValueRow[];
  /**
   * The full-text documents the change wrote (those of its live assets), when its writer fed the
   * text index: the words the postings of frequent words need, without reading the texts again.
   */
  documents?: readonly TextDocument[];
}

/** Changed assets' words by asset id (none: the asset left the text index). */
type ChangedWords = Map<number, ReturnType<typeof documentWords> | undefined>;

export interface CatchUpOptions {
  /** The index snapshot file (in DATA_DIR); without it no snapshot is read or written. */
  snapshotFile?: string;
  /** Notes on loading and writing snapshots. */
  log?: (message: string) => void;
  /**
   * Words in at least this many documents (and FREQUENT_SHARE of them) have their postings kept in
   * memory when the text index is dear to ask (frequent-words.ts).
   */
  frequentMinDocs?: number;
}

/**
 * Keeps the in-memory index and the shared full-text index up to date with the catalogue, whichever
 * process changed it. Every write transaction takes the next change sequence number (the catalogue
 * generation) before it writes and records the ids it touched under it (the host's change log), so
 * sequence order is commit order: a refresh reads the generation once and applies the changes
 * after the last one it applied, none missed whatever the clocks say. Searches read one index
 * version (a view) from start to end; changes are applied in place only between searches, and a
 * rebuilt index replaces the old one without touching it. Its parts: reading the change log
 * (change-feed.ts), catalogue rows as index rows (index-rows.ts), the shared full-text index's
 * catch-up (text-catch-up.ts) and the frequent words' postings (frequent-postings.ts); this module
 * schedules them: loads, applying changes between searches, snapshots, the reader mark.
 */
export class CatchUp<Tx> {
  private index: FacetIndex;
  /** The last change sequence applied to the in-memory index; -1 before the first load. */
  private seq = -1;
  private refreshing: Promise<void> | undefined;
  private collectionNames = new Map<number, string>();
  /** Content languages seen on the catalogue's values. */
  readonly languages = new Set<string>(baseContentLanguages);
  /** Languages the current index has columns for (per-language fields keep one column each). */
  private indexLanguages: readonly string[] = baseContentLanguages;
  private current: IndexView | undefined;
  /** Searches reading the index now, and changes waiting for them to end. */
  private readers = 0;
  private waiting: (() => void)[] = [];
  /** This process as a reader of the change log. */
  private readonly readerName = `process ${hostname()} ${process.pid} ${randomUUID().slice(0, 8)}`;
  private markedAt = 0;
  private instance = '';
  /** The generation of the last snapshot this process wrote or read, and when it wrote one. */
  private snapshotSeq = -1;
  private snapshotAt = 0;
  private writing: Promise<void> | undefined;
  /** When the catalogue was last read to hold no change the index lacks (ms; 0: never). */
  private currentAt = 0;
  /** Told which assets the index now holds anew (SearchEngine.onChanged). */
  readonly listeners = new Set<(ids: readonly number[] | 'all') => void>();

  private readonly catalogue: Catalogue<Tx>;
  private readonly text: TextIndex<Tx>;
  private readonly rule: AccessRule;
  /** The shared full-text index's catch-up (text-catch-up.ts). */
  private readonly texts: TextCatchUp<Tx>;

  constructor(
    ports: EnginePorts<Tx>,
    private readonly fields: FieldRegistry,
    private readonly options: CatchUpOptions = {},
  ) {
    this.catalogue = ports.catalogue;
    this.text = ports.text;
    this.rule = ports.rule;
    this.texts = new TextCatchUp(this.catalogue, this.text, fields, this.rule);
    this.index = this.emptyIndex();
  }

  /** True once the index has been loaded. */
  get loaded(): boolean {
    return this.seq !== -1;
  }

  /** The last change applied (-1 before the first load) and when that was the newest change (ms). */
  get position(): { applied: number; currentAt: number } {
    return { applied: this.seq, currentAt: this.currentAt };
  }

  /** The index as it is now. Use it only synchronously, or through read(). */
  view(): IndexView {
    if (this.current?.version !== this.index.version || this.current.index !== this.index) {
      this.current = new IndexView(this.index, this.fields, this.indexLanguages, this.collectionNames, this.rule);
    }
    return this.current;
  }

  /** Runs a search on the current view; changes wait until it ends, so it sees one version. */
  async read<T>(fn: (view: IndexView) => Promise<T>): Promise<T> {
    this.readers++;
    try {
      return await fn(this.view());
    } finally {
      this.readers--;
      if (this.readers === 0) for (const wake of this.waiting.splice(0)) wake();
    }
  }

  /** Tells the listeners that the index holds these assets anew ('all': a whole index was loaded). */
  private changed(ids: readonly number[] | 'all'): void {
    for (const listener of this.listeners) listener(ids);
  }

  private async noReaders(): Promise<void> {
    if (this.readers > 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Brings the index up to date with the catalogue; cheap when nothing changed. */
  async refresh(progress?: Progress): Promise<void> {
    this.refreshing ??= this.catchUp(progress).finally(() => {
      this.refreshing = undefined;
    });
    await this.refreshing;
  }

  /**
   * Applies a change this process just committed from the values it wrote, without reading the
   * assets again, when it is the next change the index lacks and it changed only coded value fields
   * of indexed assets (a bulk edit of keywords: the catch-up's reading was some 40 % of the time
   * until search showed it at a million assets). Answers false when it left the change to the next
   * refresh, which then reads it as any other process does. Runs in turn with refreshes.
   */
  async applyWritten(change: WrittenChange): Promise<boolean> {
    // Waits for a refresh under way to end; its failure is its callers' to see, not this change's.
    while (this.refreshing) await this.refreshing.catch(() => undefined);
    let applied = false;
    this.refreshing = (async () => {
      applied = await this.applyOwn(change);
    })().finally(() => {
      this.refreshing = undefined;
    });
    await this.refreshing;
    return applied;
  }

  /**
   * Whether a change of these fields can be applied from the values its writer wrote (applyWritten,
   * and in other processes from the parts kept for them): only coded value fields are. A writer need
   * not keep a change of other fields (a title, a text) for other processes, which read it anyway.
   */
  takesAsWritten(fields: readonly string[]): boolean {
    return this.codedValueFields(fields) !== undefined;
  }

  /** The fields' definitions when every one is a coded value field, else undefined. */
  private codedValueFields(names: readonly string[]): SearchField[] | undefined {
    const fields = names.map((name) => this.fields.get(name));
    const coded = fields.filter(
      (f): f is SearchField =>
        f?.coded === true && !f.numeric && f.storage === 'value' && f.field_name !== 'meta_collections',
    );
    return coded.length === fields.length && coded.length > 0 ? coded : undefined;
  }

  private async applyOwn(change: WrittenChange): Promise<boolean> {
    // Kept postings of frequent words need the changed texts' words: without the documents the
    // writer wrote, the catch-up reads them.
    const kept = this.index.frequent?.kept ?? false;
    if (this.seq === -1 || this.seq !== change.seq - 1 || (kept && !change.documents)) return false;
    if (this.languages.size !== this.indexLanguages.length) return false;
    const coded = this.codedValueFields(change.fields);
    if (!coded) return false;
    // A new content language needs its columns for every asset: a rebuild, which the catch-up makes.
    if (change.values.some((v) => v.lang !== '' && !this.languages.has(v.lang))) return false;
    const index = this.index;
    if (change.ids.some((id) => index.docOf(id) === -1)) return false;
    // The full-text index is the writer's to feed; should it have left it to the catch-up, it is caught up here.
    await this.texts.catchUp(change.seq);
    const values = rowsByAsset(change.values);
    const turn = slicer();
    for (let i = 0; i < change.ids.length; i += APPLY_BATCH) {
      const some = change.ids.slice(i, i + APPLY_BATCH);
      const codes = some.map((id) => {
        const own = values.get(id) ?? [];
        const out: Record<string, string[]> = {};
        for (const f of coded) {
          valueFieldCodes(
            f,
            own.filter((v) => v.field === f.field_name),
            this.indexLanguages,
            out,
          );
        }
        return out;
      });
      await this.noReaders();
      some.forEach((id, j) => index.setCodes(id, codes[j]!));
      this.changed(some);
      await turn();
    }
    if (kept && change.documents) {
      const words: ChangedWords = new Map(change.ids.map((id) => [id, undefined]));
      for (const doc of change.documents) {
        words.set(doc.id, documentWords(doc));
        await turn();
      }
      await this.putWords(words);
    }
    await index.packGradually(pause);
    this.current = undefined;
    this.seq = change.seq;
    await this.markReader(true);
    return true;
  }

  /**
   * Takes the changes after the last applied one, up to `upTo`, as their writers kept them for other
   * processes (Catalogue.writtenParts), one after the other while each can be taken so: a bulk edit
   * of keywords another process made is then applied without reading its assets again (on
   * PostgreSQL, reading 5,000 of them was 0.7–1.2 s of the time until a second process showed the
   * edit at a million assets). The first change that cannot be taken so is left to applyChanges.
   */
  private async applyKept(upTo: number, prunedThrough: number): Promise<void> {
    const kept = this.catalogue.writtenParts?.bind(this.catalogue);
    if (!kept || this.seq === -1 || this.seq < prunedThrough) return;
    while (this.seq < upTo) {
      const seq = this.seq + 1;
      const change = await writtenChangeOf(seq, await kept(seq));
      if (!change || !(await this.applyOwn(change))) return;
    }
  }

  /** The columns of an index with columns for these content languages. */
  private shape(languages: readonly string[] = this.indexLanguages): SnapshotShape {
    return {
      coded: this.fields.coded.flatMap((f) =>
        isPerLanguage(f) ? languages.map((l) => languageColumn(f.field_name, l)) : [f.field_name],
      ),
      numeric: this.fields.numeric.map((f) => f.field_name),
      strings: ['filename'],
      sort: this.fields.all.filter((f) => this.fields.isSortable(f.field_name)).map((f) => f.field_name),
      // Its frequent words come from the full-text index: one made of other fields' words is not used.
      text: this.fields.textSignature,
    };
  }

  private emptyIndex(): FacetIndex {
    const shape = this.shape();
    return new FacetIndex(shape.coded, shape.numeric, shape.strings, shape.sort);
  }

  private async catchUp(progress?: Progress): Promise<void> {
    const asked = Date.now();
    const state = await this.catalogue.catalogueState();
    const generation = state.generation;
    this.instance = state.instance;
    if (generation === this.seq) {
      this.currentAt = asked;
      return this.markReader();
    }
    if (this.seq === -1) await this.texts.checkFields();
    await this.texts.catchUp(generation, progress);
    const collectionNames = new Map((await this.catalogue.collections()).map((c) => [c.id, c.name]));
    if (this.seq === -1) await this.loadSnapshot(state);
    const applied = this.seq;
    await this.applyKept(generation, state.prunedThrough);
    const rebuild = this.seq === -1 || this.seq < state.prunedThrough || !(await this.applyChanges(generation));
    if (rebuild) await this.catalogue.withBulkCache(() => this.loadAll(progress));
    this.collectionNames = collectionNames;
    this.current = undefined;
    this.seq = generation;
    this.currentAt = asked;
    await this.markReader(true);
    // A rebuilt index is worth keeping at once; caught-up changes now and then.
    if (rebuild || (applied !== generation && Date.now() - this.snapshotAt > SNAPSHOT_EVERY_MS)) {
      void this.saveSnapshot().catch((err: unknown) =>
        this.options.log?.(`index snapshot not written: ${String(err)}`),
      );
    }
  }

  /** Tells the change log which changes this process holds (so the purge keeps later ones). */
  private async markReader(changed = false): Promise<void> {
    const now = Date.now();
    if (!changed && now - this.markedAt < READER_MARK_MS) return;
    this.markedAt = now;
    await this.catalogue.markReader(this.readerName, this.seq, now);
  }

  /** This process stops reading the change log: the changes it held go at the next purge, not a day later. */
  async leave(): Promise<void> {
    await this.catalogue.forgetReader(this.readerName);
  }

  /** Starts from the snapshot when there is a usable one (it is then caught up like any index). */
  private async loadSnapshot(state: CatalogueState): Promise<void> {
    const file = this.options.snapshotFile;
    if (!file) return;
    const started = performance.now();
    const read = await readSnapshot(file, (languages) => this.shape(languages));
    const log = this.options.log;
    if (read.status === 'missing') return log?.('no index snapshot yet: loading every asset');
    if (read.status === 'unusable') return log?.(`index snapshot not used (${read.reason}): loading every asset`);
    const { meta, index } = read;
    const why =
      meta.instance !== state.instance
        ? 'it is of another catalogue'
        : meta.generation > state.generation
          ? 'it is ahead of the catalogue'
          : meta.generation < state.prunedThrough
            ? 'the changes since it were pruned'
            : undefined;
    if (why) return log?.(`index snapshot not used (${why}): loading every asset`);
    if (!index.sorted) await index.sortOrders(pause);
    index.version = this.index.version + 1;
    this.index = index;
    this.changed('all');
    this.indexLanguages = meta.languages;
    for (const l of meta.catalogueLanguages) this.languages.add(l);
    this.seq = meta.generation;
    this.snapshotSeq = meta.generation;
    // A snapshot just read is as good as one just written: the first change after a start would
    // otherwise fold and write the whole index at once (it held the event loop 160 ms at a million).
    this.snapshotAt = Date.now();
    log?.(
      `index snapshot of change ${meta.generation} read in ${((performance.now() - started) / 1000).toFixed(1)} s (${(read.bytes / 1e6).toFixed(0)} MB, ${index.size} assets)`,
    );
  }

  /**
   * Writes the current index to the snapshot file, unless the file already holds this generation.
   * One write at a time per process; other processes may write theirs meanwhile (each renames a
   * whole file into place).
   */
  async saveSnapshot(): Promise<void> {
    const file = this.options.snapshotFile;
    if (!file || this.seq === -1) return;
    while (this.writing) await this.writing;
    if (this.snapshotSeq === this.seq) return;
    const seq = this.seq;
    const index = this.index;
    const meta = {
      instance: this.instance,
      generation: seq,
      languages: [...this.indexLanguages],
      catalogueLanguages: [...this.languages],
    };
    this.writing = (async () => {
      const started = performance.now();
      // The snapshot holds these changes back from the purge before anyone can read it.
      await this.catalogue.markReader(`snapshot ${hostname()} ${file}`, seq, Date.now());
      await index.fold(pause);
      const bytes = await writeSnapshot(file, index, this.shape(meta.languages), meta);
      this.snapshotSeq = seq;
      this.snapshotAt = Date.now();
      this.options.log?.(
        `index snapshot of change ${seq} written in ${((performance.now() - started) / 1000).toFixed(1)} s (${(bytes / 1e6).toFixed(0)} MB)`,
      );
    })().finally(() => {
      this.writing = undefined;
    });
    await this.writing;
  }

  /**
   * Loads every asset into a new index that then replaces the old one (searches still reading the
   * old one finish on it). Reads happen after the generation was read, so they hold every change up
   * to it; later changes are applied again by the next refresh, which is harmless.
   */
  private async loadAll(progress?: Progress): Promise<void> {
    this.indexLanguages = [...this.languages].sort();
    await this.loadAllOnce(progress);
    // A language first seen during the load needs its own columns, filled for every asset.
    if (this.languages.size !== this.indexLanguages.length) {
      this.indexLanguages = [...this.languages].sort();
      await this.loadAllOnce(progress);
    }
  }

  /**
   * Loads every active asset into a new index; while `writing` runs, also those it writes meanwhile,
   * as their writes commit. Answers how many of the loaded assets have ids above `above`.
   */
  private async loadAllOnce(progress?: Progress, writing?: CatalogueWriting, above = 0): Promise<number> {
    const total = writing?.total ?? (progress ? await this.catalogue.countAssets() : 0);
    const index = this.emptyIndex();
    let after = 0;
    let done = 0;
    let newer = 0;
    for (;;) {
      // Asked before reading: when the writing had ended by then, every write it made is readable.
      const ended = writing?.ended() ?? true;
      const ids = await this.catalogue.activeIdsAfter(after, BATCH);
      if (ids.length === 0) {
        if (ended) break;
        await writing?.wrote();
        continue;
      }
      const batch = await this.catalogue.batch(ids, indexValueFields(this.fields));
      const signatures = (await this.catalogue.signatures?.(ids)) ?? [];
      for (const row of indexRows(batch, this.fields, this.indexLanguages, this.languages, this.rule, signatures)) {
        index.put(row);
      }
      after = ids[ids.length - 1]!;
      done += ids.length;
      for (const id of ids) if (id > above) newer++;
      progress?.('facet index', done, Math.max(total, done));
      // better-sqlite3 answers synchronously: without a pause no request, timer or readiness
      // probe would run until the whole load ends.
      await pause();
    }
    index.pack();
    // The frequent words are the database's work, the sort orders this thread's: both at once.
    await Promise.all([
      findFrequentWords(this.text, index, this.options.frequentMinDocs, progress),
      (async () => {
        progress?.('sort orders', 0, index.sortFields.length);
        await index.sortOrders(pause);
        progress?.('sort orders', index.sortFields.length, index.sortFields.length);
      })(),
    ]);
    // Versions only grow, also across rebuilds, so no cache mistakes the new index for the old.
    index.version += this.index.version + 1;
    this.index = index;
    this.changed('all');
    return newer;
  }

  /**
   * Builds the index of an index that was never loaded while this process writes the catalogue
   * (bench data, in a thread of its own): reads the assets in id order as their writes commit, so
   * loading costs no time after the writing but its last batch. The index then holds the generation
   * after the writing when the changes since the load began are exactly the creation of the assets
   * it read above the highest id of that moment (the writes it followed: writers take ids in change
   * order); otherwise (another process changed assets meanwhile, a language appeared) it holds the
   * generation of the start and the refresh that follows applies the changes since, as always.
   */
  async loadWhileWritten(writing: CatalogueWriting, progress?: Progress): Promise<void> {
    if (this.seq !== -1) return this.refresh(progress);
    const start = await this.catalogue.catalogueState();
    const highest = await this.catalogue.highestId();
    this.instance = start.instance;
    this.indexLanguages = [...this.languages].sort();
    const languages = this.indexLanguages.length;
    // Texts the writes left to the catch-up are written meanwhile, on a connection of their own.
    const texts = this.texts.follow(writing.follower(), progress);
    const newer = await this.catalogue.withBulkCache(() => this.loadAllOnce(progress, writing, highest));
    await texts;
    const end = await this.catalogue.catalogueState();
    const followed =
      this.languages.size === languages &&
      (await onlyCreated(this.catalogue, start.generation, end.generation, highest, newer));
    this.collectionNames = new Map((await this.catalogue.collections()).map((c) => [c.id, c.name]));
    this.current = undefined;
    await this.texts.catchUp(end.generation, progress);
    this.seq = followed ? end.generation : start.generation;
    await this.refresh(progress);
    await this.markReader(true);
  }

  /**
   * Puts the postings of frequent words right for changed assets' words (and empties `words`): each
   * word's postings are written anew, once for all of them.
   */
  private async putWords(words: ChangedWords): Promise<void> {
    const index = this.index;
    const { frequent } = index;
    if (!frequent?.kept || words.size === 0) return;
    const changed = index.docsOf([...words.keys()].sort((a, b) => a - b));
    const byDoc = new Map<number, NonNullable<ReturnType<typeof documentWords>>>();
    for (const [id, w] of words) if (w) byDoc.set(index.docOf(id), w);
    words.clear();
    await frequent.update(changed, byDoc, slicer());
  }

  /**
   * Applies the changes after the last applied sequence up to `upTo`, batch by batch, each while no
   * search reads the index. Answers false when the index must be rebuilt instead (every asset
   * changed, a language appeared, or a new id lies below the highest indexed one).
   */
  private async applyChanges(upTo: number): Promise<boolean> {
    const from = this.seq;
    // The words of the changed assets' texts (none: it left the text index), for the postings of
    // frequent words, put right once per WORDS_PUT_AT changed assets: each word's postings are
    // written anew each time (per batch of 250 that cost more than applying the batch).
    const words: ChangedWords = new Map();
    // Reading a batch (SQLite answers synchronously), making its rows and reading its texts take a
    // turn each when they run long: in one, they held the event loop 30–40 ms at a million assets.
    // A turn after every step cost more than the steps themselves when searches kept arriving (a
    // change of 5,000 assets: 60 turns, 350–500 ms of an 890 ms catch-up).
    const turn = slicer();
    const indexFields = new Set(indexValueFields(this.fields));
    // Only kept postings need the changed texts' words: with no frequent word (a catalogue
    // below the text index's threshold) reading and parsing the texts again was a third of a
    // 5,000-asset catch-up at a million assets. The texts come with the index's fields in one read
    // (a second read of the same assets was a third of a catch-up on PostgreSQL).
    const textFields = new Set(this.index.frequent?.kept ? textValueFields(this.fields) : []);
    const readFields = [...new Set([...indexFields, ...textFields])];
    const slices = readAhead(changedIds(this.catalogue, from, upTo, APPLY_BATCH), async (ids) =>
      ids === 'all'
        ? ('all' as const)
        : {
            ids,
            read: await this.catalogue.batch(ids, readFields),
            signatures: (await this.catalogue.signatures?.(ids)) ?? [],
          },
    );
    for await (const slice of slices) {
      if (slice === 'all') return false;
      const { ids, read, signatures } = slice;
      const batch =
        textFields.size === 0 ? read : { ...read, values: read.values.filter((v) => indexFields.has(v.field)) };
      await turn();
      const rows = indexRows(batch, this.fields, this.indexLanguages, this.languages, this.rule, signatures);
      if (this.languages.size !== this.indexLanguages.length) return false;
      const present = new Set(batch.assets.map((a) => a.id));
      await turn();
      const texts =
        textFields.size > 0
          ? textDocuments(
              { assets: read.assets, values: read.values.filter((v) => textFields.has(v.field)) },
              this.rule,
            )
          : undefined;
      await turn();
      await this.noReaders();
      const index = this.index;
      const highest = index.size > 0 ? index.ids[index.size - 1] : undefined;
      if (rows.some((r) => index.docOf(r.id) === -1 && highest !== undefined && r.id < highest)) {
        return false;
      }
      for (const row of rows) index.put(row);
      for (const id of ids) if (!present.has(id)) index.deactivate(id);
      if (texts) {
        for (const id of ids) words.set(id, undefined);
        for (const doc of texts) words.set(doc.id, documentWords(doc));
      }
      this.changed(ids);
      await turn();
      if (words.size >= WORDS_PUT_AT) await this.putWords(words);
    }
    await this.putWords(words);
    // Packed once for all batches, a step at a time: searches wait for the refresh meanwhile.
    await this.index.packGradually(pause);
    // Changes pruned while they were read may be missing: then start anew.
    return (await this.catalogue.catalogueState()).prunedThrough <= from;
  }
}
