import type { Delivery, DownloadRepository } from './download.repository.ts';

interface Pending {
  delivery: Delivery;
  at: number;
  onError: (err: unknown) => void;
}

/**
 * Delivered downloads logged in batches: one multi-row insert for every download delivered within
 * `delayMs` (or `maxBatch` of them), instead of a write per file. On a busy portal a delivered file
 * costs no round trip of its own; a process that dies loses at most the last `delayMs` of its log,
 * a stopping one writes it (`settled`). A batch that fails is reported to each of its requests'
 * `onError` and dropped: the files were sent all the same.
 */
export class DeliveryLog {
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly repository: Pick<DownloadRepository, 'recordDeliveries'>,
    private readonly delayMs = 250,
    private readonly maxBatch = 500,
  ) {}

  add(delivery: Delivery, onError: (err: unknown) => void, at = Date.now()): void {
    if (!delivery.assetIds.length) return;
    this.pending.push({ delivery, at, onError });
    if (this.pending.length >= this.maxBatch) this.write();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.write(), this.delayMs);
      this.timer.unref();
    }
  }

  /** Resolves once every delivery added so far is written (or reported as failed). */
  async settled(): Promise<void> {
    this.write();
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }

  private write(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    if (!batch.length) return;
    this.pending = [];
    const write = this.repository
      .recordDeliveries(batch.map(({ delivery, at }) => ({ delivery, at })))
      .catch((err: unknown) => {
        for (const onError of new Set(batch.map((p) => p.onError))) onError(err);
      });
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }
}
