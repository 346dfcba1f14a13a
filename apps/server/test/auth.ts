import type { TestApp } from './app.ts';

let counter = 0;

/**
 * The XSRF cookie and matching header a browser sends with state-changing calls (docs/decisions.md
 * "XSRF"). Spread them into the headers of any POST/PUT/DELETE a test makes as a guest.
 */
export const xsrfHeaders: Record<string, string> = {
  cookie: 'XSRF-TOKEN=test-xsrf-token',
  'x-xsrf-token': 'test-xsrf-token',
};

/**
 * A real user with a real session in the test app's database; answers the headers a browser would
 * send (session token and XSRF pair). Groups come from the settings (defaults: public, users, admins).
 */
export async function signIn(
  t: TestApp,
  who: { name?: string; groups: string[] },
): Promise<{ userId: number; token: string; headers: Record<string, string> }> {
  const userId = await t.app.services.repositories.users.createUser({
    name: who.name ?? `user${++counter}`,
    groups: who.groups,
  });
  const token = await t.app.services.auth.openSession(userId);
  return { userId, token, headers: { authorization: `Bearer ${token}`, ...xsrfHeaders } };
}
