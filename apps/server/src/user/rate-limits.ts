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
  if (freeAt === undefined) return;
  const seconds = Math.max(1, Math.ceil((freeAt - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  const span = seconds < 60 ? 'a minute' : minutes === 1 ? 'one minute' : `${minutes} minutes`;
  throw rateLimited(`Too many ${request.what} from your address. Please try again in ${span}.`, seconds);
}

const what: Record<RateLimitName, string> = {
  guestSessions: 'new sessions',
  shareOpens: 'share links opened',
  orders: 'orders',
  search: 'searches',
};

/**
 * The per-client limits of `rateLimits` (docs/security.md "What is rate-limited"): requests that
 * need no account and cost work or mail, counted per client address (IPv6 by /64).
 */
export class ClientRateLimits {
  constructor(
    private readonly throttle: LoginThrottleRepository,
    private readonly settings: Settings,
  ) {}

  /** Counts one request of the kind from the client; 429 `rate_limited` once its limit is reached. */
  async take(name: RateLimitName, client: string, now = Date.now()): Promise<void> {
    const { max, minutes } = this.settings.file.rateLimits[name];
    await countRequest(
      this.throttle,
      { key: `${name}-${clientKey(client)}`, max, windowMs: minutes * 60_000, what: what[name] },
      now,
    );
  }
}
