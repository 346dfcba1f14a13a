import { sql, type ExpressionBuilder, type ExpressionWrapper } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { FileSettings } from '../settings.ts';

/** The state of a share link: only an `active` link lets anyone in. */
export type ShareLinkState = 'active' | 'expired' | 'revoked' | 'inactive';

/**
 * What decides whether a share link is live, from the settings: who has the right to share (members
 * of a group named in `shareLinks.groups` that gives portal access) and how long a link may live.
 */
export interface ShareRules {
  sharerGroups: readonly string[];
  maxLifetimeMs: number;
}

export function shareRulesOf(file: Pick<FileSettings, 'groups' | 'shareLinks'>): ShareRules {
  const portal = new Set(file.groups.filter((g) => g.portalAccess).map((g) => g.name));
  return {
    sharerGroups: file.shareLinks.groups.filter((g) => portal.has(g)),
    maxLifetimeMs: file.shareLinks.maxDays * 86_400_000,
  };
}

/** The rules as they are, or where to read the rules in force at each use (GroupRights). */
export type ShareRulesSource = ShareRules | (() => ShareRules);

export const shareRulesNow = (source: ShareRulesSource): ShareRules =>
  typeof source === 'function' ? source() : source;

/** Whether an account with these groups has the right to share (to make links, and to keep its links live). */
export function mayShare(groups: readonly string[], rules: ShareRules): boolean {
  return groups.some((g) => rules.sharerGroups.includes(g));
}

type LinkBuilder = ExpressionBuilder<Database, 'share_link'>;

/**
 * When a link stops: its own expiry, but never later than the longest lifetime after it was made
 * (links made before there was a longest lifetime have no expiry of their own).
 */
export function shareExpiry(eb: LinkBuilder, rules: ShareRules): ExpressionWrapper<Database, 'share_link', number> {
  const latest = eb('share_link.created_at', '+', rules.maxLifetimeMs);
  return eb
    .case()
    .when(eb.or([eb('share_link.expires_at', 'is', null), eb('share_link.expires_at', '>', latest)]))
    .then(latest)
    .else(eb.ref('share_link.expires_at'))
    .end()
    .$castTo<number>();
}

/**
 * THE share-link rule, in SQL so a link's state is decided where its rows are: revoked, else expired
 * (shareExpiry), else inactive while its creator's account is disabled or no longer has the right
 * to share (mayShare's groups), else active. Whether a visitor gets in (AccessRepository) and what
 * "My shares" says (ShareRepository) both read this one expression.
 */
export function shareState(
  eb: LinkBuilder,
  now: number,
  rules: ShareRules,
): ExpressionWrapper<Database, 'share_link', ShareLinkState> {
  const creatorMayShare = eb.exists(
    eb
      .selectFrom('user_account')
      .select('user_account.id')
      .whereRef('user_account.id', '=', 'share_link.user_id')
      .where('user_account.disabled', '=', 0)
      .where((inner) =>
        rules.sharerGroups.length === 0
          ? sql<boolean>`1 = 0`
          : inner.exists(
              inner
                .selectFrom('user_group')
                .select('user_group.user_id')
                .whereRef('user_group.user_id', '=', 'share_link.user_id')
                .where('user_group.group_name', 'in', [...rules.sharerGroups]),
            ),
      ),
  );
  return eb
    .case()
    .when('share_link.revoked_at', 'is not', null)
    .then(sql.lit('revoked'))
    .when(shareExpiry(eb, rules), '<=', now)
    .then(sql.lit('expired'))
    .when(eb.not(creatorMayShare))
    .then(sql.lit('inactive'))
    .else(sql.lit('active'))
    .end()
    .$castTo<ShareLinkState>();
}
