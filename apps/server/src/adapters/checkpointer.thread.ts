// The checkpointer's thread (adapters/checkpointer.ts): its own connection to the SQLite file, which copies
// the write-ahead log into the database whenever the log changed, at most once per `everyMs`.
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new SQLite(file);
// Waiting here blocks only this thread; a checkpoint that still finds the lock taken is tried at the
// next round.
db.pragma('busy_timeout = 1000');

let seen = -1;
const round = () => {
  try {
    const changed = statSync(`${file}-wal`, { throwIfNoEntry: false })?.mtimeMs ?? -1;
    if (changed === seen) return;
    // PASSIVE: copies what no reader still needs, without waiting for readers or writers.
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    // A log not copied whole (a reader holds old pages) is tried again at the next round.
    if (result && result.busy === 0 && result.checkpointed === result.log) seen = changed;
    parentPort?.postMessage({ checkpointed: result?.checkpointed ?? 0 });
  } catch (err) {
    parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
const timer = setInterval(round, everyMs);

parentPort?.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
