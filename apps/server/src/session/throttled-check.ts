import { PasswordChecksBusy } from '../adapters/password.ts';
import { loginBlocked, rateLimited } from '../http/errors.ts';
import type { LoginThrottleRepository } from '../user/login-throttle.repository.ts';

/** One key a password check is counted on: at most `max` failures within the block time. */
export interface ThrottleKey {
  key: string;
  max: number;
  /** After a check that passed: `clear` forgets the key's failures, `release` only returns the attempt. */
  onSuccess: 'clear' | 'release';
}

/**
 * The login throttle (docs/security.md): a password check runs only after an attempt is reserved on
 * every key (so concurrent attempts never check more passwords than the limits allow); a key whose
 * attempts are used up is blocked for `blockMs`, answered with `login_blocked`. Logins and share
 * link passwords go through here. Answers whether the check passed.
 */
export async function throttledCheck(
  throttle: LoginThrottleRepository,
  keys: readonly ThrottleKey[],
  blockMs: number,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const now = Date.now();
  const reserved: ThrottleKey[] = [];
  for (const k of keys) {
    const blocked = await throttle.reserve(k.key, now, k.max, blockMs);
    if (blocked) {
      for (const r of reserved) await throttle.release(r.key);
      throw loginBlocked(Math.max(1, Math.ceil((blocked - now) / 60_000)));
    }
    reserved.push(k);
  }
  let ok: boolean;
  try {
    ok = await check();
  } catch (err) {
    for (const k of keys) await throttle.release(k.key);
    if (err instanceof PasswordChecksBusy)
      throw rateLimited('Too many logins at once. Please try again in a moment.', 5);
    throw err;
  }
  if (!ok) {
    const blockUntil = Date.now() + blockMs;
    for (const k of keys) await throttle.failed(k.key, k.max, blockUntil);
    return false;
  }
  for (const k of keys) await (k.onSuccess === 'clear' ? throttle.clear(k.key) : throttle.release(k.key));
  return true;
}
