import { rateLimited } from '../http/errors.ts';
import type { RateLimitName, Settings } from '../settings.ts';
import { clientKey, type LoginThrottleRepository } from './login-throttle.repository.ts';

/**
 * Counts one request on `key` (at most `max` within `windowMs`, in the database that every process
 * shares) and refuses it with 429 `rate_limited` and Retry-After once there were too many of `what`.
 */
export async function countRequest(
  throttle: LoginThrottleRepository,
  request: { key: string; max: number; windowMs: number; what: string },
  now = Date.now(),
): Promise<void> {
  const freeAt = await throttle.hit(request.key, now, request.max, request.windowMs);
  if (freeAt !== undefined) throw tooMany(request.what, freeAt, now);
}

function tooMany(what: string, freeAt: number, now: number) {
  const seconds = Math.max(1, Math.ceil((freeAt - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  const span = seconds < 60 ? 'a minute' : minutes === 1 ? 'one minute' : `${minutes} minutes`;
  return rateLimited(`Too many ${what} from your address. Please try again in ${span}.`, seconds);
}

/** One key's count as this process knows it. */
interface KnownCount {
  /** Start of the window (the database's, once folded in). */
  since: number;
  /** The shared count when it was last folded in, this process's part of it included. */
  shared: number;
  /** This process's requests not folded in yet. */
  local: number;
  /** This process's requests on their way into the shared count. */
  folded: number;
  lastFold: number;
  folding?: Promise<void>;
  timer?: NodeJS.Timeout;
}

/**
 * Counts of read requests (searches) kept in memory and folded into the shared count in the
 * database in the background, at most once a second per key: a search never waits for a write,
 * which on SQLite would queue behind any bulk import. Within a process the count is exact; other
 * processes' requests are seen at the next fold, so together they can pass the limit by about a
 * second's worth of requests.
 */
class FoldedCounts {
  private readonly counts = new Map<string, KnownCount>();
  private sweptAt = 0;

  constructor(
    private readonly throttle: LoginThrottleRepository,
    private readonly onError: (error: Error) => void,
    private readonly foldMs = 1000,
  ) {}

  take(request: { key: string; max: number; windowMs: number; what: string }, now: number): void {
    this.sweep(now, request.windowMs);
    let known = this.counts.get(request.key);
    if (!known || known.since + request.windowMs <= now) {
      if (known) clearTimeout(known.timer);
      known = { since: now, shared: 0, local: 0, folded: 0, lastFold: 0 };
      this.counts.set(request.key, known);
    }
    if (known.shared + known.folded + known.local >= request.max)
      throw tooMany(request.what, known.since + request.windowMs, now);
    known.local++;
    this.schedule(request.key, known, request.windowMs, now);
  }

  /** Folds every count in now (a stopping server, and tests). */
  async settle(windowMs: number): Promise<void> {
    const now = Date.now();
    await Promise.all(
      [...this.counts].map(async ([key, known]) => {
        clearTimeout(known.timer);
        known.timer = undefined;
        await known.folding;
        if (known.local > 0) await this.fold(key, known, windowMs, now);
      }),
    );
  }

  private schedule(key: string, known: KnownCount, windowMs: number, now: number): void {
    if (known.folding || known.timer) return;
    const wait = Math.max(0, known.lastFold + this.foldMs - now);
    if (wait === 0) {
      void this.fold(key, known, windowMs, now);
      return;
    }
    known.timer = setTimeout(() => {
      known.timer = undefined;
      void this.fold(key, known, windowMs, Date.now());
    }, wait);
    known.timer.unref();
  }

  private fold(key: string, known: KnownCount, windowMs: number, now: number): Promise<void> {
    const by = known.local;
    known.local = 0;
    known.folded = by;
    known.lastFold = now;
    known.folding = this.throttle.add(key, now, by, windowMs).then(
      ({ count, since }) => {
        known.shared = count;
        known.since = since;
        known.folded = 0;
        known.folding = undefined;
        if (known.local > 0) this.schedule(key, known, windowMs, Date.now());
      },
      (err: unknown) => {
        // Counted again at the next fold; meanwhile the count this process holds still applies.
        known.local += by;
        known.folded = 0;
        known.folding = undefined;
        this.onError(err as Error);
      },
    );
    return known.folding;
  }

  /** Forgets keys whose window has ended, once a window. */
  private sweep(now: number, windowMs: number): void {
    if (now - this.sweptAt < windowMs) return;
    this.sweptAt = now;
    for (const [key, known] of this.counts) {
      if (known.since + windowMs <= now && known.local === 0 && !known.folding && !known.timer) this.counts.delete(key);
    }
  }
}

/**
 * How a limit is counted. With a `burst` under `max`, as a budget that comes back evenly (60 in
 * 10 minutes with a burst of 10: 10 at once, then one every 10 s): the rate over the window is the
 * same, but a client cannot spend a whole window's budget in its first seconds. Otherwise as a count
 * in a fixed window.
 */
export function countedAs(limit: { max: number; minutes: number; burst?: number | null }): {
  max: number;
  windowMs: number;
  evenly?: { intervalMs: number; burst: number };
} {
  const windowMs = limit.minutes * 60_000;
  if (limit.burst === undefined || limit.burst === null || limit.burst >= limit.max)
    return { max: limit.max, windowMs };
  return { max: limit.max, windowMs, evenly: { intervalMs: windowMs / limit.max, burst: limit.burst } };
}

/** Refused keys kept in memory at most. */
const REFUSED_KEPT = 10_000;

const what: Record<RateLimitName, string> = {
  guestSessions: 'new sessions',
  shareOpens: 'share links opened',
  orders: 'orders',
  search: 'searches',
  ssoLogins: 'logins started',
};

/**
 * The per-client limits of `rateLimits` (docs/security.md "What is rate-limited"): requests that
 * need no account and cost work or mail, counted per client address (IPv6 by /64).
 */
export class ClientRateLimits {
  private readonly searches: FoldedCounts;
  /**
   * Keys this process found over their limit, with when they are free again: refused from memory
   * until then, so a client that keeps asking costs no write per refusal.
   */
  private readonly refused = new Map<string, number>();

  constructor(
    private readonly throttle: LoginThrottleRepository,
    private readonly settings: Settings,
    onError: (error: Error) => void = () => undefined,
  ) {
    this.searches = new FoldedCounts(throttle, onError);
  }

  /** Counts one request of the kind from the client; 429 `rate_limited` once its limit is reached. */
  async take(name: RateLimitName, client: string, now = Date.now()): Promise<void> {
    const { evenly, ...counted } = countedAs(this.settings.file.rateLimits[name]);
    const request = { key: `${name}-${clientKey(client)}`, ...counted, what: what[name] };
    // Searches are reads: counted in memory and folded in later. The others write anyway.
    if (name === 'search') {
      this.searches.take(request, now);
      return;
    }
    const freeAt = this.refused.get(request.key);
    if (freeAt !== undefined && freeAt > now) throw tooMany(request.what, freeAt, now);
    const refusedUntil = evenly
      ? await this.throttle.spend(request.key, now, evenly.intervalMs, evenly.burst)
      : await this.throttle.hit(request.key, now, request.max, request.windowMs);
    if (refusedUntil === undefined) return;
    if (this.refused.size >= REFUSED_KEPT) {
      for (const [key, until] of this.refused) if (until <= now) this.refused.delete(key);
      // Still full (many clients refused at once): the oldest go, and are counted in the database again.
      for (const key of this.refused.keys()) {
        if (this.refused.size < REFUSED_KEPT) break;
        this.refused.delete(key);
      }
    }
    this.refused.set(request.key, refusedUntil);
    throw tooMany(request.what, refusedUntil, now);
  }

  /** Folds the searches counted in memory into the shared counts now. */
  settle(): Promise<void> {
    return this.searches.settle(countedAs(this.settings.file.rateLimits.search).windowMs);
  }
}
