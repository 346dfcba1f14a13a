import { parentPort, workerData } from 'node:worker_threads';
import type { CatalogueWriting } from '@vitrine/search-engine';
import { withServices } from '../services.ts';
import type { Settings } from '../settings.ts';

/**
 * The indexing thread of `vitrine bench-data` (started by bench-data.command.ts): loads the search
 * index while the main thread writes the catalogue, told by messages when a chunk was written
 * ('wrote') and when the writing ended ('ended'); then writes the index snapshot. Reports 'ready'
 * once its database is open, the progress of each phase, and 'done'.
 */
export interface IndexerData {
  settings: Settings;
  total: number;
}

export type IndexerMessage =
  { ready: true } | { phase: string; done: number; total: number } | { done: true; snapshotSeconds: number };

const port = parentPort!;
const { settings, total } = workerData as IndexerData;
const tell = (message: IndexerMessage) => port.postMessage(message);

let ended = false;
/** Writes told since each waiter last waited (one waiter per loop following the writing). */
let told = 0;
const waiting: (() => void)[] = [];
port.on('message', (message: 'wrote' | 'ended') => {
  if (message === 'ended') ended = true;
  told++;
  for (const wake of waiting.splice(0)) wake();
});

/** The writing as one loop sees it: `wrote` resolves at once when a write was told since its last wait. */
function follower(): CatalogueWriting {
  let seen = 0;
  return {
    total,
    ended: () => ended,
    wrote: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          seen = told;
          resolve();
        };
        if (told !== seen || ended) done();
        else waiting.push(done);
      }),
    follower,
  };
}

await withServices(settings, async (services) => {
  tell({ ready: true });
  await services.search.loadWhileWritten(follower(), (phase, done, all) => tell({ phase, done, total: all }));
  const started = performance.now();
  await services.search.saveSnapshot();
  tell({ done: true, snapshotSeconds: (performance.now() - started) / 1000 });
});
port.close();
