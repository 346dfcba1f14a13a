import type { Db } from '../db/database.ts';
import { visibleTo } from './rule.ts';

/** Ids per statement: far below the parameter limits of SQLite (32766) and PostgreSQL (65535). */
const CHUNK = 10_000;

export class AccessRepository {
  constructor(private readonly db: Db) {}

  /** Of `ids`, those the groups may see under the access rule (access/rule.ts). */
  async visibleIds(groups: readonly string[], ids: readonly number[]): Promise<Set<number>> {
    const unique = [...new Set(ids)];
    const visible = new Set<number>();
    for (let i = 0; i < unique.length; i += CHUNK) {
      const rows = await this.db.kysely
        .selectFrom('asset')
        .select('asset.id')
        .where('asset.id', 'in', unique.slice(i, i + CHUNK))
        .where(visibleTo(groups))
        .execute();
      for (const r of rows) visible.add(Number(r.id));
    }
    return visible;
  }

  /** Of `ids`, those the groups may see under the access rule, with their kind (`asset_group`). */
  async visibleKinds(groups: readonly string[], ids: readonly number[]): Promise<Map<number, string>> {
    const unique = [...new Set(ids)];
    const kinds = new Map<number, string>();
    for (let i = 0; i < unique.length; i += CHUNK) {
      const rows = await this.db.kysely
        .selectFrom('asset')
        .select(['asset.id', 'asset.asset_group'])
        .where('asset.id', 'in', unique.slice(i, i + CHUNK))
        .where(visibleTo(groups))
        .execute();
      for (const r of rows) kinds.set(Number(r.id), r.asset_group);
    }
    return kinds;
  }
}
