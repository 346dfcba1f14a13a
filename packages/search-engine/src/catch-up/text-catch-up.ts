/**
 * Catching the shared full-text index up with the catalogue. Its state (watermark, full load under
 * way) is one row every process shares; each step runs in one transaction under the lock on it.
 */
import { pause, type Progress } from '../engine-types.ts';
import type { FieldRegistry } from '../fields.ts';
import type { AccessRule, Catalogue } from '../ports.ts';
import { writeTexts } from '../text-documents.ts';
import type { TextIndex } from '../text-index.ts';
import type { CatalogueWriting } from './catch-up.ts';
import { BATCH, changedIds, RUNS, touchesAll } from './change-feed.ts';

export class TextCatchUp<Tx> {
  constructor(
    private readonly catalogue: Catalogue<Tx>,
    private readonly text: TextIndex<Tx>,
    private readonly fields: FieldRegistry,
    private readonly rule: AccessRule,
  ) {}

  /**
   * Makes the full-text index again when the fields whose words it holds have changed (a field given
   * an audience keeps its words out): the next catch-up is then a full load. An index from before
   * they were recorded holds every declared text field, so it is made again only when one is now
   * kept out.
   */
  async checkFields(): Promise<void> {
    const catalogue = this.catalogue;
    if (!catalogue.textFields || !catalogue.setTextFields) return;
    const wanted = this.fields.textSignature;
    const held = await catalogue.textFields();
    if (held === wanted) return;
    await catalogue.setTextFields(wanted, held !== null || this.fields.keptOutOfText);
  }

  /**
   * Feeds the shared full-text index with the changes since its watermark, one batch per
   * transaction under the lock on its state: whichever process gets the lock reads the assets and
   * writes them, so a process never overwrites a newer text with an older one. A full load (first
   * start, or after every asset changed) goes through the assets by id the same way, and any
   * process may continue it where another left it.
   */
  async catchUp(upTo: number, progress?: Progress): Promise<void> {
    const shared = await this.catalogue.textState();
    if (shared.watermark >= upTo && shared.loadSeq === -1) return;
    if (shared.watermark === -1 || shared.loadSeq !== -1) {
      await this.catalogue.withBulkCache(() => this.steps(upTo, progress));
    } else await this.steps(upTo, progress);
  }

  private async steps(upTo: number, progress?: Progress): Promise<void> {
    // Counted only for a full load's progress: changes are caught up after every bulk write, and
    // counting a million assets each time would cost more than the change.
    let total: number | undefined;
    let done = 0;
    for (;;) {
      const step = await this.catalogue.inTransaction(async (catalogue, trx) => {
        await catalogue.lockTextState();
        const state = await catalogue.textState();
        if (state.watermark >= upTo && state.loadSeq === -1) return 'done' as const;
        if (state.watermark === -1 || state.loadSeq !== -1) {
          if (state.loadSeq === -1) {
            await this.text.clear(trx);
            // Made anew from these fields: recorded, so the next start (checkFields) does not make
            // it yet again, as it must for an index of unknown fields.
            await catalogue.setTextFields?.(this.fields.textSignature, false);
            state.loadSeq = await catalogue.generation();
            state.loadAfter = 0;
          }
          const ids = await catalogue.activeIdsAfter(state.loadAfter, BATCH);
          const lastId = ids.at(-1);
          if (lastId === undefined) {
            await catalogue.setTextState({ watermark: state.loadSeq, loadSeq: -1, loadAfter: 0 });
            return 'loaded' as const;
          }
          await writeTexts(catalogue, trx, this.text, this.fields, this.rule, ids, true);
          await catalogue.setTextState({ ...state, loadAfter: lastId });
          done += ids.length;
          if (progress) progress('text index', done, (total ??= await this.catalogue.countAssets()));
          return 'more' as const;
        }
        // Changes that only counted downloads changed no text: they are stepped over.
        const runs = await catalogue.changesAfter(
          { seq: state.watermark, first: Number.MAX_SAFE_INTEGER },
          upTo,
          RUNS,
          true,
        );
        if (runs.some(touchesAll)) {
          await catalogue.setTextState({ watermark: -1, loadSeq: -1, loadAfter: 0 });
          return 'more' as const;
        }
        // Whole changes only: the last one may not have all its runs here (unless it is the only
        // one). A short page holds every text change up to `upTo`.
        const last = runs[runs.length - 1]?.seq ?? upTo;
        const complete = runs.length < RUNS ? upTo : runs[0]?.seq === last ? last : last - 1;
        for await (const ids of changedIds(catalogue, state.watermark, complete, BATCH, true)) {
          if (ids !== 'all') await writeTexts(catalogue, trx, this.text, this.fields, this.rule, ids);
        }
        await catalogue.setTextState({ ...state, watermark: complete });
        return 'more' as const;
      });
      if (step === 'done') return;
      await pause();
    }
  }

  /** Catches the full-text index up with each write, until the writing ended. */
  async follow(writing: CatalogueWriting, progress?: Progress): Promise<void> {
    for (;;) {
      const ended = writing.ended();
      await this.catchUp(await this.catalogue.generation(), progress);
      if (ended) return;
      await writing.wrote();
    }
  }
}
