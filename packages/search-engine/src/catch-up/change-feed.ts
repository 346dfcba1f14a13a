/**
 * Reading the catalogue's change log: every write transaction takes the next change sequence
 * number and records the id runs it touched under it, so runs read in (seq, first id) order are
 * the changes in commit order.
 */
import { ALL_ASSETS, type Catalogue, type ChangeRun } from '../ports.ts';

/** Assets read at once in a full load, and changed ids per batch when texts are caught up. */
export const BATCH = 5000;
/** Change runs read at once. */
export const RUNS = 5000;

/** A catalogue change that touched every asset (see ALL_ASSETS): indexes load everything again. */
export const touchesAll = (run: ChangeRun): boolean => run.first === ALL_ASSETS[0] && run.last === ALL_ASSETS[1];

/**
 * The ids that changes after sequence `after` up to `upTo` touched (deleted assets included), in
 * batches of `size` ids, or 'all' when a change touched every asset; with `texts`, only those of
 * changes that may have changed texts.
 */
export async function* changedIds<Tx>(
  catalogue: Catalogue<Tx>,
  after: number,
  upTo: number,
  size = BATCH,
  texts = false,
): AsyncGenerator<number[] | 'all'> {
  let cursor = { seq: after, first: Number.MAX_SAFE_INTEGER };
  let pending: number[] = [];
  for (;;) {
    const runs = await catalogue.changesAfter(cursor, upTo, RUNS, texts);
    if (runs.some(touchesAll)) {
      yield 'all';
      return;
    }
    for (const run of runs) {
      for (let id = run.first; id <= run.last; id++) {
        pending.push(id);
        if (pending.length >= size) {
          yield pending;
          pending = [];
        }
      }
    }
    const lastRun = runs.at(-1);
    if (runs.length < RUNS || !lastRun) break;
    cursor = lastRun;
  }
  if (pending.length > 0) yield pending;
}

/**
 * Each item of `source` read by `read`, the next item's read started before this one is handed out:
 * a database that answers asynchronously (PostgreSQL) reads the next slice of a catch-up while the
 * caller applies this one, instead of the two taking turns.
 */
export async function* readAhead<T, U>(source: AsyncIterable<T>, read: (item: T) => Promise<U>): AsyncGenerator<U> {
  const items = source[Symbol.asyncIterator]();
  const next = async (): Promise<{ value: U } | undefined> => {
    const item = await items.next();
    return item.done ? undefined : { value: await read(item.value) };
  };
  let pending = next();
  try {
    for (;;) {
      const got = await pending;
      if (!got) return;
      pending = next();
      yield got.value;
    }
  } finally {
    // A caller that stops early leaves a read under way: its failure is nobody's to see.
    pending.catch(() => undefined);
  }
}

/** True when the changes after `from` up to `to` created `count` assets above `above` and did nothing else. */
export async function onlyCreated<Tx>(
  catalogue: Catalogue<Tx>,
  from: number,
  to: number,
  above: number,
  count: number,
): Promise<boolean> {
  const runs: ChangeRun[] = [];
  let cursor = { seq: from, first: Number.MAX_SAFE_INTEGER };
  for (;;) {
    const page = await catalogue.changesAfter(cursor, to, RUNS);
    runs.push(...page);
    const lastRun = page.at(-1);
    if (page.length < RUNS || !lastRun) break;
    cursor = lastRun;
  }
  runs.sort((a, b) => a.first - b.first);
  let next = above + 1;
  let total = 0;
  for (const run of runs) {
    // Runs in id order must not overlap (an asset changed twice) nor touch older assets.
    if (run.first < next) return false;
    next = run.last + 1;
    total += run.last - run.first + 1;
  }
  return total === count;
}
