import { apiCaller, type TestApp } from './app.ts';

let counter = 0;

/**
 * The XSRF cookie and matching header a browser sends with state-changing calls (docs/decisions/0008-xsrf-a-double-submit-cookie-for-the-whole-api.md). Spread them into the headers of any POST/PUT/DELETE a test makes as a guest.
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

/**
 * A share link made by `owner` (its headers) for `link` (assets, download sets), opened as a
 * visitor does: answers the link's id and the headers of the visitor's session.
 */
export async function openShareLink(
  t: TestApp,
  owner: Record<string, string>,
  link: { assetIds: string[]; downloadSets: number[] },
): Promise<{ shareId: number; headers: Record<string, string> }> {
  const call = apiCaller(t);
  const created = await call('POST', 'share/create', owner, link);
  if (created.statusCode !== 200) throw new Error(`share/create: ${created.statusCode} ${created.body}`);
  const { token, share } = created.json<{ token: string; share: { id: number } }>();
  const opened = await call('POST', 'share/open', xsrfHeaders, { token });
  if (opened.statusCode !== 200) throw new Error(`share/open: ${opened.statusCode} ${opened.body}`);
  const session = opened.json<{ session: { session: string } }>().session.session;
  return { shareId: share.id, headers: { authorization: `Bearer ${session}`, ...xsrfHeaders } };
}
