import type { ExpressionBuilder, Selectable } from 'kysely';
import {
  shareExpiry,
  shareRulesNow,
  shareState,
  type ShareLinkState,
  type ShareRules,
  type ShareRulesSource,
} from '../access/share-rule.ts';
import type { Db } from '../db/database.ts';
import type { Database, ShareLinkTable } from '../db/schema.ts';

export interface ShareRow {
  id: number;
  userId: number;
  title: string;
  passwordHash: string | null;
  downloadSets: number[];
  createdAt: number;
  /** When the link stops (its own expiry, capped by the longest lifetime: share-rule.ts). */
  expiresAt: number;
  revokedAt: number | null;
  /** As the share-link rule decides it at the moment of reading. */
  state: ShareLinkState;
  views: number;
  downloads: number;
  assetIds: number[];
}

export type NewShare = Omit<ShareRow, 'id' | 'revokedAt' | 'views' | 'downloads' | 'state'> & { tokenHash: string };

const columns = [
  'id',
  'user_id',
  'title',
  'password_hash',
  'download_sets',
  'created_at',
  'revoked_at',
  'views',
  'downloads',
] as const;

/** Share links and their assets, each with its state under the share-link rule (access/share-rule.ts). */
export class ShareRepository {
  constructor(
    private readonly db: Db,
    private readonly rulesSource: ShareRulesSource,
  ) {}

  private get rules(): ShareRules {
    return shareRulesNow(this.rulesSource);
  }

  /** The columns of a link, with its expiry and state as the share-link rule decides them now. */
  private columns(now: number) {
    return (eb: ExpressionBuilder<Database, 'share_link'>) => [
      ...columns,
      shareExpiry(eb, this.rules).as('expires_at'),
      shareState(eb, now, this.rules).as('state'),
    ];
  }

  async create(share: NewShare): Promise<number> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('share_link')
        .values({
          token_hash: share.tokenHash,
          user_id: share.userId,
          title: share.title,
          password_hash: share.passwordHash,
          download_sets: JSON.stringify(share.downloadSets),
          created_at: share.createdAt,
          expires_at: share.expiresAt,
          revoked_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      const values = share.assetIds.map((assetId, position) => ({ share_id: id, asset_id: assetId, position }));
      // Well below the bound-parameter limits of both databases per statement.
      for (let i = 0; i < values.length; i += 1000) {
        await trx
          .insertInto('share_link_asset')
          .values(values.slice(i, i + 1000))
          .execute();
      }
      return id;
    });
  }

  /** The user's links, newest first (with `id`: that one link, when it is the user's). */
  async ofUser(userId: number, id?: number, now = Date.now()): Promise<ShareRow[]> {
    let query = this.db.kysely.selectFrom('share_link').select(this.columns(now)).where('user_id', '=', userId);
    if (id !== undefined) query = query.where('id', '=', id);
    const links = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return this.withAssets(links);
  }

  async byId(id: number, now = Date.now()): Promise<ShareRow | undefined> {
    const links = await this.db.kysely
      .selectFrom('share_link')
      .select(this.columns(now))
      .where('id', '=', id)
      .execute();
    return (await this.withAssets(links))[0];
  }

  async idOfToken(tokenHash: string): Promise<number | undefined> {
    const row = await this.db.kysely
      .selectFrom('share_link')
      .select('id')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  /** Revokes the user's link; false when the user has no such link. */
  async revoke(id: number, userId: number, now: number): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable('share_link')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return true;
    return (await this.ofUser(userId, id)).length > 0;
  }

  async countView(id: number): Promise<void> {
    await this.db.kysely
      .updateTable('share_link')
      .set((eb) => ({ views: eb('views', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  private async withAssets(
    links: (Pick<Selectable<ShareLinkTable>, (typeof columns)[number]> & {
      expires_at: number;
      state: ShareLinkState;
    })[],
  ): Promise<ShareRow[]> {
    if (links.length === 0) return [];
    const ids = links.map((l) => Number(l.id));
    const assets = await this.db.kysely
      .selectFrom('share_link_asset')
      .select(['share_id', 'asset_id'])
      .where('share_id', 'in', ids)
      .orderBy('share_id')
      .orderBy('position')
      .execute();
    const byShare = new Map<number, number[]>();
    for (const a of assets) {
      const list = byShare.get(Number(a.share_id)) ?? [];
      list.push(Number(a.asset_id));
      byShare.set(Number(a.share_id), list);
    }
    // PostgreSQL answers bigint columns as strings.
    const num = (v: number | null): number | null => (v === null ? null : Number(v));
    return links.map((l) => ({
      id: Number(l.id),
      userId: Number(l.user_id),
      title: l.title,
      passwordHash: l.password_hash,
      downloadSets: (JSON.parse(l.download_sets) as unknown[]).map(Number),
      createdAt: Number(l.created_at),
      expiresAt: Number(l.expires_at),
      revokedAt: num(l.revoked_at),
      state: l.state,
      views: Number(l.views),
      downloads: Number(l.downloads),
      assetIds: byShare.get(Number(l.id)) ?? [],
    }));
  }
}
