import type { Kysely, Selectable } from 'kysely';
import type { CatalogueRepository } from '../catalogue/catalogue.repository.ts';
import type { Db } from '../db/database.ts';
import type { AssetTable, ConversionTable, Database } from '../db/schema.ts';

export type DownloadSource = Pick<
  Selectable<AssetTable>,
  | 'id'
  | 'filename'
  | 'source_path'
  | 'import_root'
  | 'sha256'
  | 'file_size'
  | 'mime'
  | 'format'
  | 'asset_group'
  | 'imp_date'
  | 'duration'
>;

export type ConversionRow = Selectable<ConversionTable>;

/** One delivered download, as `recordDeliveries` logs it. */
export interface Delivery {
  userId: number | null;
  shareId: number | null;
  csetId: number;
  kind: 'single' | 'zip';
  assetIds: readonly number[];
  /**
   * Logged once per key: a keyed hash of the signed URL and its caller (`deliveryKey`), kept until
   * the URL expires (ms). None: every delivery is logged.
   */
  once?: { key: string; expiresAt: number } | undefined;
}

/** All SQL of downloads: sources, the per-user lock, the conversion cache, checksums, the log of delivered downloads and their counting. */
export class DownloadRepository {
  constructor(
    private readonly db: Db,
    /** The one asset-write path, which folds delivered downloads into the assets' counts. */
    private readonly catalogue: CatalogueRepository,
  ) {}

  /**
   * What the player of a video is offered besides its web version: whether a browser plays the
   * original, the size of the playable derivative (once made), the languages of its caption tracks.
   */
  async playerFacts(
    id: number,
    kind: 'video' | 'audio',
  ): Promise<{ playsInBrowser: boolean; playableBytes: number | null; captions: { track: number; lang: string }[] }> {
    const [asset, derivative, captions] = await Promise.all([
      this.db.kysely.selectFrom('asset').select('plays_in_browser').where('id', '=', id).executeTakeFirst(),
      this.db.kysely
        .selectFrom('derivative')
        .select('bytes')
        .where('asset_id', '=', id)
        .where('kind', '=', kind)
        .where('page', '=', 0)
        .executeTakeFirst(),
      this.db.kysely
        .selectFrom('asset_caption')
        .select(['track', 'lang'])
        .where('asset_id', '=', id)
        .orderBy('track')
        .execute(),
    ]);
    return {
      playsInBrowser: Number(asset?.plays_in_browser ?? 0) === 1,
      playableBytes: derivative ? Number(derivative.bytes) : null,
      captions: captions.map((c) => ({ track: Number(c.track), lang: c.lang })),
    };
  }

  /** One caption track of an active asset. */
  async caption(
    id: number,
    track: number,
  ): Promise<{ format: 'vtt' | 'srt'; sha256: string; content: string } | undefined> {
    return this.db.kysely
      .selectFrom('asset_caption')
      .innerJoin('asset', 'asset.id', 'asset_caption.asset_id')
      .select(['asset_caption.format', 'asset_caption.sha256', 'asset_caption.content'])
      .where('asset_caption.asset_id', '=', id)
      .where('asset_caption.track', '=', track)
      .where('asset.status', '=', 'active')
      .executeTakeFirst();
  }

  /** Active assets by id, in the order asked (access is checked by the caller). */
  async sources(ids: readonly number[]): Promise<DownloadSource[]> {
    if (!ids.length) return [];
    const rows = await this.db.kysely
      .selectFrom('asset')
      .select([
        'id',
        'filename',
        'source_path',
        'import_root',
        'sha256',
        'file_size',
        'mime',
        'format',
        'asset_group',
        'imp_date',
        'duration',
      ])
      .where('id', 'in', [...ids])
      .where('status', '=', 'active')
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async pageCount(id: number): Promise<number | null> {
    const row = await this.db.kysely.selectFrom('asset').select('page_count').where('id', '=', id).executeTakeFirst();
    return row?.page_count ?? null;
  }

  /** Takes the lock of `owner` unless someone holds it; an expired lock (a dead process) is taken over. */
  async acquireLock(owner: string, now: number, leaseMs: number): Promise<boolean> {
    await this.db.kysely.deleteFrom('download_lock').where('owner', '=', owner).where('expires_at', '<', now).execute();
    const result = await this.db.kysely
      .insertInto('download_lock')
      .values({ owner, expires_at: now + leaseMs })
      .onConflict((oc) => oc.column('owner').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async releaseLock(owner: string): Promise<void> {
    await this.db.kysely.deleteFrom('download_lock').where('owner', '=', owner).execute();
  }

  /** Removes the locks whose holder let them run out (a process that died holding them). */
  async purgeExpiredLocks(now: number): Promise<number> {
    const result = await this.db.kysely.deleteFrom('download_lock').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Keeps the ids of a zip list under `ref` until `expiresAt` (ms) at least: a list kept already
   * (the same ids again) stays as long as the later of its URLs.
   */
  async keepZipList(ref: string, ids: string, expiresAt: number): Promise<void> {
    await this.db.kysely
      .insertInto('zip_list')
      .values({ ref, ids, expires_at: expiresAt })
      .onConflict((oc) =>
        oc
          .column('ref')
          .doUpdateSet((eb) => ({ expires_at: eb.ref('excluded.expires_at') }))
          .where('zip_list.expires_at', '<', expiresAt),
      )
      .execute();
  }

  /** The ids of the zip list `ref` (as `keepZipList` took them), or undefined when there is none. */
  async zipList(ref: string): Promise<string | undefined> {
    const row = await this.db.kysely.selectFrom('zip_list').select('ids').where('ref', '=', ref).executeTakeFirst();
    return row?.ids;
  }

  /** Removes the zip lists whose last URL has expired. */
  async purgeExpiredZipLists(now: number): Promise<number> {
    const result = await this.db.kysely.deleteFrom('zip_list').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Removes delivered downloads made before `before` that are counted in the assets' download
   * counts; a download not yet counted is kept whatever its age, so no count is lost.
   */
  async purgeCountedDownloads(before: number): Promise<number> {
    const result = await this.db.kysely
      .deleteFrom('download')
      .where('created_at', '<', before)
      .where('counted_at', 'is not', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async conversion(sha256: string, key: string): Promise<ConversionRow | undefined> {
    return this.db.kysely
      .selectFrom('conversion')
      .selectAll()
      .where('sha256', '=', sha256)
      .where('cset_key', '=', key)
      .executeTakeFirst();
  }

  /**
   * Claims the work of one conversion: a new row, or a running one whose process stopped renewing
   * it, or (`retake`) a finished one whose file is gone. Answers whether this process got it.
   */
  async claimConversion(sha256: string, key: string, now: number, leaseMs: number, retake: boolean): Promise<boolean> {
    const inserted = await this.db.kysely
      .insertInto('conversion')
      .values({
        sha256,
        cset_key: key,
        status: 'running',
        path: null,
        mime: null,
        bytes: null,
        crc32: null,
        width: null,
        height: null,
        claimed_until: now + leaseMs,
        created_at: now,
        last_used: now,
      })
      .onConflict((oc) => oc.columns(['sha256', 'cset_key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
    const taken = await this.db.kysely
      .updateTable('conversion')
      .set({ status: 'running', claimed_until: now + leaseMs })
      .where('sha256', '=', sha256)
      .where('cset_key', '=', key)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'running'), eb('claimed_until', '<', now)]),
          ...(retake ? [eb('status', '=', 'done')] : []),
        ]),
      )
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) > 0;
  }

  /** Extends the claim of a conversion that is still running. */
  async renewConversion(sha256: string, key: string, until: number): Promise<void> {
    await this.db.kysely
      .updateTable('conversion')
      .set({ claimed_until: until })
      .where('sha256', '=', sha256)
      .where('cset_key', '=', key)
      .where('status', '=', 'running')
      .execute();
  }

  async finishConversion(
    sha256: string,
    key: string,
    file: { path: string; mime: string; bytes: number; crc32: number; width: number | null; height: number | null },
  ): Promise<void> {
    await this.db.kysely
      .updateTable('conversion')
      .set({ status: 'done', ...file })
      .where('sha256', '=', sha256)
      .where('cset_key', '=', key)
      .execute();
  }

  /**
   * Finishes a claimed cleaned copy of an original as needing none (nothing to remove, or a format
   * that cannot be rewritten): a row without a file, so the original is served as it is without
   * reading it again.
   */
  async finishAsOriginal(sha256: string, key: string): Promise<void> {
    await this.db.kysely
      .updateTable('conversion')
      .set({ status: 'done', path: null, mime: null, bytes: 0, crc32: null, width: null, height: null })
      .where('sha256', '=', sha256)
      .where('cset_key', '=', key)
      .execute();
  }

  /** Notes that a finished conversion was served now. */
  async touchConversion(sha256: string, key: string, now: number): Promise<void> {
    await this.db.kysely
      .updateTable('conversion')
      .set({ last_used: now })
      .where('sha256', '=', sha256)
      .where('cset_key', '=', key)
      .execute();
  }

  /** Finished conversions: how many and their bytes. */
  async conversionUsage(): Promise<{ files: number; bytes: number }> {
    const row = await this.db.kysely
      .selectFrom('conversion')
      .select((eb) => [eb.fn.countAll<number>().as('files'), eb.fn.sum<number>('bytes').as('bytes')])
      .where('status', '=', 'done')
      .executeTakeFirstOrThrow();
    return { files: Number(row.files), bytes: Number(row.bytes ?? 0) };
  }

  /** The finished conversions served longest ago, first. */
  async leastRecentlyUsed(
    limit: number,
  ): Promise<Pick<ConversionRow, 'sha256' | 'cset_key' | 'path' | 'bytes' | 'last_used'>[]> {
    return this.db.kysely
      .selectFrom('conversion')
      .select(['sha256', 'cset_key', 'path', 'bytes', 'last_used'])
      .where('status', '=', 'done')
      .orderBy('last_used')
      .orderBy('sha256')
      .orderBy('cset_key')
      .limit(limit)
      .execute();
  }

  /**
   * Removes a finished conversion's row unless it was served or taken up again since it was read
   * (`lastUsed`); answers whether it did, so its file may go.
   */
  async evictConversion(sha256: string, key: string, lastUsed: number): Promise<boolean> {
    const result = await this.db.kysely
      .deleteFrom('conversion')
      .where('sha256', '=', sha256)
      .where('cset_key', '=', key)
      .where('status', '=', 'done')
      .where('last_used', '=', lastUsed)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async dropConversion(sha256: string, key: string): Promise<void> {
    await this.db.kysely.deleteFrom('conversion').where('sha256', '=', sha256).where('cset_key', '=', key).execute();
  }

  async checksums(shas: readonly string[]): Promise<Map<string, { bytes: number; crc32: number }>> {
    if (!shas.length) return new Map();
    const rows = await this.db.kysely
      .selectFrom('file_checksum')
      .selectAll()
      .where('sha256', 'in', [...new Set(shas)])
      .execute();
    return new Map(rows.map((r) => [r.sha256, { bytes: r.bytes, crc32: r.crc32 }]));
  }

  async addChecksum(sha256: string, sum: { bytes: number; crc32: number }): Promise<void> {
    await this.db.kysely
      .insertInto('file_checksum')
      .values({ sha256, ...sum })
      .onConflict((oc) => oc.column('sha256').doNothing())
      .execute();
  }

  /**
   * Logs delivered files and zips (`DeliveryLog` gathers them): who (`userId` null for a guest; the
   * user's name is kept with the row), through which share link, which set and assets, in one
   * statement for the lot. A download through a share link is counted on the link with it. The
   * assets' download counts follow when the rows are folded (`foldDownloads`). A delivery with a
   * `once` key is logged only if no delivery of that key was (its URL and caller): the keys are
   * inserted first, in the same transaction, and only those new to the table are logged, so
   * processes delivering one URL at once log it once. `expiredBefore`: keys of URLs expired before
   * then are removed with the batch. Answers the deliveries it logged.
   */
  async recordDeliveries(
    deliveries: readonly { delivery: Delivery; at: number }[],
    expiredBefore?: number,
  ): Promise<{ delivery: Delivery; at: number }[]> {
    const all = deliveries.filter((d) => d.delivery.assetIds.length > 0);
    if (!all.length && expiredBefore === undefined) return [];
    let logged: { delivery: Delivery; at: number }[] = [];
    const keys = new Map<string, number>();
    for (const { delivery } of all) if (delivery.once) keys.set(delivery.once.key, delivery.once.expiresAt);
    const write = async (db: Kysely<Database>) => {
      if (expiredBefore !== undefined) {
        await db.deleteFrom('download_once').where('expires_at', '<', expiredBefore).execute();
      }
      let rows = all;
      if (keys.size) {
        const fresh = new Set(
          (
            await db
              .insertInto('download_once')
              .values([...keys].map(([key, expires_at]) => ({ key, expires_at })))
              .onConflict((oc) => oc.column('key').doNothing())
              .returning('key')
              .execute()
          ).map((r) => r.key),
        );
        // A key new to the table logs its first delivery of the batch; later ones of the same key none.
        rows = all.filter((d) => !d.delivery.once || fresh.delete(d.delivery.once.key));
      }
      logged = rows;
      if (!rows.length) return;
      const userIds = [...new Set(rows.flatMap((d) => (d.delivery.userId === null ? [] : [d.delivery.userId])))];
      const perShare = new Map<number, number>();
      for (const { delivery } of rows) {
        if (delivery.shareId !== null) perShare.set(delivery.shareId, (perShare.get(delivery.shareId) ?? 0) + 1);
      }
      const names = new Map(
        userIds.length
          ? (await db.selectFrom('user_account').select(['id', 'name']).where('id', 'in', userIds).execute()).map(
              (u) => [u.id, u.name] as const,
            )
          : [],
      );
      await db
        .insertInto('download')
        .values(
          rows.map(({ delivery, at }) => ({
            user_id: delivery.userId,
            user_name: delivery.userId === null ? null : (names.get(delivery.userId) ?? null),
            share_id: delivery.shareId,
            cset_id: delivery.csetId,
            kind: delivery.kind,
            asset_ids: delivery.assetIds.join(','),
            asset_count: delivery.assetIds.length,
            created_at: at,
            counted_at: null,
          })),
        )
        .execute();
      for (const [shareId, count] of perShare) {
        await db
          .updateTable('share_link')
          .set((eb) => ({ downloads: eb('downloads', '+', count) }))
          .where('id', '=', shareId)
          .execute();
      }
    };
    // Guests' downloads outside share links and without keys (the bulk on a public portal) are one statement.
    const single =
      !keys.size &&
      expiredBefore === undefined &&
      all.every((d) => d.delivery.userId === null && d.delivery.shareId === null);
    if (single) await write(this.db.kysely);
    else await this.db.kysely.transaction().execute(write);
    return logged;
  }

  /**
   * Folds up to `limit` downloads not yet counted into the assets' download counts, in one
   * transaction with one catalogue change (`CatalogueRepository.addDownloadCounts`). The rows are
   * claimed first by marking them counted: a fold running at the same time in another process waits
   * for those rows and then finds them counted, so every download is counted once. Answers how many
   * downloads it folded (0: none were left).
   */
  async foldDownloads(limit: number, now: number): Promise<number> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('download')
        .set({ counted_at: now })
        .where('id', 'in', (eb) =>
          eb.selectFrom('download').select('id').where('counted_at', 'is', null).orderBy('id').limit(limit),
        )
        .where('counted_at', 'is', null)
        .returning('asset_ids')
        .execute();
      const counts = new Map<number, number>();
      for (const row of claimed) {
        for (const id of row.asset_ids.split(',')) counts.set(Number(id), (counts.get(Number(id)) ?? 0) + 1);
      }
      await this.catalogue.addDownloadCounts(counts, trx);
      return claimed.length;
    });
  }

  async userEmail(userId: number): Promise<{ email: string | null; display_name: string | null } | undefined> {
    return this.db.kysely
      .selectFrom('user_account')
      .select(['email', 'display_name'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  /** Filenames of assets for the order mail, in the order asked. */
  async filenames(ids: readonly number[]): Promise<Map<number, string>> {
    return new Map((await this.sources(ids)).map((s) => [s.id, s.filename]));
  }
}
