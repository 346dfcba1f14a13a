import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/**
 * The rule every query over `asset` applies (ARCHITECTURE §4): an asset is visible when one of its
 * access groups is among the caller's groups. Use it in any repository that lists, counts or serves
 * assets: `.where(visibleTo(auth.groups))`.
 */
export function visibleTo(groups: readonly string[]) {
  return (eb: ExpressionBuilder<Database, 'asset'>): Expression<SqlBool> =>
    groups.length
      ? eb.exists(
          eb
            .selectFrom('asset_access')
            .select('asset_access.asset_id')
            .whereRef('asset_access.asset_id', '=', 'asset.id')
            .where('asset_access.group_name', 'in', [...groups]),
        )
      : sql<SqlBool>`1 = 0`;
}

export class AccessRepository {
  constructor(private readonly db: Db) {}

  /** Of `ids`, the active assets the groups may see, in the order asked. */
  async visibleIds(groups: readonly string[], ids: readonly number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.db.kysely
      .selectFrom('asset')
      .select('asset.id')
      .where('asset.id', 'in', [...ids])
      .where('asset.status', '=', 'active')
      .where(visibleTo(groups))
      .execute();
    const visible = new Set(rows.map((r) => r.id));
    return ids.filter((id) => visible.has(id));
  }

  /** Of `ids`, the active assets the groups may see, with their kind (asset_group). */
  async visibleKinds(groups: readonly string[], ids: readonly number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db.kysely
      .selectFrom('asset')
      .select(['asset.id', 'asset.asset_group'])
      .where('asset.id', 'in', [...ids])
      .where('asset.status', '=', 'active')
      .where(visibleTo(groups))
      .execute();
    return new Map(rows.map((r) => [r.id, r.asset_group]));
  }
}
