import type { Session } from '@vitrine/contract/session';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { verifyPassword } from '../adapters/password.ts';
import { isEditor } from '../access/editor.ts';
import { accountDisabled, unauthorized, validation, wrongCredentials } from '../http/errors.ts';
import type { Settings } from '../settings.ts';
import type { UserRecord, UserRepository } from '../user/user.repository.ts';
import { hashToken } from '../auth/tokens.ts';
import type { AuthService } from './auth.service.ts';
import type { Auth } from '../auth/caller.ts';
import { accountKey, type LoginThrottleRepository } from '../user/login-throttle.repository.ts';
import type { ClientRateLimits } from '../user/rate-limits.ts';
import type { SessionRepository } from './session.repository.ts';
import { throttledCheck } from './throttled-check.ts';

/** A login as the statistics count it: its method and outcome, nothing of the account. */
export interface LoginEvent {
  kind: 'login';
  method: 'native' | 'sso';
  ok: boolean;
}

export interface SessionRequest {
  /** The token the request carried in its Authorization header, valid or not. */
  token: string | undefined;
  credentials: { user: string; pass: string } | undefined;
  /** The one-time code of a finished single sign-on login and the browser's binding cookie. */
  sso: { code: string; binding: string | undefined } | undefined;
  locale: string | null;
  /** The client's address, as the `trustProxy` setting lets the server see it. */
  client: string;
}

/** The session calls of portal-spec §7: log in, reuse a session, guest sessions, check, logout, locale. */
export class SessionService {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionRepository,
    private readonly users: UserRepository,
    private readonly throttle: LoginThrottleRepository,
    private readonly settings: Settings,
    private readonly sso: {
      loginMethods(): Session['login'];
      redeem(code: string, binding: string | undefined): Promise<number | undefined>;
    },
    private readonly limits: Pick<ClientRateLimits, 'take'>,
    /** Statistics (insights/, wired in services.ts): logins by method and outcome, never by account. */
    private readonly insights?: { record(event: LoginEvent): void },
  ) {}

  /** The login methods offered on the login page: native first, then the single sign-on providers. */
  loginMethods(): Session['login'] {
    const native = this.settings.file.login.native ? [{ name: 'native', url: `${API_BASE_PATH}session/get` }] : [];
    return [...native, ...this.sso.loginMethods()];
  }

  /** The session answer for `auth` (also a share link's visitor, whose answer says so). */
  present(auth: Auth, token: string | null): Session {
    return {
      user: auth.name,
      isAssetUser: auth.isAssetUser,
      isGuiAdmin: auth.isGuiAdmin,
      isEditor: isEditor(auth, this.auth.rights.current().editorGroups),
      workspace: null,
      session: token,
      login: this.loginMethods(),
      ...(auth.share ? { shareVisit: true } : {}),
    };
  }

  async get(input: SessionRequest): Promise<Session> {
    if (input.credentials) {
      return this.counted('native', this.login(input.credentials, input.token, input.locale, input.client));
    }
    if (input.sso) {
      return this.counted('sso', this.redeem(input.sso.code, input.sso.binding, input.token, input.locale));
    }
    if (input.token) {
      const session = await this.auth.validSession(input.token);
      const auth = session && (await this.auth.authForSession(session));
      if (auth) return this.present(auth, input.token);
    }
    return this.guest(input.locale, input.client);
  }

  /** A login's outcome, counted for the statistics (a refused one as failed, whatever the reason). */
  private async counted(method: 'native' | 'sso', login: Promise<Session>): Promise<Session> {
    try {
      const session = await login;
      this.insights?.record({ kind: 'login', method, ok: true });
      return session;
    } catch (err) {
      this.insights?.record({ kind: 'login', method, ok: false });
      throw err;
    }
  }

  /** A session for the account of a single sign-on login, in exchange for its one-time code. */
  private async redeem(
    code: string,
    binding: string | undefined,
    oldToken: string | undefined,
    locale: string | null,
  ): Promise<Session> {
    const userId = await this.sso.redeem(code, binding);
    if (userId === undefined) throw unauthorized('The single sign-on login is invalid or has expired.');
    const token = await this.auth.openSession(userId, locale);
    const session = await this.auth.validSession(token);
    const auth = session && (await this.auth.authForSession(session));
    if (!auth) throw unauthorized('The single sign-on login is invalid or has expired.');
    await this.users.recordLogin(userId, Date.now());
    if (oldToken && oldToken !== token) await this.sessions.deleteSession(hashToken(oldToken));
    return this.present(auth, token);
  }

  /** A guest session when guests are allowed; otherwise an answer without session or rights. */
  private async guest(locale: string | null, client: string): Promise<Session> {
    if (!this.settings.file.guest.enabled) return this.present(this.auth.guestAuth(), null);
    // Each guest session is a fresh start for what is limited per session, so making them is limited.
    await this.limits.take('guestSessions', client);
    const token = await this.auth.openSession(null, locale);
    return this.present(this.auth.guestAuth(), token);
  }

  private async login(
    credentials: { user: string; pass: string },
    oldToken: string | undefined,
    locale: string | null,
    client: string,
  ) {
    const { maxFailures, maxFailuresPerClient, blockMinutes, maxDelaySeconds, native } = this.settings.file.login;
    if (!native) throw validation('Login with user name and password is not offered here.');
    let usable: UserRecord | undefined;
    const ok = await throttledCheck(
      this.throttle,
      {
        subject: accountKey(credentials.user),
        client,
        maxFailures,
        maxFailuresPerClient,
        blockMs: blockMinutes * 60_000,
        maxDelayMs: maxDelaySeconds * 1000,
      },
      async () => {
        usable = await this.users.findByName(credentials.user);
        return (await verifyPassword(usable?.passwordHash ?? null, credentials.pass)) && usable !== undefined;
      },
    );
    if (!ok || !usable) throw wrongCredentials();
    // Said only to whoever knows the password: an account an admin disabled is not a wrong password.
    if (usable.disabled) throw accountDisabled();
    await this.users.recordLogin(usable.id, Date.now());
    if (oldToken) await this.sessions.deleteSession(hashToken(oldToken));
    const token = await this.auth.openSession(usable.id, locale);
    return this.present(
      this.auth.authFor({ userId: usable.id, name: usable.name, groups: usable.groups }, null, locale),
      token,
    );
  }

  check(auth: Auth): { isGuiAdmin: boolean; sessionValid: boolean } {
    const sessionValid = !auth.expired && auth.sessionId !== null;
    return { isGuiAdmin: sessionValid && auth.isGuiAdmin, sessionValid };
  }

  async logout(auth: Auth): Promise<{ ok: true }> {
    if (auth.sessionId) await this.sessions.deleteSession(auth.sessionId);
    return { ok: true };
  }

  async setLocale(auth: Auth, locale: string): Promise<{ locale: string }> {
    if (auth.expired) throw unauthorized('Your session has expired. Please log in again.');
    if (auth.sessionId) await this.sessions.setLocale(auth.sessionId, locale);
    if (auth.userId !== null) await this.users.setLocale(auth.userId, locale);
    return { locale };
  }
}
