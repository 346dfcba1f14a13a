import type { Mailer } from '../src/adapters/mail.ts';
import { LoginThrottleRepository } from '../src/session/login-throttle.repository.ts';
import { UserRepository } from '../src/user/user.repository.ts';
import { UserService } from '../src/user/user.service.ts';
import type { TestApp } from './app.ts';

const noMail: Mailer = { send: async () => undefined };

/** A native account with a real argon2id password hash, as `vitrine users add` makes it. */
export async function addUser(
  t: TestApp,
  who: { name: string; password: string; groups: string[]; email?: string },
): Promise<number> {
  const db = t.app.db;
  const users = new UserService(new UserRepository(db), new LoginThrottleRepository(db), t.settings, noMail, console);
  return users.add(who);
}
