import { createHmac, timingSafeEqual } from 'node:crypto';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { portalLink } from '@vitrine/contract/paths';
import type { Session } from '@vitrine/contract/session';
import { OidcClient, type OidcPending } from '../adapters/oidc.ts';
import { SamlClient, type SamlIdentity } from '../adapters/saml.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { notFound } from '../http/errors.ts';
import type { OidcProviderSettings, SamlProviderSettings, Settings } from '../settings.ts';
import type { ClientRateLimits } from '../user/rate-limits.ts';
import type { LoginEvent } from '../session/session.service.ts';
import type { UserRepository } from '../user/user.repository.ts';
import type { SsoRepository } from './sso.repository.ts';

interface Log {
  warn(obj: object, msg: string): void;
}

type Mapping = Pick<OidcProviderSettings, 'groupMap' | 'defaultGroups'>;

/** Portal groups for the group names an identity provider sent, by the provider's mapping. */
function mapGroups(raw: unknown, mapping: Mapping, known: string[]): string[] {
  const values = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? [raw] : [];
  const mapped = values.flatMap((v) => mapping.groupMap[v] ?? []);
  return [...new Set([...mapping.defaultGroups, ...mapped])].filter((g) => known.includes(g));
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** A single sign-on login of an account an admin disabled: the login page says so (`#/login?sso=disabled`). */
class DisabledAccount extends Error {
  constructor(name: string) {
    super(`The account ${name} is disabled`);
  }
}

const PENDING_TTL_MS = 10 * 60_000;
/** How long the one-time code of a finished login may wait for the web app to redeem it. */
const CODE_TTL_MS = 60_000;
/** How long a consumed SAML assertion id is kept when the assertion names no end of validity. */
const ASSERTION_KEEP_MS = 24 * 3600_000;

/** A login started in a browser: where to send it, and the value of its binding cookie. */
export interface SsoStart {
  url: string;
  binding: string;
}

/** Where to send the browser after the provider answered, and a binding cookie to set, if any. */
export interface SsoOutcome {
  location: string;
  binding?: string;
}

/**
 * Single sign-on: OpenID Connect and SAML 2.0 logins that end in a portal session. Accounts are
 * created just in time and their groups are mapped anew at every login. The browser is sent back to
 * `#/login?code=…` with a one-time code (short-lived, stored hashed, single use) that only the
 * browser holding the binding cookie of the login can redeem, in the body of `session/get`. A
 * session token never travels in a URL.
 */
export class SsoService {
  private readonly oidc = new Map<string, { settings: OidcProviderSettings; client: OidcClient }>();
  private readonly saml = new Map<string, { settings: SamlProviderSettings; client: SamlClient }>();

  constructor(
    private readonly settings: Settings,
    private readonly users: UserRepository,
    private readonly codes: SsoRepository,
    private readonly log: Log,
    private readonly limits: Pick<ClientRateLimits, 'take'>,
    /** Statistics (insights/): logins the provider's answer did not complete (completed ones count at session/get). */
    private readonly insights?: { record(event: LoginEvent): void },
    /** The groups accounts may be members of (GroupRights); the settings file's when not given. */
    private readonly groupNames: () => readonly string[] = () => settings.file.groups.map((g) => g.name),
  ) {
    const base = `${settings.publicUrl.replace(/\/$/, '')}${API_BASE_PATH}sso`;
    for (const p of settings.file.sso.oidc) {
      const redirectUri = `${base}/oidc/${p.name}/callback`;
      this.oidc.set(p.name, { settings: p, client: new OidcClient({ ...p, redirectUri }) });
    }
    for (const p of settings.file.sso.saml) {
      const spEntityId = p.spEntityId ?? `${base}/saml/${p.name}/metadata`;
      const client = new SamlClient({ ...p, spEntityId, callbackUrl: `${base}/saml/${p.name}/acs` });
      this.saml.set(p.name, { settings: p, client });
    }
  }

  loginMethods(): Session['login'] {
    return [
      ...[...this.oidc.keys()].map((name) => ({ name, url: `${API_BASE_PATH}sso/oidc/${name}/login` })),
      ...[...this.saml.keys()].map((name) => ({ name, url: `${API_BASE_PATH}sso/saml/${name}/login` })),
    ];
  }

  private login(query: { sso?: string; code?: string }): string {
    return portalLink(this.settings.publicUrl, { page: 'login', ...query });
  }

  private failed(provider: string, err: unknown): SsoOutcome {
    this.log.warn({ err, provider }, 'single sign-on refused');
    this.insights?.record({ kind: 'login', method: 'sso', ok: false });
    return { location: this.login({ sso: err instanceof DisabledAccount ? 'disabled' : 'failed' }) };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.settings.secret).update(payload).digest('base64url');
  }

  /** The pending login travels in a signed cookie, so any server process can finish it. */
  private seal(name: string, pending: OidcPending, binding: string): string {
    const payload = Buffer.from(
      JSON.stringify({ name, ...pending, binding, exp: Date.now() + PENDING_TTL_MS }),
    ).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  private unseal(name: string, cookie: string | undefined): OidcPending & { binding: string } {
    const [payload = '', mac = ''] = (cookie ?? '').split('.');
    const expected = Buffer.from(this.sign(payload));
    if (!payload || expected.length !== Buffer.from(mac).length || !timingSafeEqual(expected, Buffer.from(mac))) {
      throw new Error('The login was not started here or its cookie was changed');
    }
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as OidcPending & {
      name: string;
      binding: string;
      exp: number;
    };
    if (data.name !== name || data.exp < Date.now())
      throw new Error('The login took too long or is for another provider');
    return { state: data.state, nonce: data.nonce, verifier: data.verifier, binding: data.binding };
  }

  private oidcProvider(name: string) {
    const p = this.oidc.get(name);
    if (!p) throw notFound(`The login method ${name}`);
    return p;
  }

  private samlProvider(name: string) {
    const p = this.saml.get(name);
    if (!p) throw notFound(`The login method ${name}`);
    return p;
  }

  async oidcStart(name: string): Promise<SsoStart & { cookie: string }> {
    const { url, pending } = await this.oidcProvider(name).client.start();
    const binding = newToken();
    return { url, binding, cookie: this.seal(name, pending, hashToken(binding)) };
  }

  /** Where to send the browser after the provider's callback: a one-time code, or the login page with a failure. */
  async oidcFinish(name: string, callbackUrl: URL, cookie: string | undefined): Promise<SsoOutcome> {
    const { settings, client } = this.oidcProvider(name);
    try {
      const pending = this.unseal(name, cookie);
      const claims = await client.finish(callbackUrl, pending);
      const sub = text(claims.sub) ?? '';
      const email = text(claims.email);
      const userName = text(claims.preferred_username) ?? email ?? sub;
      const userId = await this.provision(
        `oidc:${name}`,
        sub,
        userName,
        email,
        mapGroups(claims[settings.groupsClaim], settings, this.known()),
      );
      return { location: await this.handOver(userId, pending.binding) };
    } catch (err) {
      return this.failed(name, err);
    }
  }

  /**
   * Sends the browser to the identity provider; the request id is kept, bound to this browser.
   * Each start stores a row until it expires, so starts count against the client's `ssoLogins`.
   */
  async samlStart(name: string, client: string): Promise<SsoStart> {
    const provider = this.samlProvider(name);
    await this.limits.take('ssoLogins', client);
    const { url, requestId } = await provider.client.loginUrl('');
    const binding = newToken();
    await this.codes.saveSamlRequest(requestId, name, hashToken(binding), Date.now() + PENDING_TTL_MS);
    return { url, binding };
  }

  samlMetadata(name: string): string {
    return this.samlProvider(name).client.metadata();
  }

  async samlConsume(name: string, form: Record<string, string>): Promise<SsoOutcome> {
    const { settings, client } = this.samlProvider(name);
    try {
      const identity = await client.consume(form);
      const { binding, bindingHash } = await this.samlSolicited(name, settings, identity);
      const replayKey = `${name}:${identity.assertionId}`;
      const keepUntil = Math.max(identity.notOnOrAfter ?? 0, Date.now() + ASSERTION_KEEP_MS);
      if (!(await this.codes.consumeSamlAssertion(replayKey, keepUntil))) {
        throw new Error(`The SAML assertion ${identity.assertionId} was used before`);
      }
      const nameAttr = settings.nameAttribute ? text(identity.attributes[settings.nameAttribute]) : undefined;
      const userName = nameAttr ?? identity.nameId;
      const mail = text(identity.attributes.email) ?? text(identity.attributes.mail);
      const groups = mapGroups(identity.attributes[settings.groupsAttribute], settings, this.known());
      const userId = await this.provision(
        `saml:${name}`,
        identity.nameId,
        userName,
        typeof mail === 'string' ? mail : undefined,
        groups,
      );
      return { location: await this.handOver(userId, bindingHash), binding };
    } catch (err) {
      return this.failed(name, err);
    }
  }

  /**
   * The binding of the browser an answer is for: that of the request it answers (used up here, so
   * an answer is accepted once), or, for an unsolicited answer where the provider allows them, a
   * new binding cookie set with this answer.
   */
  private async samlSolicited(
    name: string,
    settings: SamlProviderSettings,
    identity: SamlIdentity,
  ): Promise<{ binding?: string; bindingHash: string }> {
    if (identity.inResponseTo) {
      const bindingHash = await this.codes.takeSamlRequest(identity.inResponseTo, name, Date.now());
      if (!bindingHash) throw new Error(`The SAML answer is for no open request (${identity.inResponseTo})`);
      return { bindingHash };
    }
    if (!settings.allowIdpInitiated) throw new Error('Unsolicited SAML answers are not accepted (allowIdpInitiated)');
    const binding = newToken();
    return { binding, bindingHash: hashToken(binding) };
  }

  private known(): string[] {
    return [...this.groupNames()];
  }

  /** The login page address with a one-time code for the account, redeemable by the bound browser. */
  private async handOver(userId: number, bindingHash: string): Promise<string> {
    const code = newToken();
    await this.codes.createCode(hashToken(code), userId, bindingHash, Date.now() + CODE_TTL_MS);
    return this.login({ code });
  }

  /**
   * The account a one-time code was issued for, when the code is known, unexpired, not used before
   * and `binding` is the cookie of the browser that started the login; undefined otherwise. The
   * code is used up either way.
   */
  async redeem(code: string, binding: string | undefined): Promise<number | undefined> {
    const issued = await this.codes.takeCode(hashToken(code));
    if (!issued || issued.expiresAt <= Date.now() || !binding) return undefined;
    const [expected, given] = [Buffer.from(issued.binding), Buffer.from(hashToken(binding))];
    return expected.length === given.length && timingSafeEqual(expected, given) ? issued.userId : undefined;
  }

  /** The account of this external identity, created on its first login; groups follow the provider. */
  private async provision(
    source: string,
    externalId: string,
    userName: string,
    email: string | undefined,
    groups: string[],
  ): Promise<number> {
    const existing = await this.users.findByExternal(source, externalId);
    if (existing) {
      if (existing.disabled) throw new DisabledAccount(existing.name);
      await this.users.setGroups(existing.id, groups, 'provider');
      return existing.id;
    }
    // A name already used by another account gets the provider as suffix.
    const taken = await this.users.findByName(userName);
    const name = taken ? `${userName}@${source.replace(':', '-')}` : userName;
    return this.users.createUser({
      name,
      email: email ?? null,
      authSource: source,
      externalId,
      groups,
      groupOrigin: 'provider',
    });
  }
}
