import { createHmac } from 'node:crypto';
import { WriteBatches } from '../db/write-batches.ts';
import type { Delivery, DownloadRepository } from './download.repository.ts';

/** How often a process removes the keys of expired URLs, with a batch it writes anyway. */
const PURGE_KEYS_MS = 60_000;

/**
 * The key a delivery of a signed download URL is logged once under (`Delivery.once`): the URL's
 * signature and its caller. A user's URL names them under the signature, so it counts once wherever
 * it is fetched from. Every guest gets the same URL within a window, so there the caller is the
 * client address, kept only in this hash (keyed with the portal's secret) and only until the URL
 * expires.
 */
export function deliveryKey(
  secret: string,
  url: { sig: string; by: string; exp: string },
  client: string | undefined,
): NonNullable<Delivery['once']> {
  const caller = url.by === 'guest' ? `guest ${client ?? ''}` : url.by;
  const key = createHmac('sha256', secret).update(`delivered\n${url.sig}\n${caller}`).digest('base64url');
  return { key: key.slice(0, 43), expiresAt: Number(url.exp) * 1000 };
}

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
 * `onError` and dropped: the files were sent all the same. A delivery with a key (`deliveryKey`) is
 * logged once per key, across processes (`DownloadRepository.recordDeliveries`).
 */
export class DeliveryLog {
  private keysPurgedAt = 0;
  private readonly batches: WriteBatches<Pending>;

  constructor(
    private readonly repository: Pick<DownloadRepository, 'recordDeliveries'>,
    delayMs = 250,
    maxBatch = 500,
    /** Told of the deliveries each batch logged (those of a key logged before are not). */
    private readonly onLogged?: (logged: readonly { delivery: Delivery; at: number }[]) => void,
  ) {
    this.batches = new WriteBatches((batch) => this.write(batch), delayMs, maxBatch);
  }

  add(delivery: Delivery, onError: (err: unknown) => void, at = Date.now()): void {
    if (!delivery.assetIds.length) return;
    this.batches.add({ delivery, at, onError });
  }

  /** Resolves once every delivery added so far is written (or reported as failed). */
  async settled(): Promise<void> {
    await this.batches.settled();
  }

  private write(batch: Pending[]): Promise<void> {
    const now = Date.now();
    const purge = now - this.keysPurgedAt >= PURGE_KEYS_MS ? now : undefined;
    if (purge !== undefined) this.keysPurgedAt = now;
    return this.repository
      .recordDeliveries(
        batch.map(({ delivery, at }) => ({ delivery, at })),
        purge,
      )
      .then((logged) => this.onLogged?.(logged))
      .catch((err: unknown) => {
        for (const onError of new Set(batch.map((p) => p.onError))) onError(err);
      });
  }
}
