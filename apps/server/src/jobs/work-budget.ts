import { hostname } from 'node:os';
import { busy, clientGone, forbidden } from '../http/errors.ts';
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

export interface RunOptions {
  /** The caller has an account (`auth.userId !== null`): it may take the slots kept for accounts. */
  forAccount?: boolean;
  /** Aborted when the caller went away: it leaves the line, or stops looking for a shared slot. */
  signal?: AbortSignal;
}

/**
 * Which slots a caller may take: `any` (account holders; every caller of a kind that keeps none),
 * or `open`, the ones not kept for account holders (guests, share-link visitors, background jobs).
 */
type Share = 'any' | 'open';

interface Waiter {
  share: Share;
  /** Called once the waiter was counted in. */
  admit(): void;
  reject(error: Error): void;
}

interface Pool {
  kind: WorkKind;
  size: number;
  total: number;
  /** Shared slots 0 … reserved-1 are kept for account holders (settings `work.conversions`). */
  reserved: number;
  /** Slots of this process taken: running, or waiting for a shared slot. */
  taken: number;
  /** Of those, the ones taken by callers of share `any`, who are never kept waiting by `open` ones. */
  takenAny: number;
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
      reserved: kind === 'convert' ? keptForAccounts(settings[kind].total, settings.conversions.accountShare) : 0,
      taken: 0,
      takenAny: 0,
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
   * Retry-After. `job`: waits as long as it takes (background work). Of a kind that keeps slots for
   * account holders, only a request `forAccount` may take them; the others share the rest.
   */
  async run<T>(kind: WorkKind, mode: 'request' | 'job', work: () => Promise<T>, options: RunOptions = {}): Promise<T> {
    const pool = this.pools[kind];
    const share = this.shareOf(pool, mode, options.forAccount ?? false);
    const deadline = mode === 'request' ? Date.now() + this.settings.waitSeconds * 1000 : Infinity;
    await this.enter(pool, mode, share, deadline, options.signal);
    try {
      const slot = await this.takeShared(pool, share, deadline, options.signal);
      pool.running++;
      try {
        return await work();
      } finally {
        pool.running--;
        await this.release(kind, slot);
      }
    } finally {
      this.leave(pool, share);
    }
  }

  private shareOf(pool: Pool, mode: 'request' | 'job', forAccount: boolean): Share {
    if (pool.reserved === 0 || (mode === 'request' && forAccount)) return 'any';
    if (pool.reserved < pool.total) return 'open';
    // Every slot is kept for account holders: background work must still run, a guest is told why not.
    if (mode === 'job') return 'any';
    throw forbidden(`On this portal, ${nouns[pool.kind]} are made for signed-in users only; please log in.`);
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
      for (const waiter of [...pool.requests.splice(0), ...pool.jobs.splice(0)]) waiter.reject(this.busy(pool.kind));
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

  /**
   * Whether a caller of `share` may take one of this process's slots now: an `open` one while any is
   * free, an `any` one (where slots are kept for accounts) while account holders' own use leaves
   * room, so guests holding this process's slots never keep an account holder waiting here.
   */
  private fits(pool: Pool, share: Share): boolean {
    return share === 'any' && pool.reserved > 0 ? pool.takenAny < pool.size : pool.taken < pool.size;
  }

  private count(pool: Pool, share: Share, by: 1 | -1): void {
    pool.taken += by;
    if (share === 'any') pool.takenAny += by;
  }

  /** Takes one of this process's slots, waiting in line when none fits. */
  private async enter(
    pool: Pool,
    mode: 'request' | 'job',
    share: Share,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (this.closed) throw this.busy(pool.kind);
    if (signal?.aborted) throw clientGone();
    // After every leave() the line is let in as far as it fits, so a caller that fits now jumps no one.
    if (this.fits(pool, share)) {
      this.count(pool, share, 1);
      return;
    }
    if (mode === 'request' && pool.requests.length >= this.settings.queue) throw this.busy(pool.kind);
    const line = mode === 'request' ? pool.requests : pool.jobs;
    await new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', gone);
      };
      const waiter: Waiter = {
        share,
        admit: () => {
          done();
          resolve();
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      const drop = (error: Error) => {
        const at = line.indexOf(waiter);
        if (at >= 0) line.splice(at, 1);
        waiter.reject(error);
      };
      const gone = () => drop(clientGone());
      if (deadline !== Infinity) {
        timer = setTimeout(() => drop(this.busy(pool.kind)), Math.max(0, deadline - Date.now()));
      }
      signal?.addEventListener('abort', gone, { once: true });
      line.push(waiter);
    });
  }

  /** Gives this process's slot back and lets in whoever waits and now fits (requests first). */
  private leave(pool: Pool, share: Share): void {
    this.count(pool, share, -1);
    for (const line of [pool.requests, pool.jobs]) {
      for (let i = 0; i < line.length;) {
        const waiter = line[i];
        if (waiter && this.fits(pool, waiter.share)) {
          line.splice(i, 1);
          this.count(pool, waiter.share, 1);
          waiter.admit();
        } else {
          i++;
        }
      }
    }
  }

  /**
   * Takes one of the kind's shared slots the caller may have, looking again every poll until the
   * deadline: an account holder tries the kept slots first, so the open ones stay for the others.
   */
  private async takeShared(
    pool: Pool,
    share: Share,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<number> {
    // Starting at a slot of its own spreads the processes' first tries over the slots.
    const slots =
      share === 'open'
        ? rotated(pool.reserved, pool.total)
        : [...rotated(0, pool.reserved), ...rotated(pool.reserved, pool.total)];
    pool.waitingShared++;
    try {
      for (;;) {
        if (this.closed) throw this.busy(pool.kind);
        if (signal?.aborted) throw clientGone();
        const slot = await this.slots.takeOneOf(pool.kind, slots, this.holder, this.leaseMs);
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

/**
 * How many of `total` shared slots are kept for account holders: `share` of them, rounded, and at
 * least one when the share is above 0.
 */
export function keptForAccounts(total: number, share: number): number {
  if (share <= 0) return 0;
  return Math.min(total, Math.max(1, Math.round(total * share)));
}

/** The numbers from … to-1, starting at a random one and wrapping around. */
function rotated(from: number, to: number): number[] {
  const n = to - from;
  const first = Math.floor(Math.random() * n);
  return Array.from({ length: n }, (_x, i) => from + ((first + i) % n));
}

/** Job handlers whose runs take a slot of `kind` first, waiting as long as it takes. */
export function withinBudget(budget: WorkBudget, kind: WorkKind, handlers: readonly JobHandler[]): JobHandler[] {
  return handlers.map((h) => ({ ...h, run: (payload, job) => budget.run(kind, 'job', () => h.run(payload, job)) }));
}
