import { hashPassword, PasswordChecksBusy } from '../adapters/password.ts';
import { rateLimited } from '../http/errors.ts';

/**
 * A new password's hash (a reset, an account's password, a share link's), made in turn with the
 * checks of logins (adapters/password.ts): when too many wait, the caller is asked to try again
 * (429 `rate_limited`) instead of failing.
 */
export async function hashNewPassword(password: string): Promise<string> {
  try {
    return await hashPassword(password);
  } catch (err) {
    if (err instanceof PasswordChecksBusy)
      throw rateLimited('Too many passwords are being checked at once. Please try again in a moment.', 5);
    throw err;
  }
}
