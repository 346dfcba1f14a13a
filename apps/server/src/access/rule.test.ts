import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { buildAssets } from '../../test/factories.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { createSearchEngine } from '../search/create-engine.ts';
import { anonymous, type Auth } from '../auth/caller.ts';
import { AccessRepository } from './access.repository.ts';
import { AccessService } from './access.service.ts';
import { permits } from './rule.ts';

/** 40 groups, so the search index needs two 32-bit mask words. */
const groups = Array.from({ length: 40 }, (_, i) => `g${i}`);

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe.each(dialects)('the access rule on %s: its SQL, bit-mask and in-memory forms agree', (dialect) => {
  const rnd = random(11);
  const pick = (n: number) => groups.filter(() => rnd() < n / groups.length);
  const assets = Array.from({ length: 300 }, (_, i) => ({
    filename: `a${i}.jpg`,
    status: rnd() < 0.15 ? ('gone' as const) : ('active' as const),
    access: i % 50 === 0 ? [] : pick(2),
  }));
  const callers: Auth[] = [
    ...Array.from({ length: 12 }, (_, i) => ({ ...anonymous, name: `u${i}`, groups: pick(3), isAssetUser: true })),
    { ...anonymous, groups: ['g39'] },
    { ...anonymous, groups: [] },
    { ...anonymous, groups: ['nobody-has-this'] },
  ];
  let test: TestDatabase;
  let db: Db;
  let ids: number[];

  beforeAll(async () => {
    test = await createTestDatabase(dialect);
    db = await openDatabase(test.config);
    ids = await buildAssets(db, assets);
  });
  afterAll(async () => {
    await db.close();
    await test.drop();
  });

  it('for every caller, the same assets are visible', async () => {
    const access = new AccessService(new AccessRepository(db), 'x'.repeat(32));
    const engine = createSearchEngine(db, []);
    // Visitors of share links: the link's assets only, seen with its creator's groups.
    const shared = ids.filter((_, i) => i % 3 === 0);
    const visitors: Auth[] = callers.slice(0, 3).map((c, i) => ({
      ...c,
      share: { id: i + 1, assetIds: i === 2 ? [] : shared.slice(i * 20), downloadSets: [] },
    }));
    for (const auth of [...callers, ...visitors]) {
      const scope = auth.share ? new Set(auth.share.assetIds) : undefined;
      const expected = assets.flatMap((a, i) =>
        permits(auth.groups, { status: a.status, accessGroups: a.access }) && (!scope || scope.has(ids[i] ?? 0))
          ? [ids[i]]
          : [],
      );
      const sql = await access.checkAccess(auth, 'asset.read', ids);
      const search = await engine.search(access.searchGroups(auth), {
        q: '*',
        rows: 1000,
        ids: access.searchIds(auth),
      });
      expect(
        [...sql].sort((a, b) => a - b),
        auth.groups.join(),
      ).toEqual(expected);
      expect(
        search.ids.sort((a, b) => a - b),
        auth.groups.join(),
      ).toEqual(expected);
      expect(search.numFound).toBe(expected.length);
    }
  });
});
