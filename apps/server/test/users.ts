import type { TestApp } from './app.ts';

/** A native account with a real argon2id password hash, as `vitrine users add` makes it. */
export async function addUser(
  t: TestApp,
  who: { name: string; password: string; groups: string[]; email?: string },
): Promise<number> {
  return t.app.services.users.add(who);
}
