import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSIGHT_PERIODS, type InsightsAnswer } from '@vitrine/contract/insights';
import { sql, type RawBuilder } from 'kysely';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAssets, buildCollection } from '../../test/factories.ts';
import { dayOf, rowsOf, type Audience, type InsightEvent, type InsightRow } from './insights.recorder.ts';
import { INSIGHT_SETTLE_MS } from './insights.service.ts';

const API = '/assetportal/api/';
const DAY_MS = 86_400_000;
/** Days of history before today. */
const HISTORY = 40;

/** A seeded random source (mulberry32), so every run writes the same history. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The Statistics answer of a preset period (days=7|30|90|365) comes from the period counts the job
 * keeps a day at a time (decision 0257 "Amended"): it must be the answer the general path (the same
 * period named by from and to) makes from the daily counts, and the counts must be those of a day
 * counted once.
 */
describe.each(dialects)('period counts on %s', (dialect) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let assets: number[];
  let collections: number[];
  /** The views written per day before today. */
  const views = new Map<string, number>();
  const now = Date.now();
  const today = dayOf(now);
  const startOf = (daysAgo: number) => Date.parse(`${dayOf(now - daysAgo * DAY_MS)}T00:00:00Z`);

  /**
   * A day of use: many keys with ties, a few often; `extra` names keys only this day has (keys that
   * leave the period, keys seen only today).
   */
  const dayOfUse = (start: number, r: () => number, events: number, extra: string, extraShare = 0.1): InsightRow[] => {
    const rows: InsightRow[] = [];
    const audience = (): Audience => (r() < 0.6 ? 'guest' : 'account');
    for (let i = 0; i < events; i++) {
      const at = start + Math.floor(r() * (DAY_MS / 2));
      const pick = (n: number) => Math.floor(r() * r() * n);
      const x = r();
      let event: InsightEvent;
      if (x < 0.5) {
        const empty = r() < 0.2;
        event = {
          kind: 'search',
          audience: audience(),
          text: r() < extraShare ? `${extra} ${pick(4)}` : `text ${pick(60)}`,
          facets: r() < 0.3 ? [`facet${pick(12)}`] : [],
          results: empty ? 0 : 3,
          collection: r() < 0.1 ? collections[pick(collections.length)] : undefined,
        };
      } else if (x < 0.75) {
        event = { kind: 'view', audience: audience(), assetId: r() < 0.1 ? 9000 + pick(5) : 1000 + pick(80) };
      } else if (x < 0.93) {
        event = {
          kind: 'download',
          audience: audience(),
          csetId: pick(3),
          assetIds: [assets[pick(assets.length)] ?? 0, ...(r() < 0.2 ? [2000 + pick(50)] : [])],
          zip: r() < 0.2,
        };
      } else if (x < 0.96) event = { kind: 'share_open', shareId: pick(10) };
      else event = { kind: 'login', method: r() < 0.8 ? 'native' : 'sso', ok: r() < 0.9 };
      rows.push(...rowsOf(event, at));
    }
    return rows;
  };
  const call = (url: string) => t.app.inject({ method: 'GET', url: API + url, headers: admin });
  const report = async (query: string) => {
    const res = await call(`admin/insights?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<InsightsAnswer>();
  };
  type Counted = Record<string, unknown> & { count: number };
  const rowsOfTable = async (query: RawBuilder<Record<string, unknown>>): Promise<Counted[]> =>
    (await query.execute(t.app.db.kysely)).rows.map((row) => ({ ...row, count: Number(row.count) }));
  const daily = () =>
    rowsOfTable(sql`select day, kind, audience, key, count from insight_daily order by day, kind, audience, key`);

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: {
        groups: [
          { name: 'public', downloadSets: [0] },
          { name: 'admins', guiAdmin: true, downloadSets: [0] },
        ],
      },
    });
    admin = (await signIn(t, { name: 'chef', groups: ['admins'] })).headers;
    assets = await buildAssets(
      t.app.db,
      Array.from({ length: 30 }, (_, i) => ({ filename: `a${i}.jpg` })),
    );
    collections = [await buildCollection(t.app.db, 'Harbour'), await buildCollection(t.app.db, 'Fields')];
    await t.app.db.kysely
      .insertInto('asset_collection')
      .values(assets.map((id, i) => ({ asset_id: id, collection_id: collections[i % 2] ?? 0 })))
      .execute();
    const r = random(61);
    const insights = t.app.services.insights;
    const write = async (rows: InsightRow[]) => {
      for (let i = 0; i < rows.length; i += 500)
        await t.app.services.repositories.insights.insertEvents(rows.slice(i, i + 500));
    };
    // A day at a time, then twelve days in one run (longer than the 7 days' period: built again),
    // then a day at a time; the last day counted by two runs at once.
    for (let ago = HISTORY; ago >= 1; ago--) {
      const rows = dayOfUse(startOf(ago), r, 150, ago >= 32 ? `gone${ago % 3}` : `day${ago % 5}`);
      views.set(dayOf(startOf(ago)), rows.filter((row) => row.kind === 'view').length);
      await write(rows);
      const countedAt = startOf(ago - 1) + INSIGHT_SETTLE_MS;
      if (ago === 1) await Promise.all([insights.aggregate(countedAt), insights.aggregate(countedAt)]);
      else if (ago > 20 || ago <= 8) await insights.aggregate(countedAt);
    }
    // Today: keys never seen before, often enough to top the week.
    await write(dayOfUse(startOf(0), r, 300, 'fresh', 0.9));
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('counts every day before today once, its spans following it', async () => {
    expect(await t.app.services.repositories.insights.state()).toEqual({
      countedThrough: dayOf(now - DAY_MS),
      spansThrough: dayOf(now - DAY_MS),
    });
    const counted = await rowsOfTable(sql`
      select day, sum(count) as count from insight_daily where kind = 'view' and key = '' group by day order by day`);
    expect(new Map(counted.map((c) => [c.day as string, c.count]))).toEqual(views);
  });

  it('answers each preset period as the same period named by from and to, for each audience', async () => {
    for (const days of INSIGHT_PERIODS) {
      const from = dayOf(now - (days - 1) * DAY_MS);
      for (const audience of ['all', 'guests', 'accounts']) {
        for (const limit of [3, 20]) {
          const preset = await report(`days=${days}&audience=${audience}&limit=${limit}`);
          const general = await report(`from=${from}&to=${today}&audience=${audience}&limit=${limit}`);
          expect(preset, `days=${days} ${audience} ${limit}`).toEqual(general);
        }
      }
    }
    const week = await report('days=7&limit=3');
    // Keys seen only today rank with the rest; keys whose days left the period are gone from it.
    expect(week.topSearches.map((s) => s.text)).toContain('fresh 0');
    expect(week.topSearches.some((s) => s.text.startsWith('gone'))).toBe(false);
    const year = await report('days=365&limit=100');
    expect(year.topSearches.some((s) => s.text.startsWith('gone'))).toBe(true);
    expect(week.collections.length).toBeGreaterThan(0);
  });

  it('keeps each period as its days sum up, and each month as the sum of its days', async () => {
    const yesterday = dayOf(now - DAY_MS);
    for (const span of INSIGHT_PERIODS) {
      const first = dayOf(Date.parse(yesterday) - (span - 2) * DAY_MS);
      const kept = await rowsOfTable(sql`
        select kind, audience, key, count from insight_span where span = ${span} order by kind, audience, key`);
      const summed = await rowsOfTable(sql`
        select kind, audience, key, count from (
          select kind, audience, key, sum(count) as count from insight_daily
            where day >= ${first} and day <= ${yesterday} and key <> '' and kind not in ('login', 'zip', 'share_open')
            group by kind, audience, key
          union all
          select kind, 'all' as audience, key, sum(count) as count from insight_daily
            where day >= ${first} and day <= ${yesterday} and key <> '' and kind not in ('login', 'zip', 'share_open')
            group by kind, key
        ) as s order by kind, audience, key`);
      expect(kept.length).toBeGreaterThan(0);
      expect(kept, `span ${span}`).toEqual(summed);
    }
    const months = await rowsOfTable(
      sql`select month, kind, audience, key, count from insight_monthly order by month, kind, audience, key`,
    );
    const summed = await rowsOfTable(sql`
      select substr(day, 1, 7) as month, kind, audience, key, sum(count) as count from insight_daily
        group by substr(day, 1, 7), kind, audience, key order by month, kind, audience, key`);
    expect(months).toEqual(summed);
  });

  it('never counts a day again: events that arrive for it later change no count and no answer', async () => {
    const before = await daily();
    const answer = await report('days=30');
    const late = rowsOf({ kind: 'view', audience: 'guest', assetId: 1000 }, now - DAY_MS);
    await t.app.services.repositories.insights.insertEvents(late);
    await t.app.services.insights.aggregate(now);
    expect(await daily()).toEqual(before);
    expect(await report('days=30')).toEqual(answer);
  });
});
