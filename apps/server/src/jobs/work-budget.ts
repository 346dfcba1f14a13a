import { hostname } from 'node:os';
import { busy } from '../http/errors.ts';
import { workKinds, type WorkKind, type WorkSettings } from '../settings.ts';
import type { JobHandler } from './job.worker.ts';
import type { WorkSlotRepository } from './work-slot.repository.ts';

export type { WorkKind };

export interface WorkBudgetOptions {
  /** How long a shared slot stays ours without renewal; a dead process's slots are free after it. */
  leaseMs?: number;
  /** How often a caller looks again for a shared slot that other processes hold. */
  pollMs?: number;
  /** Told when a slot could not be renewed or given back (the database is away); its lease runs out. */
  onError?: (error: Error) => void;
}

export interface WorkStats {
  /** Works of the kind running in this process. */
  running: number;
  /** Callers in this process waiting for a slot (their own process's or a shared one). */
  waiting: number;
  /** Slots of the kind per process. */
  size: number;
}

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
}

interface Pool {
  kind: WorkKind;
  size: number;
  total: number;
  /** Slots of this process taken: running, or waiting for a shared slot. */
  taken: number;
  running: number;
  waitingShared: number;
  /** Requests are let in before background jobs; only requests are refused when the line is full. */
  requests: Waiter[];
  jobs: Waiter[];
}

const nouns: Record<WorkKind, string> = {
  convert: 'conversions',
  pdf_page: 'page renders',
  model_view: '3D previews',
  checksum: 'file checks',
  thumbnail: 'thumbnails',
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * One budget for expensive work (child processes, CPU-heavy rendering, reading whole files): each
 * kind has a number of slots per process and a number across all processes. A process's slots are
 * counted in memory; the shared ones are rows of `work_slot`, leased by this process, renewed while
 * the work runs and taken over when a dead process stops renewing them. A request waits a short
 * while in a short line and is otherwise refused with 429 `busy`, so a crowd of callers costs a
 * bounded amount of work and memory instead of an endless queue.
 */
export class WorkBudget {
  readonly holder = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  private readonly pools: Record<WorkKind, Pool>;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  /** Shared slots this process holds, by kind, renewed together by one timer. */
  private readonly held = new Map<WorkKind, Set<number>>();
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly slots: WorkSlotRepository,
    private readonly settings: WorkSettings,
    private readonly options: WorkBudgetOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 250;
    const pool = (kind: WorkKind): Pool => ({
      kind,
      size: settings[kind].perProcess,
      total: settings[kind].total,
      taken: 0,
      running: 0,
      waitingShared: 0,
      requests: [],
      jobs: [],
    });
    this.pools = Object.fromEntries(workKinds.map((k) => [k, pool(k)])) as Record<WorkKind, Pool>;
  }

  /**
   * Runs `work` once a slot of `kind` is free in this process and across processes. `request`: waits
   * at most the configured wait and only when the line has room, else throws 429 `busy` with
   * Retry-After. `job`: waits as long as it takes (background work).
   */
  async run<T>(kind: WorkKind, mode: 'request' | 'job', work: () => Promise<T>): Promise<T> {
    const pool = this.pools[kind];
    const deadline = mode === 'request' ? Date.now() + this.settings.waitSeconds * 1000 : Infinity;
    await this.enter(pool, mode, deadline);
    try {
      const slot = await this.takeShared(pool, deadline);
      pool.running++;
      try {
        return await work();
      } finally {
        pool.running--;
        await this.release(kind, slot);
      }
    } finally {
      this.leave(pool);
    }
  }

  stats(): Record<WorkKind, WorkStats> {
    const entry = (p: Pool): WorkStats => ({
      running: p.running,
      waiting: p.requests.length + p.jobs.length + p.waitingShared,
      size: p.size,
    });
    return Object.fromEntries(workKinds.map((k) => [k, entry(this.pools[k])])) as Record<WorkKind, WorkStats>;
  }

  /** Slots held now in all processes, per kind (for metrics). */
  async shared(): Promise<Record<WorkKind, number>> {
    const held = await this.slots.held();
    return Object.fromEntries(workKinds.map((k) => [k, held.get(k) ?? 0])) as Record<WorkKind, number>;
  }

  /**
   * Refuses waiting callers and gives this process's shared slots back, so other processes need not
   * wait for the leases to run out (a stopping server). Work still running finishes unrecorded.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const pool of Object.values(this.pools)) {
      for (const waiter of [...pool.requests.splice(0), ...pool.jobs.splice(0)]) {
        clearTimeout(waiter.timer);
        waiter.reject(this.busy(pool.kind));
      }
    }
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.held.clear();
    await this.slots.releaseAll(this.holder);
  }

  private busy(kind: WorkKind) {
    const seconds = Math.max(1, Math.ceil(this.settings.waitSeconds));
    return busy(`The server is busy with other ${nouns[kind]}; please try again in ${seconds} seconds.`, seconds);
  }

  /** Takes one of this process's slots, waiting in line when all are taken. */
  private async enter(pool: Pool, mode: 'request' | 'job', deadline: number): Promise<void> {
    if (this.closed) throw this.busy(pool.kind);
    const lineEmpty = pool.requests.length + pool.jobs.length === 0;
    if (pool.taken < pool.size && lineEmpty) {
      pool.taken++;
      return;
    }
    if (mode === 'request' && pool.requests.length >= this.settings.queue) throw this.busy(pool.kind);
    const line = mode === 'request' ? pool.requests : pool.jobs;
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject };
      if (deadline !== Infinity) {
        waiter.timer = setTimeout(
          () => {
            line.splice(line.indexOf(waiter), 1);
            reject(this.busy(pool.kind));
          },
          Math.max(0, deadline - Date.now()),
        );
      }
      line.push(waiter);
    });
  }

  /** Hands this process's slot to the next in line (requests first), or frees it. */
  private leave(pool: Pool): void {
    const next = pool.requests.shift() ?? pool.jobs.shift();
    if (!next) {
      pool.taken--;
      return;
    }
    clearTimeout(next.timer);
    next.resolve();
  }

  /** Takes one of the kind's shared slots, looking again every poll until the deadline. */
  private async takeShared(pool: Pool, deadline: number): Promise<number> {
    // Starting at a slot of its own spreads the processes' first tries over the slots.
    const first = Math.floor(Math.random() * pool.total);
    pool.waitingShared++;
    try {
      for (;;) {
        if (this.closed) throw this.busy(pool.kind);
        const slot = await this.slots.take(pool.kind, pool.total, this.holder, this.leaseMs, first);
        if (slot !== undefined) {
          this.hold(pool.kind, slot);
          return slot;
        }
        if (Date.now() + this.pollMs > deadline) throw this.busy(pool.kind);
        await sleep(this.pollMs);
      }
    } finally {
      pool.waitingShared--;
    }
  }

  private hold(kind: WorkKind, slot: number): void {
    let set = this.held.get(kind);
    if (!set) this.held.set(kind, (set = new Set()));
    set.add(slot);
    if (!this.heartbeat) {
      this.heartbeat = setInterval(() => void this.renew(), Math.max(20, Math.floor(this.leaseMs / 3)));
      this.heartbeat.unref();
    }
  }

  private async renew(): Promise<void> {
    const held = [...this.held].filter(([, set]) => set.size > 0);
    if (held.length === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
      return;
    }
    try {
      await this.slots.renew(
        this.holder,
        held.map(([kind, set]) => ({ kind, slots: [...set] })),
        this.leaseMs,
      );
    } catch (err) {
      this.options.onError?.(err as Error);
    }
  }

  private async release(kind: WorkKind, slot: number): Promise<void> {
    // Dropped from the renewed set first: a slot that cannot be given back now runs out by itself.
    this.held.get(kind)?.delete(slot);
    try {
      await this.slots.release(kind, slot, this.holder);
    } catch (err) {
      this.options.onError?.(err as Error);
    }
  }
}

/** Job handlers whose runs take a slot of `kind` first, waiting as long as it takes. */
export function withinBudget(budget: WorkBudget, kind: WorkKind, handlers: readonly JobHandler[]): JobHandler[] {
  return handlers.map((h) => ({ ...h, run: (payload, job) => budget.run(kind, 'job', () => h.run(payload, job)) }));
}
