import { CatalogueRepository } from '../src/catalogue/catalogue.repository.ts';
import { changedAssetWrite, newAssetWrite, type NewAsset } from '../src/catalogue/new-asset.ts';
import type { Db } from '../src/db/database.ts';

/**
 * Real catalogue rows for tests, written through the one asset-write path the import uses
 * (`CatalogueRepository.saveAssets`: values, access, collections, derivative jobs, generation bump),
 * so search indexes catch up exactly as they do in production. Answers the new asset's id.
 */
export async function buildAsset(db: Db, overrides: NewAsset = {}): Promise<number> {
  const [id] = await buildAssets(db, [overrides]);
  return id;
}

/** One id per asset, in their order: a list of assets written out gives a tuple of ids. */
export async function buildAssets<A extends readonly NewAsset[]>(
  db: Db,
  assets: readonly [...A],
  now = Date.now(),
): Promise<{ -readonly [I in keyof A]: number }> {
  const saved = await new CatalogueRepository(db.kysely).saveAssets(
    assets.map((a) => newAssetWrite(a, now)),
    { now },
  );
  return saved.map((s) => s.id) as { -readonly [I in keyof A]: number };
}

let collections = 0;

export async function buildCollection(db: Db, name: string): Promise<number> {
  return new CatalogueRepository(db.kysely).ensureCollection(`/${name}-${++collections}`, name, null);
}

/** Changes an asset as a re-import or an edit would: the columns, values and groups `change` names. */
export async function editAsset(db: Db, id: number, change: NewAsset, now?: number): Promise<void> {
  const repository = new CatalogueRepository(db.kysely);
  const write = await repository.assetWrite(id);
  if (!write) throw new Error(`no asset ${id} to edit`);
  await repository.saveAssets([changedAssetWrite(write, change)], { now: now ?? Date.now() });
}

export type { NewAsset };
