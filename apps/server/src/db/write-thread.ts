import type { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type Transaction,
} from 'kysely';
import { startThread } from '../adapters/thread.ts';
import type { Database } from './schema.ts';

/** A statement for the write thread. */
export interface ThreadQuery {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

/** The write thread's answer to a statement: its rows, what it changed, or SQLite's error. */
export type ThreadAnswer =
  | { id: number; rows: Record<string, unknown>[] }
  | { id: number; changes: number; lastInsertRowid: bigint }
  | { id: number; error: { message: string; code?: string } };

/** An error SQLite answered in the write thread, with its code as better-sqlite3 gives it (SQLITE_BUSY, …). */
export class SqliteThreadError extends Error {
  override name = 'SqliteError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * How long the write thread's statements wait inside SQLite for another process's write lock (an
 * import, a backup): only the thread waits.
 */
const THREAD_BUSY_MS = 5000;

/** The SQLite adapter of the write thread's query builder: tells its transactions apart (`statementRows`). */
class ThreadAdapter extends SqliteAdapter {}

/**
 * How many times more rows a statement takes when the database's time in it does not hold the event
 * loop (the write thread's connection, PostgreSQL) than one on SQLite's connection of the event loop:
 * only its parameters and rows pass the loop. Fewer, larger statements spare the round trips (an edit
 * of 5,000 assets made some 200).
 */
const OFF_LOOP_ROWS = 4;

/** `size` rows a statement, or OFF_LOOP_ROWS times as many where the database works off the event loop. */
export function statementRows(db: Kysely<Database>, size: number): number {
  const { adapter } = db.getExecutor();
  return adapter instanceof ThreadAdapter || adapter instanceof PostgresAdapter ? size * OFF_LOOP_ROWS : size;
}

/** Blobs come back as Uint8Array through the thread's messages; the connection on the event loop answers Buffers. */
function withBuffers(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  for (const row of rows)
    for (const key in row) {
      const v = row[key];
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) row[key] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    }
  return rows;
}

/** Lets one holder at a time have the thread's connection (the SQLite driver's rule: one connection). */
class Mutex {
  private held: Promise<void> | undefined;
  private release: (() => void) | undefined;

  async lock(): Promise<void> {
    while (this.held) await this.held;
    this.held = new Promise((resolve) => (this.release = resolve));
  }

  unlock(): void {
    const release = this.release;
    this.held = undefined;
    this.release = undefined;
    release?.();
  }
}

/**
 * A connection to the SQLite file in a thread of its own (db/write.thread.ts), for the catalogue's
 * long write transactions: a bulk edit of thousands of assets spends about a second in SQLite
 * (reading the current values, writing values, marks, history and full-text documents, the
 * commit), in statements of up to 130 ms each. Run on the event loop's connection, every request
 * waited for each of them. Here only the statements' parameters and rows pass the event loop.
 *
 * `transaction` holds the event loop's connection meanwhile, so the process's other queries wait
 * for the transaction as they did when it ran there (one writer per process, no lock to contend for
 * between the two connections). The thread starts with the first transaction, and again after it
 * stopped (a transaction in flight then fails; SQLite rolls it back).
 */
export class WriteThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (a: ThreadAnswer) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  /** The query builder over the thread's connection. */
  readonly kysely: Kysely<Database>;

  constructor(
    private readonly file: string,
    /** The event loop's connection, held while the thread writes. */
    private readonly main: Kysely<Database>,
  ) {
    this.kysely = new Kysely<Database>({ dialect: threadDialect(this) });
  }

  /** Runs `write` in a transaction of the thread's connection (committed when it resolves, else rolled back). */
  transaction<T>(write: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.main.connection().execute(() => this.kysely.transaction().execute(write));
  }

  /** Runs one statement in `worker`, the thread of the caller's transaction. */
  async run(worker: Worker, sql: string, parameters: readonly unknown[]): Promise<ThreadAnswer> {
    // A thread that ended took its transaction with it: the statement may not run on another.
    if (this.worker !== worker) throw new ThreadEnded();
    const id = this.nextId++;
    const answer = await new Promise<ThreadAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // A statement under way keeps the process going, as a query of the event loop's connection would.
      worker.ref();
      worker.postMessage({ id, sql, parameters } satisfies ThreadQuery);
    });
    if ('error' in answer) throw new SqliteThreadError(answer.error.message, answer.error.code);
    return answer;
  }

  /**
   * Starts the thread and opens its connection before a write needs them (SQLite reads the schema
   * at the first statement): a server's first edit otherwise waited for both, some 0.15–0.3 s of
   * loading the thread's modules and the database driver.
   */
  async warm(): Promise<void> {
    await this.kysely.selectFrom('catalogue_state').select('generation').execute();
  }

  /** The thread's id while it runs (undefined before it started and after it ended). */
  get threadId(): number | undefined {
    return this.worker?.threadId;
  }

  /** Ends the thread (its connection closes); a later transaction starts it again. */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // Its end is awaited: until then it keeps the process going.
    worker.ref();
    worker.postMessage('stop');
    await ended;
  }

  /** The thread, started when there is none. */
  started(): Worker {
    if (this.worker) return this.worker;
    const worker = startThread('write.thread', import.meta.url, {
      workerData: { file: this.file, busyMs: THREAD_BUSY_MS },
    });
    worker.on('message', (answer: ThreadAnswer) => {
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      waiting?.resolve(answer);
    });
    const lost = (err: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    };
    worker.on('error', lost);
    worker.on('exit', () => lost(new ThreadEnded()));
    // An idle thread does not keep the process going.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/** The write thread ended while a transaction was under way (its connection rolled it back). */
class ThreadEnded extends Error {
  constructor() {
    super("The database's write thread ended during the transaction; nothing of it was written.");
  }
}

/** Kysely's SQLite dialect with statements run by the write thread. */
function threadDialect(thread: WriteThread): Dialect {
  /** The connection of a transaction: the thread it began on, for every statement of it. */
  const connectionOn = (worker: Worker): DatabaseConnection => ({
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const answer = await thread.run(worker, query.sql, query.parameters);
      if ('rows' in answer) return { rows: withBuffers(answer.rows) as R[] };
      if (!('changes' in answer)) throw new Error('The write thread answered neither rows nor changes.');
      return { numAffectedRows: BigInt(answer.changes), insertId: answer.lastInsertRowid, rows: [] };
    },
    // eslint-disable-next-line require-yield
    async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
      throw new Error("The write thread's queries are not streamed.");
    },
  });
  const mutex = new Mutex();
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => {
      await mutex.lock();
      try {
        return connectionOn(thread.started());
      } catch (err) {
        mutex.unlock();
        throw err;
      }
    },
    beginTransaction: async (c) => void (await c.executeQuery(CompiledQuery.raw('begin'))),
    commitTransaction: async (c) => void (await c.executeQuery(CompiledQuery.raw('commit'))),
    rollbackTransaction: async (c) => {
      try {
        await c.executeQuery(CompiledQuery.raw('rollback'));
      } catch (err) {
        // A thread that ended rolled back as its connection closed.
        if (!(err instanceof ThreadEnded)) throw err;
      }
    },
    releaseConnection: async () => mutex.unlock(),
    destroy: () => thread.stop(),
  };
  return {
    createDriver: () => driver,
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createAdapter: () => new ThreadAdapter(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  };
}
