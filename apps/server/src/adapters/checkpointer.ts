import { startThread } from './thread.ts';

/** How often the checkpointer looks whether the write-ahead log changed (ms). */
const EVERY_MS = 1000;

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
 * `onError` hears of a checkpoint that failed, `onCheckpoint` of the pages each copied.
 */
export function startCheckpointer(
  file: string,
  onError: (message: string) => void,
  onCheckpoint?: (pages: number) => void,
): Checkpointer {
  const worker = startThread('checkpointer.thread', import.meta.url, { workerData: { file, everyMs: EVERY_MS } });
  worker.on('message', (m: { error?: string; checkpointed?: number }) => {
    if (m.error) onError(m.error);
    else onCheckpoint?.(m.checkpointed ?? 0);
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
