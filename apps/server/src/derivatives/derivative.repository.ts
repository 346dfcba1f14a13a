import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Signature } from '../alike/signature.ts';
import { signatureChanged, writeSignature } from '../alike/signature.repository.ts';
import { PLACEHOLDER_KIND, type AssetTable, type Database, type DerivativeTable } from '../db/schema.ts';

export type DerivativeRow = Selectable<DerivativeTable>;
export type DerivativeSource = Pick<
  Selectable<AssetTable>,
  'id' | 'source_path' | 'import_root' | 'sha256' | 'format' | 'asset_group' | 'status' | 'duration' | 'page_count'
>;

export class DerivativeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async source(assetId: number): Promise<DerivativeSource | undefined> {
    return this.db
      .selectFrom('asset')
      .select([
        'id',
        'source_path',
        'import_root',
        'sha256',
        'format',
        'asset_group',
        'status',
        'duration',
        'page_count',
      ])
      .where('id', '=', assetId)
      .executeTakeFirst();
  }

  async list(assetId: number): Promise<DerivativeRow[]> {
    return this.db.selectFrom('derivative').selectAll().where('asset_id', '=', assetId).execute();
  }

  async find(assetId: number, kind: string, page = 0): Promise<DerivativeRow | undefined> {
    return this.db
      .selectFrom('derivative')
      .selectAll()
      .where('asset_id', '=', assetId)
      .where('kind', '=', kind)
      .where('page', '=', page)
      .executeTakeFirst();
  }

  /** Adds one derivative unless another process added it first. */
  async add(row: Insertable<DerivativeTable>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const added = await trx
        .insertInto('derivative')
        .values(row)
        .onConflict((oc) => oc.columns(['asset_id', 'kind', 'page']).doNothing())
        .executeTakeFirst();
      if (Number(added.numInsertedOrUpdatedRows ?? 0) > 0) await raisePlaceholderMark(trx, [row]);
    });
  }

  /**
   * Claims the making of one derivative for `holder` until `now + leaseMs`: true when no one holds
   * it, or its holder let the claim run out (one statement, so two processes cannot both win).
   */
  async claim(
    key: { assetId: number; kind: string; page: number },
    holder: string,
    now: number,
    leaseMs: number,
  ): Promise<boolean> {
    const result = await this.db
      .insertInto('derivative_claim')
      .values({ asset_id: key.assetId, kind: key.kind, page: key.page, holder, expires_at: now + leaseMs })
      .onConflict((oc) =>
        oc
          .columns(['asset_id', 'kind', 'page'])
          .doUpdateSet({ holder, expires_at: now + leaseMs })
          .where('derivative_claim.expires_at', '<', now),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async unclaim(key: { assetId: number; kind: string; page: number }, holder: string): Promise<void> {
    await this.db
      .deleteFrom('derivative_claim')
      .where('asset_id', '=', key.assetId)
      .where('kind', '=', key.kind)
      .where('page', '=', key.page)
      .where('holder', '=', holder)
      .execute();
  }

  /** Removes the claims whose holder let them run out (a process that died while making the file). */
  async purgeExpiredClaims(now: number): Promise<number> {
    const result = await this.db.deleteFrom('derivative_claim').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Replaces an asset's derivatives of the given kinds in one transaction; with `signature` (the
   * pictures' own), also its visual signature: null when the asset has no picture of its own (a
   * sound's waveform, a type icon), which removes one an earlier content left.
   */
  async replace(
    assetId: number,
    kinds: string[],
    rows: Insertable<DerivativeTable>[],
    signature?: { sha256: string; signature: Signature | null },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // First, as every catalogue change: search indexes then follow the signature (similar:, colour:).
      if (signature) await signatureChanged(trx, assetId);
      await trx.deleteFrom('derivative').where('asset_id', '=', assetId).where('kind', 'in', kinds).execute();
      if (rows.length) await trx.insertInto('derivative').values(rows).execute();
      await raisePlaceholderMark(trx, rows);
      if (signature) await writeSignature(trx, assetId, signature.sha256, signature.signature);
    });
  }
}

/**
 * Raises the count of thumbnail placeholders written when `rows` bring one, in their transaction:
 * server processes ask again for the placeholders of assets they found without one only once it
 * moved (search/asset-rows.ts).
 */
async function raisePlaceholderMark(
  trx: Kysely<Database>,
  rows: readonly Insertable<DerivativeTable>[],
): Promise<void> {
  if (!rows.some((r) => r.kind === PLACEHOLDER_KIND && (r.page ?? 0) === 0 && r.placeholder != null)) return;
  await trx
    .updateTable('placeholder_state')
    .set((eb) => ({ mark: eb('mark', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}
