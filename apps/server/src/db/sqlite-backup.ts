import SQLite from 'better-sqlite3';

/** Pages copied per step of an online backup (4 KiB each): short steps, so progress can be shown. */
const PAGES_PER_STEP = 2048;

/**
 * Copies a SQLite database that may be in use into `target` with SQLite's online backup API: a
 * consistent copy as of one moment, taken beside a running server without stopping its writes.
 * A write by another process restarts a backup taken in steps; after the first restart the rest is
 * copied in one step (one read transaction, which under WAL holds up no writer), so it always ends.
 */
export async function backupSqlite(
  file: string,
  target: string,
  onProgress: (done: number, total: number) => void = () => undefined,
): Promise<void> {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    let lowest = Infinity;
    let restarted = false;
    await db.backup(target, {
      progress: ({ totalPages, remainingPages }) => {
        if (remainingPages > lowest) restarted = true;
        lowest = Math.min(lowest, remainingPages);
        onProgress(totalPages - remainingPages, totalPages);
        return restarted ? 0x7fffffff : PAGES_PER_STEP;
      },
    });
  } finally {
    db.close();
  }
}
