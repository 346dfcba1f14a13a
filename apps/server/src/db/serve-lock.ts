import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';
import type { Settings } from '../settings.ts';

/** A second `vitrine serve` on a SQLite database that a live server holds. */
export class ServeLockError extends Error {}

/** Longest path a unix socket may have, with room to spare (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

/**
 * The lock's address: a unix socket beside the database file, or, where that path is too long for a
 * socket, a name in Linux's abstract socket space made from the file's path.
 */
function lockAddress(dbFile: string): string {
  const file = path.resolve(dbFile);
  const socket = `${file}-serve.sock`;
  if (Buffer.byteLength(socket) <= MAX_SOCKET_PATH) return socket;
  const real = existsSync(file) ? realpathSync(file) : file;
  return `\0vitrine-serve-${createHash('sha256').update(real).digest('hex').slice(0, 40)}`;
}

/** The pid the holder of the lock answers with, or undefined when nobody listens (a stale socket). */
function holderOf(address: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const conn = createConnection(address);
    let answer = '';
    conn.setEncoding('utf8');
    conn.setTimeout(2000, () => conn.destroy());
    conn.on('data', (chunk: string) => (answer += chunk));
    conn.on('error', () => resolve(undefined));
    conn.on('close', () => {
      const pid = Number((/^\{"pid":(\d+)\}$/.exec(answer) ?? [])[1]);
      // Something listens but does not answer as a server does: taken for a holder all the same.
      resolve(Number.isInteger(pid) && pid > 0 ? pid : answer === '' ? undefined : -1);
    });
  });
}

/** Whether a live `vitrine serve` holds the SQLite database (commands keep their writes short then). */
export async function isServed(dbFile: string): Promise<boolean> {
  return (await holderOf(lockAddress(dbFile))) !== undefined;
}

/** Assets a command writes per transaction when no server waits for the database's write lock. */
export const BULK_BATCH = 5000;
/**
 * Assets a command writes per transaction on a SQLite database that a server is serving: the
 * server's writes wait for the write lock, and better-sqlite3 waits synchronously, so each
 * transaction must end well within 100 ms of the server's event loop (100 new assets took 61–77 ms
 * on 2 busy cores; 5000 took 0.7–0.9 s).
 */
export const SERVED_BATCH = 100;

/**
 * How many assets a command (bench-data, an import marking assets gone, `demo --reset`) writes per
 * transaction: SERVED_BATCH while a live server holds the SQLite database, else BULK_BATCH. On
 * PostgreSQL the server's event loop never waits for a lock, and the bulk size still bounds how long
 * a command holds the catalogue's change lock.
 */
export async function writeBatchSize(database: Settings['database']): Promise<number> {
  return database.dialect === 'sqlite' && (await isServed(database.file)) ? SERVED_BATCH : BULK_BATCH;
}

function listen(server: Server, address: string): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    server.listen(address, () => resolve(undefined));
  });
}

/**
 * Holds the SQLite database for this server process, or refuses with a ServeLockError when another
 * live `vitrine serve` holds it: SQLite serves one process (its writes are serialised on one file,
 * and this server's in-memory search index follows only its own writes quickly). The lock is a
 * listening unix socket: the system closes it when the process ends, however it ends, so a crashed
 * server leaves only a socket file that nobody answers on, which the next start removes. Commands
 * (import, users, backup, …) take no lock and run beside the server.
 */
export async function holdServeLock(dbFile: string): Promise<{ release(): Promise<void> }> {
  const address = lockAddress(dbFile);
  for (let attempt = 0; ; attempt++) {
    const server = createServer((conn) => conn.end(JSON.stringify({ pid: process.pid })));
    const failed = await listen(server, address);
    if (!failed) {
      server.unref();
      return { release: () => new Promise((resolve) => server.close(() => resolve())) };
    }
    if (failed.code !== 'EADDRINUSE' || attempt > 0) throw failed;
    const holder = await holderOf(address);
    if (holder !== undefined) {
      const who = holder > 0 ? `(process ${holder}) ` : '';
      throw new ServeLockError(
        `Another vitrine serve ${who}is serving the SQLite database ${path.resolve(dbFile)}. SQLite is served by ` +
          'one process (commands such as import, users and backup may run beside it). To run several server ' +
          'processes, use PostgreSQL: set DATABASE_URL (README "Several processes behind a balancer").',
      );
    }
    // Left by a server that ended without closing it (killed, crashed): nobody holds it.
    if (!address.startsWith('\0')) await rm(address, { force: true });
  }
}
