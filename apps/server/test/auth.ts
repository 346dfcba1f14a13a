import { AuthService } from '../src/session/auth.service.ts';
import { SessionRepository } from '../src/session/session.repository.ts';
import type { TestApp } from './app.ts';

let counter = 0;

/**
 * A real user with a real session in the test app's database; answers the headers a browser would
 * send. Groups come from the settings (defaults: public, users, admins).
 */
export async function signIn(
  t: TestApp,
  who: { name?: string; groups: string[] },
): Promise<{ userId: number; token: string; headers: Record<string, string> }> {
  const sessions = new SessionRepository(t.app.db);
  const userId = await sessions.createUser({ name: who.name ?? `user${++counter}`, groups: who.groups });
  const token = await new AuthService(sessions, t.settings).openSession(userId);
  return { userId, token, headers: { authorization: `Bearer ${token}` } };
}
