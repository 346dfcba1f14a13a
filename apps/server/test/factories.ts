import {
  insertAssets,
  insertCollection,
  updateAsset,
  type NewAsset,
} from '../src/bench-data/catalogue-writer.repository.ts';
import type { Db } from '../src/db/database.ts';

/**
 * Real catalogue rows for tests, written as an import writes them (generation bumped), so search
 * indexes catch up exactly as they do in production. Answers the new asset's id.
 */
export async function buildAsset(db: Db, overrides: NewAsset = {}): Promise<number> {
  const [id] = await insertAssets(db, [overrides]);
  return id;
}

export async function buildAssets(db: Db, assets: NewAsset[]): Promise<number[]> {
  return insertAssets(db, assets);
}

export async function buildCollection(db: Db, name: string): Promise<number> {
  return insertCollection(db, name);
}

export async function editAsset(db: Db, id: number, change: NewAsset, now?: number): Promise<void> {
  await updateAsset(db, id, change, now);
}

export type { NewAsset };
