import { sql, type Kysely, type Selectable } from 'kysely';
import { isPostgres } from '../db/dialect.ts';
import type { Database, JobTable } from '../db/schema.ts';

export type JobRow = Selectable<JobTable>;

export interface NewJob {
  name: string;
  /** Enqueueing the same key twice while the first is not finished does nothing. */
  key: string;
  payload: unknown;
  maxAttempts?: number;
}

export interface JobCounts {
  queued: number;
  running: number;
  done: number;
  failed: number;
}

/** The shared job queue. Accepts a transaction, so work can be enqueued with the change that causes it. */
export class JobRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async enqueue(job: NewJob, now = Date.now()): Promise<void> {
    await this.db
      .insertInto('job')
      .values({
        name: job.name,
        key: job.key,
        payload: JSON.stringify(job.payload),
        max_attempts: job.maxAttempts ?? 3,
        run_after: now,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            status: 'queued',
            attempts: 0,
            run_after: now,
            last_error: null,
            payload: JSON.stringify(job.payload),
            updated_at: now,
          })
          // A finished job with the same key is run again (asked for anew); a pending one is left alone.
          .where('job.status', 'in', ['done', 'failed']),
      )
      .execute();
  }

  /**
   * Takes the next due job: a queued one whose time has come, or a running one whose lease ran out
   * (its process died). The lease is renewed while the job runs.
   */
  async claim(worker: string, names: string[], leaseMs: number, now = Date.now()): Promise<JobRow | undefined> {
    if (names.length === 0) return undefined;
    const lock = isPostgres(this.db) ? sql`for update skip locked` : sql``;
    const result = await sql<JobRow>`
      update job set status = 'running', locked_by = ${worker}, locked_until = ${now + leaseMs},
        attempts = attempts + 1, updated_at = ${now}
      where id = (
        select id from job
        where name in (${sql.join(names)})
          and ((status = 'queued' and run_after <= ${now}) or (status = 'running' and locked_until < ${now}))
        order by run_after, id
        limit 1 ${lock}
      )
      returning *`.execute(this.db);
    return result.rows[0];
  }

  async renewLease(id: number, worker: string, leaseMs: number, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('job')
      .set({ locked_until: now + leaseMs })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .execute();
  }

  async complete(id: number, worker: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('job')
      .set({ status: 'done', locked_by: null, locked_until: null, last_error: null, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .execute();
  }

  /**
   * Gives a running job back to the queue untouched (this process is stopping): another process
   * takes it at once instead of after the lease, and the attempt does not count.
   */
  async handBack(id: number, worker: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('job')
      .set({
        status: 'queued',
        attempts: sql`attempts - 1`,
        run_after: now,
        locked_by: null,
        locked_until: null,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .where('status', '=', 'running')
      .execute();
  }

  /** Puts the job back for another attempt at `retryAt`, or marks it failed when `retryAt` is null. */
  async fail(id: number, worker: string, error: string, retryAt: number | null, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('job')
      .set({
        status: retryAt === null ? 'failed' : 'queued',
        run_after: retryAt ?? now,
        locked_by: null,
        locked_until: null,
        last_error: error.slice(0, 2000),
        updated_at: now,
      })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .execute();
  }

  /** Jobs not finished yet and when the next one is due (for waiting until the queue drains). */
  async pending(names: string[]): Promise<{ count: number; nextDue: number | null }> {
    if (names.length === 0) return { count: 0, nextDue: null };
    const row = await this.db
      .selectFrom('job')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('run_after').as('next')])
      .where('status', 'in', ['queued', 'running'])
      .where('name', 'in', names)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), nextDue: row.next === null ? null : Number(row.next) };
  }

  /** Removes jobs that finished before `doneBefore` (done) or `failedBefore` (failed); answers how many. */
  async purgeFinished(doneBefore: number, failedBefore: number): Promise<number> {
    const result = await this.db
      .deleteFrom('job')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'done'), eb('updated_at', '<', doneBefore)]),
          eb.and([eb('status', '=', 'failed'), eb('updated_at', '<', failedBefore)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async counts(): Promise<JobCounts> {
    const rows = await this.db
      .selectFrom('job')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    const counts: JobCounts = { queued: 0, running: 0, done: 0, failed: 0 };
    for (const r of rows) counts[r.status] = Number(r.n);
    return counts;
  }

  /**
   * Per job name with jobs not finished: how many wait (queued, due or not) and run, and the
   * earliest time one of the waiting ones is or was due (ms).
   */
  async queue(): Promise<{ name: string; queued: number; running: number; firstDue: number | null }[]> {
    const rows = await this.db
      .selectFrom('job')
      .select((eb) => ['name', 'status', eb.fn.countAll<number>().as('n'), eb.fn.min('run_after').as('due')])
      .where('status', 'in', ['queued', 'running'])
      .groupBy(['name', 'status'])
      .execute();
    const byName = new Map<string, { name: string; queued: number; running: number; firstDue: number | null }>();
    for (const r of rows) {
      const entry = byName.get(r.name) ?? { name: r.name, queued: 0, running: 0, firstDue: null };
      if (r.status === 'queued') {
        entry.queued = Number(r.n);
        entry.firstDue = r.due === null ? null : Number(r.due);
      } else entry.running = Number(r.n);
      byName.set(r.name, entry);
    }
    return [...byName.values()];
  }

  async failures(limit = 50): Promise<Pick<JobRow, 'name' | 'key' | 'last_error' | 'attempts'>[]> {
    return this.db
      .selectFrom('job')
      .select(['name', 'key', 'last_error', 'attempts'])
      .where('status', '=', 'failed')
      .orderBy('id')
      .limit(limit)
      .execute();
  }
}
