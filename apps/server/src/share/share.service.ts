import type { Session } from '@vitrine/contract/session';
import type { CreateShareBody, ShareLink, ShareVisit } from '@vitrine/contract/share';
import type { AccessService } from '../access/access.service.ts';
import { verifyPassword } from '../adapters/password.ts';
import { hashNewPassword } from '../user/new-password.ts';
import { requireAssetUser, type Auth } from '../auth/caller.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import {
  forbidden,
  notFound,
  sharePasswordRequired,
  unauthorized,
  validation,
  wrongSharePassword,
} from '../http/errors.ts';
import type { AuthService } from '../session/auth.service.ts';
import { throttledCheck } from '../session/throttled-check.ts';
import { mayShare, type ShareRules } from '../access/share-rule.ts';
import { conversionSetTitle, type Settings } from '../settings.ts';
import type { LoginThrottleRepository } from '../user/login-throttle.repository.ts';
import type { ClientRateLimits } from '../user/rate-limits.ts';
import type { ShareRepository, ShareRow } from './share.repository.ts';

export interface OpenShareInput {
  token: string;
  password?: string;
  /** The client's address, as the `trustProxy` setting lets the server see it. */
  client: string;
  locale: string | null;
}

/** The throttling key of one share link's password. */
const shareKey = (id: number): string => `share:${id}`;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * Share links (docs/security.md "Share links"): users whose group may share make links that give
 * people without an account a view of chosen assets. What a link's visitor may see and download is
 * decided by the access rule (access/rule.ts, through `Auth.share`), not here.
 */
export class ShareService {
  constructor(
    private readonly shares: ShareRepository,
    private readonly access: AccessService,
    private readonly auth: AuthService,
    private readonly throttle: LoginThrottleRepository,
    private readonly settings: Settings,
    private readonly sessions: { present(auth: Auth, token: string | null): Session },
    private readonly limits: Pick<ClientRateLimits, 'take'>,
    /** Statistics (insights/, wired in services.ts): links opened, by link, never by visitor. */
    private readonly insights?: { record(event: { kind: 'share_open'; shareId: number }): void },
  ) {}

  /** The account of a logged-in user (not a guest, not a share link's visitor). */
  private owner(auth: Auth): number {
    requireAssetUser(auth);
    if (auth.userId === null || auth.share) throw unauthorized('Please log in to manage share links.');
    return auth.userId;
  }

  /** Who has the right to share and how long links live (the share-link rule, access/share-rule.ts). */
  private get rules(): ShareRules {
    return this.auth.rights.current().share;
  }

  private mayCreate(auth: Auth): boolean {
    return auth.isAssetUser && auth.userId !== null && !auth.share && mayShare(auth.groups, this.rules);
  }

  settingsFor(
    auth: Auth,
    locale: string | null,
  ): { mayCreate: boolean; maxAssets: number; maxDays: number; downloadSets: { id: number; title: string }[] } {
    requireAssetUser(auth);
    const may = this.mayCreate(auth);
    const langs = [locale, auth.locale, 'en', 'de'].filter((l): l is string => l !== null);
    return {
      mayCreate: may,
      maxAssets: this.settings.file.shareLinks.maxAssets,
      maxDays: this.settings.file.shareLinks.maxDays,
      downloadSets: may
        ? this.access.usableSetIds(auth).map((id) => ({ id, title: conversionSetTitle(this.settings.file, id, langs) }))
        : [],
    };
  }

  async create(auth: Auth, body: CreateShareBody, now = Date.now()): Promise<{ share: ShareLink; token: string }> {
    const userId = this.owner(auth);
    if (!this.mayCreate(auth)) throw forbidden('Your group may not create share links.');
    const ids = [...new Set(body.assetIds.map(Number))];
    const { maxAssets } = this.settings.file.shareLinks;
    if (ids.length > maxAssets) {
      throw validation(`A share link may hold at most ${maxAssets} assets.`, [
        { path: 'assetIds', message: `at most ${maxAssets}` },
      ]);
    }
    const visible = await this.access.checkAccess(auth, 'asset.read', ids);
    const missing = ids.filter((id) => !visible.has(id));
    if (missing.length) {
      throw validation(
        `${missing.length} of the assets are not available.`,
        missing.slice(0, 20).map((id) => ({ path: 'assetIds', message: `the asset ${id} is not available` })),
      );
    }
    const usable = this.access.usableSetIds(auth);
    const sets = [...new Set(body.downloadSets ?? [])];
    const unusable = sets.filter((id) => !usable.includes(id));
    if (unusable.length) {
      throw validation(
        'A share link may allow only conversion sets you may download in yourself.',
        unusable.map((id) => ({ path: 'downloadSets', message: `the set ${id} is not yours to give` })),
      );
    }
    // A link without an expiry gets the longest lifetime; a later expiry is refused rather than
    // cut short, so that nobody hands out a link believing it lasts longer than it will.
    const latest = now + this.rules.maxLifetimeMs;
    const expiresAt = body.expiresAt === undefined ? latest : Date.parse(body.expiresAt);
    if (expiresAt <= now) {
      throw validation('The expiry must lie in the future.', [{ path: 'expiresAt', message: 'in the past' }]);
    }
    if (expiresAt > latest) {
      const { maxDays } = this.settings.file.shareLinks;
      throw validation(`A share link may last at most ${maxDays} days.`, [
        { path: 'expiresAt', message: `at most ${maxDays} days from now (${new Date(latest).toISOString()})` },
      ]);
    }
    const token = newToken();
    const id = await this.shares.create({
      tokenHash: hashToken(token),
      userId,
      title: body.title?.trim() ?? '',
      passwordHash: body.password ? await hashNewPassword(body.password) : null,
      downloadSets: sets,
      createdAt: now,
      expiresAt,
      assetIds: ids,
    });
    const [row] = await this.shares.ofUser(userId, id, now);
    if (!row) throw notFound('The new share link');
    return { share: present(row), token };
  }

  async list(auth: Auth, now = Date.now()): Promise<{ shares: ShareLink[] }> {
    const userId = this.owner(auth);
    return { shares: (await this.shares.ofUser(userId, undefined, now)).map(present) };
  }

  /** Revokes one of the caller's links; another user's link is not found. */
  async revoke(auth: Auth, input: { id: number }, now = Date.now()): Promise<{ share: ShareLink }> {
    const userId = this.owner(auth);
    if (!(await this.shares.revoke(input.id, userId, now))) throw notFound(`The share link ${input.id}`);
    const [row] = await this.shares.ofUser(userId, input.id, now);
    if (!row) throw notFound(`The share link ${input.id}`);
    return { share: present(row) };
  }

  /**
   * Opens a link for a visitor: a session limited to the link. An unknown, revoked or expired link
   * is not found alike; a wrong password counts as a failed login does, with the link in the place
   * of the account: it blocks the client for this link, never the link for its other recipients.
   */
  async open(input: OpenShareInput): Promise<{ session: Session; share: ShareVisit }> {
    // Counted before the link is looked up: each try costs a lookup, and a password check or session.
    await this.limits.take('shareOpens', input.client);
    const id = await this.shares.idOfToken(hashToken(input.token));
    const grant = id === undefined ? undefined : await this.access.shareGrant(id);
    const row = grant && (await this.shares.byId(grant.id));
    if (!grant || !row) throw notFound('The share link');
    if (row.passwordHash !== null) await this.checkPassword(row, input);
    await this.shares.countView(row.id);
    this.insights?.record({ kind: 'share_open', shareId: row.id });
    const token = await this.auth.openSession(null, input.locale, row.id);
    const visitor = this.auth.shareAuth(grant, null, input.locale);
    return { session: this.sessions.present(visitor, token), share: await this.visit(visitor, row) };
  }

  private async checkPassword(row: ShareRow, input: OpenShareInput): Promise<void> {
    const hash = row.passwordHash;
    if (input.password === undefined || input.password === '') throw sharePasswordRequired();
    const password = input.password;
    const { maxFailures, maxFailuresPerClient, blockMinutes, maxDelaySeconds } = this.settings.file.login;
    const ok = await throttledCheck(
      this.throttle,
      {
        subject: shareKey(row.id),
        client: input.client,
        maxFailures,
        maxFailuresPerClient,
        blockMs: blockMinutes * 60_000,
        maxDelayMs: maxDelaySeconds * 1000,
      },
      () => verifyPassword(hash, password),
    );
    if (!ok) throw wrongSharePassword();
  }

  /** The link the caller's session was opened with. */
  async current(auth: Auth): Promise<ShareVisit> {
    if (auth.expired) throw unauthorized('This share link was revoked or has expired.');
    if (!auth.share) throw notFound('A share link of this session');
    const row = await this.shares.byId(auth.share.id);
    if (!row) throw notFound('The share link');
    return this.visit(auth, row);
  }

  /** What a visitor is shown: of the link's assets only those it may see (they may have gone since). */
  private async visit(visitor: Auth, row: ShareRow): Promise<ShareVisit> {
    const visible = await this.access.checkAccess(visitor, 'asset.read', row.assetIds);
    return {
      title: row.title,
      assetIds: row.assetIds.filter((id) => visible.has(id)).map(String),
      downloadSets: this.access.usableSetIds(visitor),
      expiresAt: iso(row.expiresAt),
    };
  }
}

function present(row: ShareRow): ShareLink {
  return {
    id: row.id,
    title: row.title,
    assetIds: row.assetIds.map(String),
    createdAt: new Date(row.createdAt).toISOString(),
    expiresAt: iso(row.expiresAt),
    revokedAt: iso(row.revokedAt),
    hasPassword: row.passwordHash !== null,
    downloadSets: row.downloadSets,
    views: row.views,
    downloads: row.downloads,
    state: row.state,
  };
}
