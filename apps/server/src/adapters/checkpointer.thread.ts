// The checkpointer's thread (adapters/checkpointer.ts): its own connection to the SQLite file. Whenever
// the write-ahead log changed, at most once per `everyMs`, it first runs the upkeep statements (the
// full-text index's merges) and then copies the log into the database.
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { file, everyMs, upkeep, upkeepMs } = workerData as {
  file: string;
  everyMs: number;
  upkeep: string[];
  upkeepMs: number;
};
const db = new SQLite(file);
// Waiting here blocks only this thread; a checkpoint that still finds the lock taken is tried at the
// next round.
db.pragma('busy_timeout = 1000');
const totalChanges = db.prepare('select total_changes() as n').pluck();

/**
 * Runs each upkeep statement again while it still changes rows (a merge step that finds nothing to
 * merge changes fewer than two), for at most `upkeepMs` a round: each step takes the write lock for
 * a few tens of milliseconds, so a write waits at most one step.
 */
const upkeepRound = (): { steps: number; more: boolean } => {
  const started = performance.now();
  let steps = 0;
  let more = false;
  for (const text of upkeep) {
    const statement = db.prepare(text);
    for (;;) {
      if (performance.now() - started >= upkeepMs) {
        more = true;
        break;
      }
      const before = totalChanges.get() as number;
      statement.run();
      steps++;
      if ((totalChanges.get() as number) - before < 2) break;
    }
  }
  return { steps, more };
};

let seen = -1;
const round = () => {
  try {
    const changed = statSync(`${file}-wal`, { throwIfNoEntry: false })?.mtimeMs ?? -1;
    if (changed === seen) return;
    const { steps, more } = upkeepRound();
    // PASSIVE: copies what no reader still needs, without waiting for readers or writers.
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    // A log not copied whole (a reader holds old pages) is tried again at the next round, as is
    // upkeep that ran out of its time; its own writes, once copied, do not count as a change.
    if (!more && result && result.busy === 0 && result.checkpointed === result.log)
      seen = statSync(`${file}-wal`, { throwIfNoEntry: false })?.mtimeMs ?? -1;
    parentPort?.postMessage({ checkpointed: result?.checkpointed ?? 0, upkeep: steps });
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
