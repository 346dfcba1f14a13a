import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../db/database.ts';
import type { ShareGrant } from '../auth/caller.ts';
import type { Database } from '../db/schema.ts';
import { editableTo, visibleTo } from './rule.ts';
import { shareRulesNow, shareState, type ShareRulesSource } from './share-rule.ts';
import { nextTurn } from '../db/turn.ts';

/**
 * Ids per statement, with a turn of the event loop between statements: on SQLite's connection of the
 * event loop a statement of 5,000 ids with the rule's subquery held it 45–58 ms at a million assets
 * (the check at the start of every bulk edit).
 */
const CHUNK = 1_000;

export class AccessRepository {
  constructor(
    private readonly db: Db,
    /** Who may share and how long links live (share-rule.ts), for whether a link is live. */
    private readonly shareRules: ShareRulesSource,
  ) {}

  /** A share link is live while the share-link rule calls it active (share-rule.ts). */
  private live(now: number) {
    return (eb: ExpressionBuilder<Database, 'share_link'>) =>
      eb(shareState(eb, now, shareRulesNow(this.shareRules)), '=', 'active');
  }

  /** Of `ids`, those the groups may see under the access rule (access/rule.ts), of `kinds` only unless null. */
  async visibleIds(
    groups: readonly string[],
    ids: readonly number[],
    kinds: readonly string[] | null = null,
  ): Promise<Set<number>> {
    return this.idsWhere(ids, visibleTo(groups, kinds));
  }

  /** Of `ids`, those of assets that meet `rule`, CHUNK ids a statement with a turn between. */
  private async idsWhere(
    ids: readonly number[],
    rule: (eb: ExpressionBuilder<Database, 'asset'>) => Expression<SqlBool>,
  ): Promise<Set<number>> {
    const unique = [...new Set(ids)];
    const found = new Set<number>();
    for (let i = 0; i < unique.length; i += CHUNK) {
      if (i > 0) await nextTurn();
      const rows = await this.db.kysely
        .selectFrom('asset')
        .select('asset.id')
        .where('asset.id', 'in', unique.slice(i, i + CHUNK))
        .where(rule)
        .execute();
      for (const r of rows) found.add(Number(r.id));
    }
    return found;
  }

  /** Of `ids`, those the groups may edit (access/rule.ts `editableTo`), with those in the bin when `binned`. */
  async editableIds(groups: readonly string[], ids: readonly number[], binned: boolean): Promise<Set<number>> {
    return this.idsWhere(ids, editableTo(groups, binned));
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

  /** The grant of a share link when it is live (access/rule.ts applies it through `Auth.share`). */
  async shareGrant(shareId: number, now: number): Promise<ShareGrant | undefined> {
    const db = this.db.kysely;
    const link = await db
      .selectFrom('share_link')
      .select(['share_link.id', 'share_link.user_id', 'share_link.download_sets'])
      .where('share_link.id', '=', shareId)
      .where(this.live(now))
      .executeTakeFirst();
    if (!link) return undefined;
    const assets = await db
      .selectFrom('share_link_asset')
      .select('asset_id')
      .where('share_id', '=', link.id)
      .orderBy('position')
      .execute();
    const groups = await db
      .selectFrom('user_group')
      .select('group_name')
      .where('user_id', '=', link.user_id)
      .orderBy('group_name')
      .execute();
    return {
      id: Number(link.id),
      assetIds: assets.map((a) => Number(a.asset_id)),
      downloadSets: (JSON.parse(link.download_sets) as number[]).map(Number),
      groups: groups.map((g) => g.group_name),
    };
  }

  /** Whether a share link is live (media URLs minted for it are checked with this). */
  async shareIsLive(shareId: number, now: number): Promise<boolean> {
    const row = await this.db.kysely
      .selectFrom('share_link')
      .select('share_link.id')
      .where('share_link.id', '=', shareId)
      .where(this.live(now))
      .executeTakeFirst();
    return row !== undefined;
  }
}
