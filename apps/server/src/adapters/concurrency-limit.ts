/** Thrown when more tasks wait than the limit allows: the caller answers "try again later". */
export class LimitQueueFull extends Error {}

/**
 * Runs at most `running` tasks at once; up to `waiting` more wait their turn in order, and any
 * beyond that are refused at once with LimitQueueFull.
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    private readonly running: number,
    private readonly waiting: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.running) {
      if (this.queue.length >= this.waiting) throw new LimitQueueFull('Too many tasks are waiting.');
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiting task, or give it back.
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * The running promise of `id`, or a new one from `start`, forgotten once it settles: callers in this
 * process asking for the same work at the same time share one doing of it.
 */
export function once<K, T>(running: Map<K, Promise<T>>, id: K, start: () => Promise<T>): Promise<T> {
  let work = running.get(id);
  if (!work) {
    work = start().finally(() => running.delete(id));
    running.set(id, work);
  }
  return work;
}
