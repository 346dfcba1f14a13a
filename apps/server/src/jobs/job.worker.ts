import { availableParallelism, hostname } from 'node:os';
import type { JobRepository, JobRow, NewJob } from './job.repository.ts';

/**
 * A named, idempotent piece of background work. `run` may be called again for the same payload
 * (after a crash or a retry), so it must check what is already done.
 */
export interface JobHandler<P = unknown> {
  name: string;
  parse(payload: unknown): P;
  run(payload: P, job: JobRow): Promise<void>;
}

export interface WorkerOptions {
  /** Jobs run at the same time; default: one per CPU. */
  concurrency?: number;
  /** How long a claimed job stays ours without renewal; a dead process's jobs are taken over after it. */
  leaseMs?: number;
  /** First retry after this long, doubling with each attempt. */
  backoffMs?: number;
  pollMs?: number;
  /**
   * Jobs asked for when the worker starts and again every `everyMs` while it runs. Each has a fixed
   * key, so however many processes ask, one run is queued at a time.
   */
  recurring?: { job: NewJob; everyMs: number }[];
  /** Told when a recurring job could not be asked for (it is asked for again at its next time). */
  onScheduleFailed?: (name: string, error: unknown) => void;
  onSettled?: (job: JobRow, outcome: 'done' | 'retry' | 'failed', error?: string) => void;
  /** Told when the job table could not be reached; the worker keeps trying. */
  onUnavailable?: (error: Error) => void;
  /** Work this worker gives way to: each job is taken only once it is clear (uploads being imported). */
  yieldTo?: { clear(signal?: AbortSignal): Promise<void> };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs jobs from the shared jobs table. Several processes may run workers at once: each claim is a
 * single atomic update, and a lease that is renewed while the job runs tells the others it is alive.
 */
export class JobWorker {
  readonly id = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly backoffMs: number;
  private readonly pollMs: number;
  private running = false;
  private slots: Promise<void>[] = [];
  /** Jobs running now, so a stopping worker can hand back those that do not finish in time. */
  private readonly current = new Set<number>();
  private wake: (() => void)[] = [];
  /** Aborted when the worker stops, so a slot giving way to foreground work stops waiting. */
  private stopping = new AbortController();
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly jobs: JobRepository,
    handlers: JobHandler[],
    private readonly options: WorkerOptions = {},
  ) {
    for (const h of handlers) this.handlers.set(h.name, h);
    this.concurrency = Math.max(1, options.concurrency ?? availableParallelism());
    this.leaseMs = options.leaseMs ?? 60_000;
    this.backoffMs = options.backoffMs ?? 5_000;
    this.pollMs = options.pollMs ?? 1_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = new AbortController();
    this.slots = Array.from({ length: this.concurrency }, () => this.loop());
    for (const { job, everyMs } of this.options.recurring ?? []) {
      const ask = () =>
        void this.jobs.enqueue(job).then(
          () => this.notify(),
          (err: unknown) => this.options.onScheduleFailed?.(job.name, err),
        );
      ask();
      const timer = setInterval(ask, everyMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /**
   * Stops taking jobs and waits for the running ones to finish. With `handBackAfterMs`, jobs still
   * running after that long are handed back to the queue, for another process to run at once (the
   * handlers are idempotent; what this process's handler does afterwards is no longer recorded).
   */
  async stop(options: { handBackAfterMs?: number } = {}): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    this.running = false;
    this.stopping.abort();
    this.notify();
    const finished = Promise.all(this.slots).then(() => true);
    const { handBackAfterMs } = options;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      if (handBackAfterMs !== undefined) timer = setTimeout(() => resolve(false), handBackAfterMs);
    });
    const inTime = await Promise.race([finished, late]);
    clearTimeout(timer);
    if (!inTime) {
      const ids = [...this.current];
      this.current.clear();
      await Promise.all(ids.map((id) => this.jobs.handBack(id, this.id)));
    }
    this.slots = [];
  }

  /** Wakes idle slots at once (after enqueueing) instead of at the next poll. */
  notify(): void {
    for (const w of this.wake.splice(0)) w();
  }

  /** Resolves when no job this worker can run is queued or running any more (in any process). */
  async drain(): Promise<void> {
    this.start();
    for (;;) {
      const { count } = await this.jobs.pending([...this.handlers.keys()]);
      if (count === 0) return;
      await sleep(Math.min(this.pollMs, 250));
    }
  }

  private async idle(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake.push(done);
    });
  }

  private async loop(): Promise<void> {
    const names = [...this.handlers.keys()];
    while (this.running) {
      try {
        await this.options.yieldTo?.clear(this.stopping.signal);
        if (!this.running) break;
        const job = await this.jobs.claim(this.id, names, this.leaseMs);
        if (!job) {
          await this.idle(this.pollMs);
          continue;
        }
        await this.execute(job);
      } catch (err) {
        // The database is away (a restart, a failover): keep the worker, try again after a pause.
        // A job whose outcome could not be written is taken over when its lease runs out.
        this.options.onUnavailable?.(err as Error);
        await this.idle(Math.max(this.pollMs, 1_000));
      }
    }
  }

  private async execute(job: JobRow): Promise<void> {
    this.current.add(job.id);
    try {
      await this.settle(job);
    } finally {
      this.current.delete(job.id);
    }
  }

  private async settle(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.name);
    const heartbeat = setInterval(
      () => void this.jobs.renewLease(job.id, this.id, this.leaseMs).catch(() => undefined),
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    try {
      if (!handler) throw new Error(`no handler for job ${job.name}`);
      if (job.attempts > job.max_attempts) {
        throw new Error(`gave up after ${job.max_attempts} attempts (a process stopped while running it)`);
      }
      await handler.run(handler.parse(JSON.parse(job.payload)), job);
      clearInterval(heartbeat);
      await this.jobs.complete(job.id, this.id);
      this.options.onSettled?.(job, 'done');
    } catch (err) {
      clearInterval(heartbeat);
      const message = err instanceof Error ? err.message : String(err);
      const retry = job.attempts < job.max_attempts;
      const retryAt = retry ? Date.now() + this.backoffMs * 2 ** (job.attempts - 1) : null;
      await this.jobs.fail(job.id, this.id, message, retryAt);
      this.options.onSettled?.(job, retry ? 'retry' : 'failed', message);
    }
  }
}
