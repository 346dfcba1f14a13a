/**
 * Work a person is waiting for (uploads being imported) that this process's background jobs give
 * way to: a job worker asks `clear()` before it takes its next job. Files that arrive together are
 * catalogued first and their derivatives made after them, as `vitrine import` of a folder does; a
 * job already running is not stopped. Derivatives wait for the pause after a burst, never longer
 * than `maxWaitMs` per job, so a steady stream of uploads still leaves them a turn.
 */
export class Foreground {
  private running = 0;
  /** When the last foreground work ended (performance.now()). */
  private lastEnded = -Infinity;

  constructor(
    /** The pause after the last foreground work ended before jobs go on. */
    private readonly quietMs = 300,
    /** Longest one job start is held back. */
    private readonly maxWaitMs = 10_000,
  ) {}

  /** Runs `work` as foreground work. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.lastEnded = performance.now();
    }
  }

  /** Whether no foreground work runs and none ended within the quiet time. */
  private idle(now: number): boolean {
    return this.running === 0 && now - this.lastEnded >= this.quietMs;
  }

  /**
   * Resolves once no foreground work ran for the quiet time, after `maxWaitMs` at most, or when
   * `signal` is aborted (a stopping worker).
   */
  async clear(signal?: AbortSignal): Promise<void> {
    const until = performance.now() + this.maxWaitMs;
    for (;;) {
      const now = performance.now();
      if (this.idle(now) || now >= until || signal?.aborted) return;
      const wait = this.running > 0 ? this.quietMs : this.lastEnded + this.quietMs - now;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, Math.max(10, Math.min(wait, until - now)));
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }
}
