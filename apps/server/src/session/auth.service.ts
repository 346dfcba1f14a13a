import type { FastifyRequest } from 'fastify';
import { anonymous, type Auth, type ShareGrant } from '../auth/caller.ts';
import { hashToken, newToken, tokenOf } from '../auth/tokens.ts';
import { clientGroup } from '../http/client-address.ts';
import { GroupRights } from '../access/group-rights.ts';
import type { Settings } from '../settings.ts';
import type { SessionRepository, SessionUser } from './session.repository.ts';

/** What a live share link grants (AccessService.shareGrant); undefined once it is revoked or expired. */
export type ShareGrants = (shareId: number) => Promise<ShareGrant | undefined>;

/** Turns sessions into Auth, applying the groups' rights in force (GroupRights). */
export class AuthService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly settings: Settings,
    private readonly shareGrants: ShareGrants = async () => undefined,
    /** The groups and their rights: the settings file's, or what the admin area saved. */
    readonly rights: GroupRights = new GroupRights(settings.file),
  ) {}

  /** Auth for a user (or guest, name null) with the given groups. */
  authFor(
    user: { userId: number | null; name: string | null; groups: string[] },
    sessionId: string | null,
    locale: string | null,
  ): Auth {
    return {
      userId: user.userId,
      name: user.name,
      groups: user.groups,
      ...this.rights.current().roleOf(user.groups),
      sessionId,
      locale,
      expired: false,
    };
  }

  guestAuth(sessionId: string | null = null, locale: string | null = null): Auth {
    const groups = [...this.rights.current().guestGroups];
    return this.authFor({ userId: null, name: null, groups }, sessionId, locale);
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
    // Each request reads whether the groups changed (one row): a save on any process applies here at once.
    await this.rights.refresh();
    const token = tokenOf(request);
    if (!token) return { ...this.guestAuth(), client: clientGroup(request.ip) };
    const session = await this.validSession(token);
    // A token that is no longer valid is answered with 401 so the client logs in again.
    if (!session) return { ...anonymous, expired: true };
    return (await this.authForSession(session)) ?? { ...anonymous, expired: true };
  }

  /** The caller a session stands for; undefined for a share link's session whose link is gone. */
  async authForSession(session: SessionUser): Promise<Auth | undefined> {
    if (session.shareId !== null) {
      const grant = await this.shareGrants(session.shareId);
      return grant && this.shareAuth(grant, session.sessionId, session.locale);
    }
    if (session.userId === null) return this.guestAuth(session.sessionId, session.locale);
    return this.authFor(session, session.sessionId, session.locale);
  }

  /** A share link's visitor: it sees through the eyes of the link's creator, limited to the link (access/rule.ts). */
  shareAuth(grant: ShareGrant, sessionId: string | null, locale: string | null): Auth {
    return {
      ...anonymous,
      groups: grant.groups,
      isAssetUser: true,
      sessionId,
      locale,
      share: { id: grant.id, assetIds: grant.assetIds, downloadSets: grant.downloadSets },
    };
  }

  async openSession(
    userId: number | null,
    locale: string | null = null,
    shareId: number | null = null,
  ): Promise<string> {
    const token = newToken();
    await this.sessions.createSession(hashToken(token), userId, Date.now() + this.idleMs(), locale, shareId);
    return token;
  }
}
