// The write thread (db/write-thread.ts): a connection of its own to the SQLite file that runs the
// statements of the catalogue's long write transactions (an edit, the bin, undo: `changeAssets`), so that
// SQLite's time in them (full-text documents, the commit) is not spent on the event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite, withStatementCache } from './sqlite-connection.ts';
import type { ThreadAnswer, ThreadQuery } from './write-thread.ts';

const { file, busyMs } = workerData as { file: string; busyMs: number };
const sqlite = openSqlite(file, busyMs);
// The server's checkpointer thread copies the write-ahead log (adapters/checkpointer.ts): a commit
// here does not.
sqlite.pragma('wal_autocheckpoint = 0');
const connection = withStatementCache(sqlite);

/** Blobs come as Uint8Array through the thread's messages; SQLite binds Buffers. */
const bound = (parameters: readonly unknown[]): unknown[] =>
  parameters.map((p) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p) : p));

const answer = (query: ThreadQuery): ThreadAnswer => {
  try {
    const statement = connection.prepare(query.sql);
    const parameters = bound(query.parameters);
    if (statement.reader) return { id: query.id, rows: statement.all(parameters) as Record<string, unknown>[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { id: query.id, changes, lastInsertRowid: BigInt(lastInsertRowid) };
  } catch (err) {
    const { message, code } = err as { message?: unknown; code?: unknown };
    return {
      id: query.id,
      error: { message: String(message ?? err), ...(typeof code === 'string' ? { code } : {}) },
    };
  }
};

parentPort?.on('message', (message: ThreadQuery | 'stop') => {
  if (message === 'stop') {
    // A transaction still open is rolled back as the connection closes.
    connection.close();
    parentPort?.close();
    return;
  }
  parentPort?.postMessage(answer(message));
});
