import { WriteBatches } from '../db/write-batches.ts';
import type { Auth } from '../auth/caller.ts';
import type { DownloadEvent } from '../download/download.service.ts';
import type { SearchEvent } from '../search/search.service.ts';
import type { LoginEvent } from '../session/session.service.ts';

/** Whose use an event was: a caller without an account (guest, share-link visitor) or with one. */
export type Audience = 'guest' | 'account';

export const audienceOf = (auth: Pick<Auth, 'userId'>): Audience => (auth.userId === null ? 'guest' : 'account');

/**
 * What the statistics count; the domains where each happens declare theirs and hand it to the
 * recorder they are given (services.ts). No event carries an address or an account: only whether
 * there was one. A search's text is stored normalised (`normaliseSearch`), its facets by key.
 */
export type InsightEvent =
  | SearchEvent
  | { kind: 'view'; audience: Audience; assetId: number }
  | DownloadEvent
  | { kind: 'share_open'; shareId: number }
  | LoginEvent;

/** One row of `insight_event`. */
export interface InsightRow {
  at: number;
  day: string;
  kind: string;
  audience: Audience;
  key: string;
  asset_id: number | null;
  n: number;
  results: number | null;
}

/** The longest search text kept; longer ones are cut (they are counted all the same). */
const MAX_KEY = 200;

/** A search's text as it is counted: trimmed, lower-cased, whitespace collapsed; '*' for all assets. */
export function normaliseSearch(text: string): string {
  const normal = text.trim().toLowerCase().replace(/\s+/g, ' ');
  return normal === '' ? '*' : [...normal].slice(0, MAX_KEY).join('');
}

/** The UTC day of a time (ms), YYYY-MM-DD: the statistics' days. */
export const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** The rows one event is counted as. */
export function rowsOf(event: InsightEvent, at: number): InsightRow[] {
  const day = dayOf(at);
  const row = (kind: string, audience: Audience, key: string, more: Partial<InsightRow> = {}): InsightRow => ({
    at,
    day,
    kind,
    audience,
    key,
    asset_id: null,
    n: 1,
    results: null,
    ...more,
  });
  switch (event.kind) {
    case 'search':
      return [
        row('search', event.audience, normaliseSearch(event.text), { results: event.results }),
        ...[...new Set(event.facets)].map((f) => row('facet', event.audience, f.slice(0, MAX_KEY))),
        ...(event.collection === undefined ? [] : [row('collection_view', event.audience, String(event.collection))]),
      ];
    case 'view':
      return [row('view', event.audience, String(event.assetId), { asset_id: event.assetId })];
    case 'download':
      return [
        ...event.assetIds.map((id) => row('download', event.audience, String(id), { asset_id: id })),
        row('download_set', event.audience, String(event.csetId), { n: event.assetIds.length }),
        ...(event.zip ? [row('zip', event.audience, String(event.csetId))] : []),
      ];
    case 'share_open':
      return [row('share_open', 'guest', String(event.shareId))];
    case 'login':
      return [row('login', event.ok ? 'account' : 'guest', `${event.method}:${event.ok ? 'ok' : 'failed'}`)];
  }
}

/** Where a batch goes (InsightsRepository). */
export interface InsightSink {
  insertEvents(rows: readonly InsightRow[]): Promise<void>;
}

/**
 * Records statistics off the request path, as the delivery log does (download/delivery-log.ts):
 * `record` only queues the event; every `delayMs` (or at `maxBatch` events) one multi-row insert
 * writes the batch, and `settled` writes what is left when the process stops. A batch that fails is
 * reported to `onError` and dropped: statistics never fail a request. With `enabled` false nothing
 * is queued.
 */
export class InsightRecorder {
  private readonly batches: WriteBatches<{ event: InsightEvent; at: number }>;

  constructor(
    private readonly sink: InsightSink,
    private readonly options: {
      enabled: boolean;
      onError: (err: unknown) => void;
      delayMs?: number;
      maxBatch?: number;
    },
  ) {
    this.batches = new WriteBatches(
      (batch) =>
        this.sink
          .insertEvents(batch.flatMap(({ event, at }) => rowsOf(event, at)))
          .catch((err: unknown) => this.options.onError(err)),
      options.delayMs ?? 1000,
      options.maxBatch ?? 500,
    );
  }

  record(event: InsightEvent, at = Date.now()): void {
    if (this.options.enabled) this.batches.add({ event, at });
  }

  /** Resolves once every event recorded so far is written (or reported as failed). */
  async settled(): Promise<void> {
    await this.batches.settled();
  }
}
