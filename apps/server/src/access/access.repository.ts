import type { Db } from '../db/database.ts';
import { visibleTo } from './rule.ts';

/** Ids per statement: far below the parameter limits of SQLite (32766) and PostgreSQL (65535). */
const CHUNK = 10_000;

export class AccessRepository {
  constructor(private readonly db: Db) {}

  /** Of `ids`, those the groups may see under the access rule (access/rule.ts), of `kinds` only unless null. */
  async visibleIds(
    groups: readonly string[],
    ids: readonly number[],
    kinds: readonly string[] | null = null,
  ): Promise<Set<number>> {
    const unique = [...new Set(ids)];
    const visible = new Set<number>();
    for (let i = 0; i < unique.length; i += CHUNK) {
      const rows = await this.db.kysely
        .selectFrom('asset')
        .select('asset.id')
        .where('asset.id', 'in', unique.slice(i, i + CHUNK))
        .where(visibleTo(groups, kinds))
        .execute();
      for (const r of rows) visible.add(Number(r.id));
    }
    return visible;
  }

  /** What the access rule reads of one asset, for its in-memory form (`permits`). */
  async ruleFacts(id: number): Promise<{ status: string; accessGroups: string[]; assetGroup: string } | undefined> {
    const asset = await this.db.kysely
      .selectFrom('asset')
      .select(['status', 'asset_group'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!asset) return undefined;
    const access = await this.db.kysely
      .selectFrom('asset_access')
      .select('group_name')
      .where('asset_id', '=', id)
      .execute();
    return { status: asset.status, accessGroups: access.map((a) => a.group_name), assetGroup: asset.asset_group };
  }
}
