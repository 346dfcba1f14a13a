import type { FastifyRequest } from 'fastify';
import { anonymous, type Auth } from '../auth/caller.ts';
import { hashToken, newToken, tokenOf } from '../auth/tokens.ts';
import type { Settings } from '../settings.ts';
import type { SessionRepository, SessionUser } from './session.repository.ts';

/** Turns sessions into Auth, applying the group rules of the settings. */
export class AuthService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly settings: Settings,
  ) {}

  /** Auth for a user (or guest, name null) with the given groups. */
  authFor(
    user: { userId: number | null; name: string | null; groups: string[] },
    sessionId: string | null,
    locale: string | null,
  ): Auth {
    const groups = this.settings.file.groups.filter((g) => user.groups.includes(g.name));
    return {
      userId: user.userId,
      name: user.name,
      groups: user.groups,
      isAssetUser: groups.some((g) => g.portalAccess),
      isGuiAdmin: groups.some((g) => g.guiAdmin),
      sessionId,
      locale,
      expired: false,
    };
  }

  guestAuth(sessionId: string | null = null, locale: string | null = null): Auth {
    const guest = this.settings.file.guest;
    return this.authFor({ userId: null, name: null, groups: guest.enabled ? guest.groups : [] }, sessionId, locale);
  }

  private idleMs(): number {
    return this.settings.file.session.idleHours * 3600_000;
  }

  /** A valid, unexpired session for the token, its expiry slid forward; undefined otherwise. */
  async validSession(token: string): Promise<SessionUser | undefined> {
    const id = hashToken(token);
    const session = await this.sessions.findSession(id);
    const now = Date.now();
    if (!session || session.disabled || session.expiresAt <= now) return undefined;
    // Slide the expiry, but write at most about once a minute per session.
    const expiresAt = now + this.idleMs();
    if (expiresAt - session.expiresAt > 60_000) await this.sessions.touchSession(id, expiresAt);
    return session;
  }

  async resolve(request: FastifyRequest): Promise<Auth> {
    const token = tokenOf(request);
    if (!token) return this.guestAuth();
    const session = await this.validSession(token);
    // A token that is no longer valid is answered with 401 so the client logs in again.
    if (!session) return { ...anonymous, expired: true };
    return this.authForSession(session);
  }

  authForSession(session: SessionUser): Auth {
    if (session.userId === null) return this.guestAuth(session.sessionId, session.locale);
    return this.authFor(session, session.sessionId, session.locale);
  }

  async openSession(userId: number | null, locale: string | null = null): Promise<string> {
    const token = newToken();
    await this.sessions.createSession(hashToken(token), userId, Date.now() + this.idleMs(), locale);
    return token;
  }
}
