import { setTimeout as sleep } from 'node:timers/promises';
import { PasswordChecksBusy } from '../adapters/password.ts';
import { loginBlocked, rateLimited } from '../http/errors.ts';
import { clientKey, pairKey, type LoginThrottleRepository } from '../user/login-throttle.repository.ts';

/** One key a password check is counted on: at most `max` failures within the block time. */
interface ThrottleKey {
  key: string;
  max: number;
  /** After a check that passed: `clear` forgets the key's failures, `release` only returns the attempt. */
  onSuccess: 'clear' | 'release';
  /** The account's or link's key a pair's key belongs to. */
  subject?: string;
}

/** What a password is checked for, by whom, and the limits (`login` settings). */
export interface ThrottledAttempt {
  /** The account's or link's key (`accountKey`, a link's key). */
  subject: string;
  /** The client's address, as the `trustProxy` setting lets the server see it. */
  client: string;
  maxFailures: number;
  maxFailuresPerClient: number;
  blockMs: number;
  /** The longest wait before an account's or link's answer, however many clients failed on it. */
  maxDelayMs: number;
}

/** The first wait once an account or a link has had `maxFailures` failures from all clients together. */
const FIRST_DELAY_MS = 250;

/**
 * How long an attempt waits before its password is checked, when `failures` attempts on the account
 * or link (from any client, this one not counted) failed or are still being checked: nothing up to
 * `maxFailures`, then 250 ms doubling with each failure, at most `maxDelayMs`.
 */
export function slowdownMs(failures: number, maxFailures: number, maxDelayMs: number): number {
  if (failures < maxFailures) return 0;
  // Past 2^20 the cap has long been reached; the bound keeps the power finite.
  return Math.min(maxDelayMs, FIRST_DELAY_MS * 2 ** Math.min(failures - maxFailures, 20));
}

/**
 * The login throttle (docs/security.md "Failed logins and share-link passwords"), for logins and
 * share-link passwords alike: failures block the pair (account or link, client) after `maxFailures`
 * and the client after `maxFailuresPerClient`, whatever it names; a blocked pair or client is
 * answered `login_blocked`. Across all clients an account or link is only slowed (`slowdownMs`), so
 * nobody can keep its owner or a link's other recipients out.
 *
 * The password is checked only after an attempt is reserved on the client and the pair (so
 * concurrent attempts never check more passwords than the limits allow); the account's or link's
 * own key counts attempts without blocking, and its count decides the wait. The wait comes before
 * the check, whatever the password, so no answer can be told apart before it is due. Answers
 * whether the check passed.
 */
export async function throttledCheck(
  throttle: LoginThrottleRepository,
  attempt: ThrottledAttempt,
  check: () => Promise<boolean>,
  wait: (ms: number) => Promise<unknown> = sleep,
): Promise<boolean> {
  const { subject, client, maxFailures, maxFailuresPerClient, blockMs, maxDelayMs } = attempt;
  const keys: ThrottleKey[] = [
    { key: clientKey(client), max: maxFailuresPerClient, onSuccess: 'release' },
    { key: pairKey(client, subject), max: maxFailures, onSuccess: 'clear', subject },
  ];
  const now = Date.now();
  const reserved: ThrottleKey[] = [];
  for (const k of keys) {
    const blocked = await throttle.reserve(k.key, now, k.max, blockMs, k.subject ?? null);
    if (blocked) {
      for (const r of reserved) await throttle.release(r.key);
      throw loginBlocked(Math.max(1, Math.ceil((blocked - now) / 60_000)));
    }
    reserved.push(k);
  }
  let counted = false;
  let ok: boolean;
  try {
    const before = (await throttle.count(subject, now, blockMs)) - 1;
    counted = true;
    const delay = slowdownMs(before, maxFailures, maxDelayMs);
    if (delay > 0) await wait(delay);
    ok = await check();
  } catch (err) {
    for (const k of keys) await throttle.release(k.key);
    if (counted) await throttle.release(subject);
    if (err instanceof PasswordChecksBusy)
      throw rateLimited('Too many logins at once. Please try again in a moment.', 5);
    throw err;
  }
  if (!ok) {
    const blockUntil = Date.now() + blockMs;
    for (const k of keys) await throttle.failed(k.key, k.max, blockUntil);
    return false;
  }
  for (const k of keys) await (k.onSuccess === 'clear' ? throttle.forget(k.key) : throttle.release(k.key));
  await throttle.forget(subject);
  return true;
}
