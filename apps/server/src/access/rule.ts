import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Auth } from '../auth/caller.ts';

/**
 * THE asset access rule (ARCHITECTURE §4), the one place it is written down. An asset is visible to
 * a caller when it is live (not gone) and one of its access groups (`asset_access`) is one of the
 * groups through which the caller holds the permission. Everything else applies one of its forms:
 *
 * - `visibleTo(groups)`: the where-clause over `asset` (AccessRepository, and any query that lists
 *   assets);
 * - `groupMask(groups, …)` with `isLive(status)`: the form the in-memory search index applies
 *   (search/facet-index.ts);
 * - `permits(groups, asset)`: the rule over one asset held in memory.
 *
 * `access/rule.test.ts` checks that the forms agree; `test/access-matrix.test.ts` that every route
 * which names or answers assets asks AccessService, which applies them.
 */

/** What a caller wants to do with assets. Downloads add their own permission here. */
export type Permission = 'asset.read';

/** The asset status that is visible; other statuses (`gone`) never are. */
const LIVE_STATUS = 'active';

export const isLive = (status: string): boolean => status === LIVE_STATUS;

/** The caller's groups through which it holds `permission` on an asset that lists one of them. */
export function grantingGroups(auth: Auth, permission: Permission): readonly string[] {
  switch (permission) {
    case 'asset.read':
      return auth.groups;
  }
}

/**
 * The assets a caller is limited to: a share link's visitor (`auth.share`) sees only the link's
 * assets, and of those only what the groups it holds see; undefined for everyone else (the whole
 * catalogue under the groups).
 */
export function assetScope(auth: Auth): readonly number[] | undefined {
  return auth.share?.assetIds;
}

/**
 * `ids` limited to the caller's scope (`assetScope`), in their order; with `ids` undefined, the
 * scope itself. Every form of the rule is applied to ids that passed here.
 */
export function scopedIds(auth: Auth, ids: readonly number[]): number[];
export function scopedIds(auth: Auth, ids: readonly number[] | undefined): readonly number[] | undefined;
export function scopedIds(auth: Auth, ids: readonly number[] | undefined): readonly number[] | undefined {
  const scope = assetScope(auth);
  if (!scope) return ids;
  if (!ids) return scope;
  const inScope = new Set(scope);
  return ids.filter((id) => inScope.has(id));
}

/** The rule over one asset in memory. */
export function permits(
  groups: readonly string[],
  asset: { status: string; accessGroups: readonly string[] },
): boolean {
  return isLive(asset.status) && asset.accessGroups.some((g) => groups.includes(g));
}

/** The rule as a where-clause over `asset`: `.where(visibleTo(groups))`. */
export function visibleTo(groups: readonly string[]) {
  return (eb: ExpressionBuilder<Database, 'asset'>): Expression<SqlBool> =>
    groups.length
      ? eb.and([
          eb('asset.status', '=', LIVE_STATUS),
          eb.exists(
            eb
              .selectFrom('asset_access')
              .select('asset_access.asset_id')
              .whereRef('asset_access.asset_id', '=', 'asset.id')
              .where('asset_access.group_name', 'in', [...groups]),
          ),
        ])
      : sql<SqlBool>`1 = 0`;
}

/**
 * The rule as bit masks: one bit per access group, 32 groups per word (`bitOf` numbers the groups
 * an index knows). A live document is visible when its own mask shares a bit with this one; groups
 * no document names set no bit.
 */
export function groupMask(
  groups: readonly string[],
  bitOf: (group: string) => number | undefined,
  words: number,
): Uint32Array {
  const mask = new Uint32Array(words);
  for (const g of groups) {
    const bit = bitOf(g);
    if (bit !== undefined) mask[bit >> 5] |= 1 << (bit & 31);
  }
  return mask;
}
