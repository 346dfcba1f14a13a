import { startThread } from './thread.ts';

/** How often the checkpointer looks whether the write-ahead log changed (ms). */
const EVERY_MS = 1000;

/** The longest upkeep of a round (ms): the rest waits for the next. */
const UPKEEP_MS = 250;

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * The SQLite write-ahead log of a server process is copied into the database by a thread of its own.
 * SQLite runs a checkpoint in whichever connection commits after the log passed 1,000 pages: after
 * another process wrote (an import, bench-data) and could not copy its pages while the server read,
 * that was the server's next small write (a session, a folded search count), which then copied
 * thousands of pages on the event loop (146–163 ms at 1M assets after a change of 5,000). The
 * server's own connection checkpoints no more (`leaveCheckpointsToThread`, db/database.ts); this
 * thread's connection does, when the log changed, without waiting for readers or writers (PASSIVE).
 * Before it copies, the thread runs the `upkeep` statements, each again while it changes rows, for
 * at most UPKEEP_MS a round: the full-text index's merges, which no longer run in the statements
 * that write it (decision 0272).
 * `onError` hears of a checkpoint that failed, `onCheckpoint` of the pages each copied and the upkeep
 * steps before it.
 */
export function startCheckpointer(
  file: string,
  onError: (message: string) => void,
  onCheckpoint?: (pages: number, upkeep: number) => void,
  upkeep: readonly string[] = [],
): Checkpointer {
  const worker = startThread('checkpointer.thread', import.meta.url, {
    workerData: { file, everyMs: EVERY_MS, upkeep, upkeepMs: UPKEEP_MS },
  });
  worker.on('message', (m: { error?: string; checkpointed?: number; upkeep?: number }) => {
    if (m.error) onError(m.error);
    else onCheckpoint?.(m.checkpointed ?? 0, m.upkeep ?? 0);
  });
  worker.on('error', (err) => onError(err.message));
  worker.unref();
  return {
    stop: async () => {
      const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      await ended;
      // The server's connection, now the last, copies what is left when it closes.
    },
  };
}
