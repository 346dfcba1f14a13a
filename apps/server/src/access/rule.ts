import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Auth } from '../auth/caller.ts';
import type { AccessRule } from '@vitrine/search-engine';

/**
 * THE asset access rule (ARCHITECTURE §4), the one place it is written down. An asset is visible to
 * a caller when it is live (not gone) and one of its access groups (`asset_access`) is one of the
 * groups through which the caller holds the permission; a permission may also be limited to some
 * kinds of asset (`asset_group`): a conversion set applies only to the kinds it names. Everything
 * else applies one of its forms:
 *
 * - `visibleTo(groups, kinds)`: the where-clause over `asset` (AccessRepository, and any query that
 *   lists assets);
 * - `groupMask(groups, …)` with `isLive(status)`: the form the in-memory search index applies
 *   (`indexRule`, the engine's AccessRule port: @vitrine/search-engine, facet-index/facet-index.ts);
 * - `permits(groups, asset, kinds)`: the rule over one asset held in memory.
 *
 * `access/rule.test.ts` checks that the forms agree; `test/access-matrix.test.ts` that every route
 * which names or answers assets asks AccessService, which applies them.
 */

/** What a caller wants to do with assets: see them, or download them in one conversion set. */
export type Permission = 'asset.read' | { readonly action: 'asset.download'; readonly setId: number };

/** The permission to download in conversion set `setId` (0: the original file). */
export const downloadIn = (setId: number): Permission => ({ action: 'asset.download', setId });

/**
 * The settings that decide downloads (admin-spec §3 "Convert set"): a group may use the sets it
 * lists in `downloadSets`, and a conversion set names the user groups that may use it and the kinds
 * of asset it applies to (none: every kind). Set 0, the original file, needs no entry and applies
 * to every kind.
 */
export interface DownloadRights {
  readonly groups: readonly { readonly name: string; readonly downloadSets: readonly number[] }[];
  readonly conversionSets: readonly {
    readonly id: number;
    readonly assetGroups: readonly string[];
    readonly userGroups: readonly string[];
  }[];
}

export const noDownloadRights: DownloadRights = { groups: [], conversionSets: [] };

/**
 * What a permission grants a caller: the groups through which it holds it (matched against an
 * asset's access groups) and the kinds of asset it covers (`null`: every kind).
 */
export interface Grant {
  readonly groups: readonly string[];
  readonly kinds: readonly string[] | null;
}

const nothing: Grant = { groups: [], kinds: null };

/** The asset status that is visible; other statuses (`gone`) never are. */
const LIVE_STATUS = 'active';

export const isLive = (status: string): boolean => status === LIVE_STATUS;

/**
 * What `permission` grants the caller. Reading goes through each of its groups. Downloading in a
 * set is a right of the caller (one of its groups may use the set): the caller then downloads what
 * it sees, of the kinds the set applies to.
 */
export function grant(auth: Auth, permission: Permission, rights: DownloadRights = noDownloadRights): Grant {
  if (permission === 'asset.read') return { groups: auth.groups, kinds: null };
  const { setId } = permission;
  // A share link's visitor downloads only in the sets the link allows (of those its creator may use).
  if (auth.share && !auth.share.downloadSets.includes(setId)) return nothing;
  const listed = rights.groups.some((g) => auth.groups.includes(g.name) && g.downloadSets.includes(setId));
  if (setId === 0) return listed ? { groups: auth.groups, kinds: null } : nothing;
  const set = rights.conversionSets.find((s) => s.id === setId);
  if (!set || !(listed || set.userGroups.some((g) => auth.groups.includes(g)))) return nothing;
  return { groups: auth.groups, kinds: set.assetGroups.length ? set.assetGroups : null };
}

/** The caller's groups through which it holds `permission` on an asset that lists one of them. */
export function grantingGroups(
  auth: Auth,
  permission: Permission,
  rights: DownloadRights = noDownloadRights,
): readonly string[] {
  return grant(auth, permission, rights).groups;
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
  asset: { status: string; accessGroups: readonly string[]; assetGroup?: string },
  kinds: readonly string[] | null = null,
): boolean {
  return (
    isLive(asset.status) &&
    asset.accessGroups.some((g) => groups.includes(g)) &&
    (kinds === null || (asset.assetGroup !== undefined && kinds.includes(asset.assetGroup)))
  );
}

/** The rule as a where-clause over `asset`: `.where(visibleTo(groups))`, or `visibleTo(groups, kinds)`. */
export function visibleTo(groups: readonly string[], kinds: readonly string[] | null = null) {
  return (eb: ExpressionBuilder<Database, 'asset'>): Expression<SqlBool> =>
    groups.length && (kinds === null || kinds.length)
      ? eb.and([
          eb('asset.status', '=', LIVE_STATUS),
          eb.exists(
            eb
              .selectFrom('asset_access')
              .select('asset_access.asset_id')
              .whereRef('asset_access.asset_id', '=', 'asset.id')
              .where('asset_access.group_name', 'in', [...groups]),
          ),
          ...(kinds === null ? [] : [eb('asset.asset_group', 'in', [...kinds])]),
        ])
      : sql<SqlBool>`1 = 0`;
}

/** The status of an asset an editor moved to the bin (decision 0250): not live, but restorable. */
export const BIN_STATUS = 'bin';

/**
 * The rule for editors (decision 0250): an editor changes the assets it may see (`visibleTo`); with
 * `binned`, also those in the bin it would see once restored (restore, history, removal, undo).
 */
export function editableTo(groups: readonly string[], binned: boolean) {
  return (eb: ExpressionBuilder<Database, 'asset'>): Expression<SqlBool> =>
    groups.length
      ? eb.and([
          binned ? eb('asset.status', 'in', [LIVE_STATUS, BIN_STATUS]) : eb('asset.status', '=', LIVE_STATUS),
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
    if (bit !== undefined) mask[bit >> 5]! |= 1 << (bit & 31);
  }
  return mask;
}

/** The rule in the forms the search engine's in-memory index applies (its AccessRule port). */
export const indexRule: AccessRule = { isLive, groupMask };
