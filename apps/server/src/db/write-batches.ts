/**
 * Items queued in memory and written together, off the request that made them: every `delayMs`, or
 * at once when `maxBatch` are waiting. `write` gets each batch once and must not reject (it reports
 * its own failures); `settled` writes what is queued and waits for every write under way (at
 * shutdown). Used where a request would otherwise cost a database write of its own: the delivery
 * log, the statistics.
 */
export class WriteBatches<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly delayMs: number,
    private readonly maxBatch: number,
  ) {}

  add(item: T): void {
    this.pending.push(item);
    if (this.pending.length >= this.maxBatch) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.delayMs);
      this.timer.unref();
    }
  }

  /** Resolves once every item added so far is written (or its failure reported). */
  async settled(): Promise<void> {
    this.flush();
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    if (!batch.length) return;
    this.pending = [];
    const write = this.write(batch);
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }
}
