import { sql, type Kysely } from 'kysely';
import { changeCatalogue } from '../db/catalogue-state.ts';
import type { Database } from '../db/schema.ts';
import { nearCopyGroups, type NearCopyItem } from './near-copies.ts';
import { SIGNATURE_VERSION, type DominantColour, type Signature } from './signature.ts';
import { nextTurn } from '../db/turn.ts';
import { partsFromText, partsToText } from '../db/signature-parts.ts';

/** `[[L,a,b,share],…]`: a fifth of the bytes of the objects, for a column read by the million. */
export const coloursToJson = (colours: readonly DominantColour[]) =>
  JSON.stringify(colours.map((c) => [c.l, c.a, c.b, c.share]));

export const coloursFromJson = (json: string): DominantColour[] =>
  (JSON.parse(json) as [number, number, number, number][]).map(([l, a, b, share]) => ({ l, a, b, share }));

/**
 * Records a change of the asset's signature as a change of the asset (count-only: no text changed),
 * so every process's search index reads it. First in the transaction, as every catalogue change.
 */
export async function signatureChanged(trx: Kysely<Database>, assetId: number): Promise<void> {
  await changeCatalogue(trx, [assetId], true);
}

/**
 * Writes (or, with null, removes) an asset's signature inside the caller's transaction, so that it
 * appears with the pictures it was made with.
 */
export async function writeSignature(
  trx: Kysely<Database>,
  assetId: number,
  sha256: string,
  signature: Signature | null,
): Promise<void> {
  if (!signature) {
    await trx.deleteFrom('asset_signature').where('asset_id', '=', assetId).execute();
    return;
  }
  const row = {
    sha256,
    phash: signature.phash,
    colours: coloursToJson(signature.colours),
    aspect: signature.aspect,
    parts: partsToText(signature.parts),
    version: signature.version,
    created_at: Date.now(),
  };
  await trx
    .insertInto('asset_signature')
    .values({ asset_id: assetId, ...row })
    .onConflict((oc) => oc.column('asset_id').doUpdateSet(row))
    .execute();
}

/** An asset whose signature is missing or out of date, with the stored picture to make it from. */
export interface UnsignedAsset {
  id: number;
  sha256: string;
  /** Its smallest stored picture (the small thumbnail, else the thumbnail). */
  path: string;
  /** Its preview's size, so the aspect is the one the import would have stored. */
  width: number | null;
  height: number | null;
}

export interface StoredSignature extends Signature {
  assetId: number;
  sha256: string;
}

/** The kinds of asset whose pictures show the asset itself (a 3D view may be a type icon: see backfill). */
const PICTURED = ['image', 'video', 'document'];

/** Assets and signatures the duplicates report reads per statement. */
const SIGNATURE_PAGE = 20_000;

export class SignatureRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** Assets and signatures the duplicates report reads per statement (smaller in tests, to see the pages join up). */
    private readonly signaturePage = SIGNATURE_PAGE,
  ) {}

  async find(assetId: number): Promise<StoredSignature | undefined> {
    const r = await this.db
      .selectFrom('asset_signature')
      .selectAll()
      .where('asset_id', '=', assetId)
      .executeTakeFirst();
    return r && toStored(r);
  }

  /**
   * Active assets with pictures of their current content but no signature of it at SIGNATURE_VERSION,
   * by id after `after`; `limit` at a time.
   */
  async unsigned(after: number, limit: number): Promise<UnsignedAsset[]> {
    const rows = await this.db
      .selectFrom('asset as a')
      .innerJoin('derivative as t', (j) =>
        j
          .onRef('t.asset_id', '=', 'a.id')
          .onRef('t.sha256', '=', 'a.sha256')
          .on('t.page', '=', 0)
          .on('t.kind', 'in', ['thumb', 'thumb_small']),
      )
      .leftJoin('derivative as p', (j) =>
        j
          .onRef('p.asset_id', '=', 'a.id')
          .onRef('p.sha256', '=', 'a.sha256')
          .on('p.kind', '=', 'preview')
          .on('p.page', '=', 0),
      )
      .leftJoin('asset_signature as s', 's.asset_id', 'a.id')
      .select(['a.id', 'a.sha256', 't.kind', 't.path', 'p.width', 'p.height'])
      .where('a.status', '=', 'active')
      .where('a.asset_group', 'in', PICTURED)
      .where('a.id', '>', after)
      .where((eb) =>
        eb.or([
          eb('s.asset_id', 'is', null),
          eb('s.version', '<', SIGNATURE_VERSION),
          eb('s.sha256', '<>', sql.ref<string>('a.sha256')),
        ]),
      )
      .orderBy('a.id')
      .orderBy('t.kind', 'desc')
      .limit(limit * 2)
      .execute();
    const out = new Map<number, UnsignedAsset>();
    // thumb_small sorts after thumb, so desc order puts the small one first where both are there.
    for (const r of rows)
      if (!out.has(r.id)) out.set(r.id, { id: r.id, sha256: r.sha256, path: r.path, width: r.width, height: r.height });
    return [...out.values()].slice(0, limit);
  }

  /** How many assets `unsigned` would list in all. */
  async countUnsigned(): Promise<number> {
    const r = await this.db
      .selectFrom('asset as a')
      .leftJoin('asset_signature as s', 's.asset_id', 'a.id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('a.status', '=', 'active')
      .where('a.asset_group', 'in', PICTURED)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('derivative as t')
            .select('t.asset_id')
            .whereRef('t.asset_id', '=', 'a.id')
            .whereRef('t.sha256', '=', 'a.sha256')
            .where('t.kind', '=', 'thumb')
            .where('t.page', '=', 0),
        ),
      )
      .where((eb) =>
        eb.or([
          eb('s.asset_id', 'is', null),
          eb('s.version', '<', SIGNATURE_VERSION),
          eb('s.sha256', '<>', sql.ref<string>('a.sha256')),
        ]),
      )
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * The duplicates among active assets: `exact`, groups of the same content (checksum); `near`,
   * groups of near copies by their signatures (hash distance within NEAR_COPY_DISTANCE, the same
   * aspect) that hold more than one content. Ids in order, groups by their first id. Who may see which
   * asset is the caller's to check.
   */
  async duplicates(): Promise<{ exact: number[][]; near: number[][] }> {
    // The assets in order of content, a page at a time (a statement over every asset holds SQLite's
    // caller for half a second at a million): runs of one checksum are the exact groups.
    const bySha = new Map<string, number[]>();
    let run: { sha256: string; ids: number[] } = { sha256: '', ids: [] };
    const endRun = () => {
      if (run.ids.length > 1)
        bySha.set(
          run.sha256,
          run.ids.sort((x, y) => x - y),
        );
    };
    for (let after = { sha256: '', id: 0 }; ;) {
      const { sha256, id } = after;
      const page = await this.db
        .selectFrom('asset')
        .select(['id', 'sha256'])
        .where('status', '=', 'active')
        // After the last one read; the first bound alone lets the database start within its index.
        .where('sha256', '>=', sha256)
        .where((eb) => eb.or([eb('sha256', '>', sha256), eb('id', '>', id)]))
        .orderBy('sha256')
        .orderBy('id')
        .limit(this.signaturePage)
        .execute();
      for (const r of page) {
        if (r.sha256 !== run.sha256) {
          endRun();
          run = { sha256: r.sha256, ids: [] };
        }
        run.ids.push(Number(r.id));
      }
      if (page.length < this.signaturePage) break;
      const last = page[page.length - 1]!;
      after = { sha256: last.sha256, id: Number(last.id) };
      await nextTurn();
    }
    endRun();
    const exact = [...bySha.values()].sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0));

    // Read a page at a time: one statement over a million signatures holds SQLite's caller for seconds.
    const signed: NearCopyItem[] = [];
    for (let after = 0; ;) {
      const page = await this.db
        .selectFrom('asset_signature as s')
        .innerJoin('asset as a', 'a.id', 's.asset_id')
        .select(['a.id', 's.phash', 's.aspect'])
        .where('a.status', '=', 'active')
        .where('a.id', '>', after)
        .whereRef('s.sha256', '=', 'a.sha256')
        .orderBy('a.id')
        .limit(this.signaturePage)
        .execute();
      for (const r of page) signed.push({ id: Number(r.id), phash: r.phash, aspect: Number(r.aspect) });
      if (page.length < this.signaturePage) break;
      after = Number(page[page.length - 1]!.id);
      await nextTurn();
    }
    // A group of near copies that are all one content is an exact group, not a near one.
    const exactOf = new Map(exact.flatMap((g, i) => g.map((id) => [id, i] as const)));
    const near = (await nearCopyGroups(signed)).filter((g) => {
      const first = exactOf.get(g[0]!);
      return first === undefined || g.some((id) => exactOf.get(id) !== first);
    });
    return { exact, near };
  }

  /** Stores a signature made after the asset's pictures (the backfill), unless its content changed meanwhile. */
  async save(assetId: number, sha256: string, signature: Signature): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await signatureChanged(trx, assetId);
      const current = await trx.selectFrom('asset').select('sha256').where('id', '=', assetId).executeTakeFirst();
      if (current?.sha256 === sha256) await writeSignature(trx, assetId, sha256, signature);
    });
  }
}

function toStored(r: {
  asset_id: number;
  sha256: string;
  phash: string;
  colours: string;
  aspect: number;
  parts: string | null;
  version: number;
}): StoredSignature {
  return {
    assetId: Number(r.asset_id),
    sha256: r.sha256,
    phash: r.phash,
    colours: coloursFromJson(r.colours),
    aspect: Number(r.aspect),
    parts: partsFromText(r.parts),
    version: r.version,
  };
}
