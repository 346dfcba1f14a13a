import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InsightDay, InsightsAnswer } from '@vitrine/contract/insights';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { openShareLink, signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAsset, buildCollection } from '../../test/factories.ts';
import { makeImage } from '../../test/media-fixtures.ts';
import { addUser } from '../../test/users.ts';
import { dayOf, rowsOf, type InsightEvent } from './insights.recorder.ts';

const API = '/assetportal/api/';
const DAY_MS = 86_400_000;
/** The addresses the visitors come from; no statistics row may name them. */
const GUEST_ADDRESS = '203.0.113.77';
const USER_ADDRESS = '198.51.100.23';

/**
 * Statistics of use (issue #51, docs/security.md "Statistics"): what visitors do over HTTP is
 * counted per day and audience, the admin reads it in one call, a job keeps daily counts of it, and
 * nothing stored names an address or an account.
 */
describe.each(dialects)('statistics on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  const ids: Record<string, number> = {};
  let hidden: number;
  let collection: number;
  let user: { userId: number; headers: Record<string, string> };
  let admin: Record<string, string>;
  let today: InsightDay;
  let guests: InsightsAnswer;
  let accounts: InsightsAnswer;
  let all: InsightsAnswer;

  const call = (
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string> = {},
    payload?: object,
    remoteAddress = GUEST_ADDRESS,
  ) => t.app.inject({ method, url: url.startsWith('/') ? url : API + url, headers, remoteAddress, payload });
  const report = async (query: string, headers = admin) => {
    const res = await call('GET', `admin/insights?${query}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<InsightsAnswer>();
  };
  /** Downloads a file (one name) or a zip (several) as `headers` asks for it, to the last byte, twice. */
  const download = async (names: string[], headers: Record<string, string>, remoteAddress: string) => {
    const handOut =
      names.length === 1
        ? await call('GET', `download/?id=${ids[names[0] ?? '']}&csetid=0`, headers, undefined, remoteAddress)
        : await call(
            'GET',
            `download?operation=zip&csetid=0&${names.map((n) => `id=${ids[n]}`).join('&')}`,
            headers,
            undefined,
            remoteAddress,
          );
    expect(handOut.statusCode, handOut.body).toBe(200);
    // Fetched twice: a URL fetched again is one download, as in the download log.
    for (let i = 0; i < 2; i++) {
      const file = await call('GET', handOut.json<{ url: string }>().url, {}, undefined, remoteAddress);
      expect(file.statusCode).toBe(200);
    }
  };
  const search = async (query: string, headers: Record<string, string>, remoteAddress: string) => {
    const res = await call('GET', `search?${query}`, headers, undefined, remoteAddress);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ response: { numFound: number } }>().response.numFound;
  };
  /** The counts and their state as before the first run of the job. */
  const forgetCounts = async () => {
    for (const table of ['insight_daily', 'insight_monthly', 'insight_span'] as const) {
      await t.app.db.kysely.deleteFrom(table).execute();
    }
    await t.app.db.kysely.updateTable('insight_state').set({ counted_through: null, spans_through: null }).execute();
  };
  const settled = async () => {
    await t.app.services.downloads.settled();
    await t.app.services.insights.settled();
  };

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: {
        catalogue: { defaultAccessGroups: ['public', 'users'] },
        groups: [
          { name: 'public', downloadSets: [0] },
          { name: 'users', downloadSets: [0] },
          { name: 'admins', guiAdmin: true, downloadSets: [0] },
          { name: 'secret' },
        ],
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-insights-'));
    for (const name of ['north.jpg', 'south.jpg']) {
      await makeImage(path.join(dir, 'media', name), { width: 160, height: 100 });
    }
    await t.app.services.importer().importFolder(path.join(dir, 'media'));
    for (const a of await t.app.db.kysely.selectFrom('asset').select(['id', 'filename']).execute()) {
      ids[a.filename] = Number(a.id);
    }
    collection = await buildCollection(t.app.db, 'Compass points');
    await t.app.db.kysely
      .insertInto('asset_collection')
      .values([ids['north.jpg'], ids['south.jpg']].map((id) => ({ asset_id: Number(id), collection_id: collection })))
      .execute();
    hidden = await buildAsset(t.app.db, {
      filename: 'vault.jpg',
      access: ['secret'],
      values: { title: { en: 'Vault' } },
    });
    await addUser(t, { name: 'anna', password: 'correct horse', groups: ['users'] });
    user = await signIn(t, { name: 'bert', groups: ['users'] });
    admin = (await signIn(t, { name: 'chef', groups: ['users', 'admins'] })).headers;

    // Guests: two searches (one finds nothing), two page views, a zip, a share link opened.
    expect(await search('solr_q=%20%20North%20&solr_facetfields=keywords', {}, GUEST_ADDRESS)).toBeGreaterThan(0);
    expect(await search('solr_q=unicorn%20saddle', {}, GUEST_ADDRESS)).toBe(0);
    expect(await search('solr_q=UNICORN   saddle', {}, GUEST_ADDRESS)).toBe(0);
    for (const name of ['north.jpg', 'south.jpg']) {
      const view = await call('POST', 'insights/view', xsrfHeaders, { id: String(ids[name]) }, GUEST_ADDRESS);
      expect(view.statusCode, view.body).toBe(200);
    }
    await download(['north.jpg', 'south.jpg'], {}, GUEST_ADDRESS);
    await openShareLink(t, user.headers, { assetIds: [String(ids['north.jpg'])], downloadSets: [] });
    // Accounts: a search narrowed by a facet, one in a collection, a page view, a file downloaded.
    const filter = encodeURIComponent(JSON.stringify([{ key: 'meta_collections', values: [String(collection)] }]));
    await search(`solr_q=north&filter=${filter}`, user.headers, USER_ADDRESS);
    await search(`solr_q=*&meta_collections=${collection}`, user.headers, USER_ADDRESS);
    // Next pages and shared ids are not searches of their own.
    await search('solr_q=north&solr_start=25', user.headers, USER_ADDRESS);
    await search(`solr_q=*&id=${ids['north.jpg']}`, user.headers, USER_ADDRESS);
    const view = await call('POST', 'insights/view', user.headers, { id: String(ids['north.jpg']) }, USER_ADDRESS);
    expect(view.statusCode).toBe(200);
    await download(['north.jpg'], user.headers, USER_ADDRESS);
    // Logins: one native that works, one that does not.
    const login = (pass: string) =>
      call('POST', 'session/get', {}, { user: 'anna', pass }, USER_ADDRESS).then((r) => r.statusCode);
    expect(await login('correct horse')).toBe(200);
    expect(await login('wrong horse')).toBe(401);
    await settled();
    [all, guests, accounts] = await Promise.all([
      report('days=7'),
      report('days=7&audience=guests'),
      report('days=7&audience=accounts'),
    ]);
    today = all.days.at(-1) as InsightDay;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every day of the period, today last, with each kind counted', () => {
    expect(all.days).toHaveLength(7);
    expect(all.to).toBe(dayOf(Date.now()));
    expect(today).toEqual({
      day: all.to,
      searches: 5,
      searchesWithoutResults: 2,
      views: 3,
      downloads: 3,
      zips: 1,
      shareOpens: 1,
      logins: 1,
      failedLogins: 1,
    });
    const { day: _day, ...totals } = today;
    expect(all.totals).toEqual(totals);
    expect(all.logins).toEqual([{ method: 'native', ok: 1, failed: 1 }]);
    expect(all.downloadsBySet).toEqual([{ csetId: 0, title: expect.any(String) as string, count: 3 }]);
  });

  it("tells a guest's searches, views and downloads from an account's", () => {
    expect(guests.totals).toMatchObject({ searches: 3, searchesWithoutResults: 2, views: 2, downloads: 2, zips: 1 });
    expect(guests.totals.shareOpens).toBe(1);
    expect(accounts.totals).toMatchObject({ searches: 2, searchesWithoutResults: 0, views: 1, downloads: 1, zips: 0 });
    expect(guests.topSearches).toEqual([
      { text: 'unicorn saddle', count: 2 },
      { text: 'north', count: 1 },
    ]);
    expect(accounts.topSearches).toEqual([
      { text: '*', count: 1 },
      { text: 'north', count: 1 },
    ]);
    expect(accounts.facets).toEqual([{ key: 'meta_collections', count: 1 }]);
  });

  it('lists a search that found nothing, normalised, with how often it was asked', () => {
    expect(all.searchesWithoutResults).toEqual([{ text: 'unicorn saddle', count: 2 }]);
    expect(accounts.searchesWithoutResults).toEqual([]);
  });

  it('ranks assets by downloads and views with their titles, and collections by both', () => {
    expect(all.topDownloaded).toEqual([
      { id: String(ids['north.jpg']), title: 'north', count: 2 },
      { id: String(ids['south.jpg']), title: 'south', count: 1 },
    ]);
    expect(all.topViewed[0]).toEqual({ id: String(ids['north.jpg']), title: 'north', count: 2 });
    // The import's folder is a collection too, with the same assets.
    expect(all.collections).toEqual([
      { id: collection, name: 'Compass points', views: 1, downloads: 3 },
      { id: expect.any(Number) as number, name: 'media', views: 0, downloads: 3 },
    ]);
  });

  it('counts no view of an asset the caller may not see, and names no title the admin may not see', async () => {
    const refused = await call('POST', 'insights/view', user.headers, { id: String(hidden) }, USER_ADDRESS);
    expect(refused.statusCode).toBe(404);
    await t.app.services.repositories.insights.insertEvents(
      rowsOf({ kind: 'view', audience: 'account', assetId: hidden }, Date.now()),
    );
    const answer = await report('days=7');
    expect(answer.topViewed).toContainEqual({ id: String(hidden), title: null, count: 1 });
    expect(answer.totals.views).toBe(all.totals.views + 1);
  });

  it('stores no address and no account in any statistics table', async () => {
    const events = await t.app.db.kysely.selectFrom('insight_event').selectAll().execute();
    const daily = await t.app.db.kysely.selectFrom('insight_daily').selectAll().execute();
    expect(events.length).toBeGreaterThan(10);
    expect(Object.keys(events[0] ?? {}).sort()).toEqual(
      ['asset_id', 'at', 'audience', 'day', 'key', 'kind', 'n', 'results'].sort(),
    );
    const stored = JSON.stringify([events, daily]);
    for (const secret of [GUEST_ADDRESS, USER_ADDRESS, '127.0.0.1', 'anna', 'bert', 'chef']) {
      expect(stored).not.toContain(secret);
    }
    expect(new Set(events.map((e) => e.audience))).toEqual(new Set(['guest', 'account']));
  });

  it('keeps daily counts made by the job, the same when a day is counted again, after its events are gone', async () => {
    const now = Date.now();
    const old = now - 40 * DAY_MS;
    const recent = now - 3 * DAY_MS;
    const events: [InsightEvent, number][] = [
      [{ kind: 'search', audience: 'guest', text: 'Lighthouse', facets: [], results: 0 }, old],
      [{ kind: 'search', audience: 'account', text: 'lighthouse', facets: [], results: 4 }, old],
      [{ kind: 'download', audience: 'guest', csetId: 0, assetIds: [ids['south.jpg'] ?? 0], zip: false }, old],
      [{ kind: 'view', audience: 'guest', assetId: ids['south.jpg'] ?? 0 }, recent],
      [{ kind: 'login', method: 'sso', ok: false }, recent],
    ];
    for (const [event, at] of events) await t.app.services.repositories.insights.insertEvents(rowsOf(event, at));
    const daily = () =>
      t.app.db.kysely
        .selectFrom('insight_daily')
        .select(['day', 'kind', 'audience', 'key', 'count'])
        .orderBy('day')
        .orderBy('kind')
        .orderBy('audience')
        .orderBy('key')
        .execute();

    const first = await t.app.services.insights.aggregate(now);
    expect(first).toMatchObject({ to: dayOf(now - DAY_MS), purged: 3 + 1 });
    const counted = await daily();
    // A counted day is never counted again: an event that arrives for it later is not counted, and
    // runs at the same time (other processes) count nothing twice.
    await t.app.services.repositories.insights.insertEvents(
      rowsOf({ kind: 'view', audience: 'guest', assetId: ids['south.jpg'] ?? 0 }, recent),
    );
    await Promise.all([t.app.services.insights.aggregate(now), t.app.services.insights.aggregate(now)]);
    expect(await daily()).toEqual(counted);
    // Events older than insights.keepDays (30) are gone, their day's counts stay; today's are not counted yet.
    const days = new Set((await t.app.db.kysely.selectFrom('insight_event').select('day').execute()).map((e) => e.day));
    expect([...days].sort()).toEqual([dayOf(recent), dayOf(now)]);
    expect(counted.every((r) => r.day < dayOf(now))).toBe(true);

    const oldDay = dayOf(old);
    const then = await report(`from=${oldDay}&to=${oldDay}`);
    expect(then.days).toEqual([
      {
        day: oldDay,
        searches: 2,
        searchesWithoutResults: 1,
        views: 0,
        downloads: 1,
        zips: 0,
        shareOpens: 0,
        logins: 0,
        failedLogins: 0,
      },
    ]);
    expect(then.searchesWithoutResults).toEqual([{ text: 'lighthouse', count: 1 }]);
    expect(then.collections).toContainEqual({ id: collection, name: 'Compass points', views: 0, downloads: 1 });
    expect((await report(`from=${oldDay}&audience=accounts`)).topSearches).toContainEqual({
      text: 'lighthouse',
      count: 1,
    });
    // A period across counted days and today adds both.
    const week = await report('days=7');
    expect(week.days.find((d) => d.day === dayOf(recent))).toMatchObject({ views: 1, failedLogins: 1 });
    expect(week.totals.searches).toBe(all.totals.searches);
    expect(week.logins).toEqual([
      { method: 'native', ok: 1, failed: 1 },
      { method: 'sso', ok: 0, failed: 1 },
    ]);
  });

  it('adds up whole months from the monthly counts and the days around them from the daily ones', async () => {
    const now = new Date();
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1));
    const first = dayOf(month.getTime());
    const last = dayOf(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0));
    const mid = `${first.slice(0, 8)}15`;
    const [before, after] = [dayOf(Date.parse(first) - DAY_MS), dayOf(Date.parse(last) + DAY_MS)];
    for (const day of [before, first, mid, last, after]) {
      const search = { kind: 'search', audience: 'guest', text: 'Ledger', facets: [], results: 1 } as const;
      await t.app.services.repositories.insights.insertEvents(rowsOf(search, Date.parse(`${day}T12:00:00Z`)));
    }
    // Days already counted are not counted again: these are counted as by an install that starts counting now.
    await forgetCounts();
    await t.app.services.insights.aggregate();
    const ledger = async (from: string, to: string) =>
      (await report(`from=${from}&to=${to}`)).topSearches.find((s) => s.text === 'ledger')?.count;
    expect(await ledger(before, after)).toBe(5);
    expect(await ledger(first, last)).toBe(3);
    expect(await ledger(mid, last)).toBe(2);
    expect(await ledger(before, mid)).toBe(3);
    const days = (await report(`from=${before}&to=${after}`)).days.filter((d) => d.searches > 0);
    expect(days.map((d) => d.day)).toEqual([before, first, mid, last, after]);
  });

  it('refuses a bad period with the field named, and anyone but an admin', async () => {
    const bad = async (query: string, field: string) => {
      const res = await call('GET', `admin/insights?${query}`, admin);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ error: string; details: { path: string }[] }>()).toMatchObject({
        error: 'validation',
        details: [expect.objectContaining({ path: `query.${field}` })],
      });
    };
    await bad('days=8', 'days');
    await bad('from=2026-02-30', 'from');
    await bad('from=2026-03-02&to=2026-03-01', 'from');
    await bad('from=2024-01-01&to=2025-06-01', 'from');
    await bad('days=7&from=2026-03-01', 'days');
    await bad('to=2026-03-01', 'from');
    await bad(`from=2026-01-01&to=${dayOf(Date.now() + 2 * DAY_MS)}`, 'to');
    await bad('audience=robots', 'audience');
    expect((await call('GET', 'admin/insights', user.headers)).statusCode).toBe(403);
    expect((await call('GET', 'admin/insights')).statusCode).toBe(401);
  });
});
