import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { buildAssets } from '../../test/factories.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { createSearchEngine } from '../search/create-engine.ts';
import { anonymous, type Auth } from '../auth/caller.ts';
import { AccessRepository } from './access.repository.ts';
import { AccessService } from './access.service.ts';
import { assetGroups } from '@vitrine/contract/fields';
import { downloadIn, grant, permits, type DownloadRights } from './rule.ts';

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
    asset_group: assetGroups[i % assetGroups.length],
  }));
  /** Groups that may download the original or name sets themselves; sets for some kinds and some groups. */
  const rights: DownloadRights = {
    groups: groups.map((name, i) => ({ name, downloadSets: i % 3 === 0 ? [0, 3] : i % 3 === 1 ? [2] : [] })),
    conversionSets: [
      { id: 1, assetGroups: ['image', 'document'], userGroups: pick(8) },
      { id: 2, assetGroups: ['video'], userGroups: [] },
      { id: 3, assetGroups: [], userGroups: [] },
      { id: 4, assetGroups: ['audio', 'video', '3d'], userGroups: pick(10) },
    ],
  };
  /** Every set of `rights`, the original and one no settings name. */
  const setIds = [0, 1, 2, 3, 4, 9];
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
    const access = new AccessService(
      new AccessRepository(db, { sharerGroups: [], maxLifetimeMs: 86_400_000 }),
      'x'.repeat(32),
    );
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

  it('for every caller and conversion set, the same assets are downloadable (asset.download)', async () => {
    const access = new AccessService(
      new AccessRepository(db, { sharerGroups: [], maxLifetimeMs: 86_400_000 }),
      'x'.repeat(32),
      rights,
    );
    let downloadable = 0;
    for (const auth of callers) {
      for (const setId of setIds) {
        const granted = grant(auth, downloadIn(setId), rights);
        const expected = assets.flatMap((a, i) =>
          permits(
            granted.groups,
            { status: a.status, accessGroups: a.access, assetGroup: a.asset_group },
            granted.kinds,
          )
            ? [ids[i]]
            : [],
        );
        downloadable += expected.length;
        const sql = await access.checkAccess(auth, downloadIn(setId), ids);
        expect(
          [...sql].sort((a, b) => a - b),
          `${auth.groups.join()} in set ${setId}`,
        ).toEqual(expected);
        expect(await access.downloadableIds(auth, setId, [...ids].reverse())).toEqual([...expected].reverse());
      }
      for (const [i, a] of assets.entries()) {
        if (!permits(auth.groups, { status: a.status, accessGroups: a.access })) continue;
        const sets = setIds.filter((setId) => {
          const granted = grant(auth, downloadIn(setId), rights);
          return permits(granted.groups, { ...a, accessGroups: a.access, assetGroup: a.asset_group }, granted.kinds);
        });
        expect(await access.setIdsFor(auth, ids[i]!), `${auth.groups.join()} asset ${i}`).toEqual(sets);
      }
    }
    // The random settings leave enough to compare: not every check answers nothing.
    expect(downloadable).toBeGreaterThan(100);
  });

  it('a set is used through a group that lists it or that the set names, and only on the kinds it applies to', () => {
    const caller = (...g: string[]): Auth => ({ ...anonymous, name: 'u', groups: g, isAssetUser: true });
    // g0 lists 0 and 3; g1 lists 2; g2 lists nothing.
    expect(grant(caller('g0'), downloadIn(0), rights)).toEqual({ groups: ['g0'], kinds: null });
    expect(grant(caller('g2'), downloadIn(0), rights)).toEqual({ groups: [], kinds: null });
    expect(grant(caller('g1', 'g2'), downloadIn(2), rights)).toEqual({ groups: ['g1', 'g2'], kinds: ['video'] });
    expect(grant(caller('g0'), downloadIn(3), rights)).toEqual({ groups: ['g0'], kinds: null });
    expect(grant(caller('g2'), downloadIn(3), rights).groups).toEqual([]);
    expect(grant(caller('g0'), downloadIn(9), rights).groups).toEqual([]);
    const asset = { status: 'active', accessGroups: ['g2'], assetGroup: 'image' };
    expect(permits(['g1', 'g2'], asset, ['video'])).toBe(false);
    expect(permits(['g1', 'g2'], { ...asset, assetGroup: 'video' }, ['video'])).toBe(true);
    expect(permits(['g1', 'g2'], { ...asset, status: 'gone', assetGroup: 'video' }, ['video'])).toBe(false);
  });
});
