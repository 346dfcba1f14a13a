import {
  INSIGHT_PERIODS,
  MAX_INSIGHT_DAYS,
  type InsightAudience,
  type InsightDay,
  type InsightsAnswer,
} from '@vitrine/contract/insights';
import type { AccessService } from '../access/access.service.ts';
import { requireAssetUser, requireGuiAdmin, type Auth } from '../auth/caller.ts';
import { DomainError, validation } from '../http/errors.ts';
import { conversionSetTitle, type Settings } from '../settings.ts';
import type { ClientRateLimits } from '../user/rate-limits.ts';
import { audienceOf, dayOf, type Audience, type InsightRecorder } from './insights.recorder.ts';
import {
  nextDay,
  TOP_LIMITED_KINDS,
  TOP_WHOLE_KINDS,
  type CountRow,
  type DayRange,
  type InsightsRepository,
} from './insights.repository.ts';

const DAY_MS = 86_400_000;

/**
 * How long after a day ends it is counted: the recorders' batches are written every second and at
 * shutdown, so by then its events are in.
 */
export const INSIGHT_SETTLE_MS = 120_000;

/** The last day that ended at least INSIGHT_SETTLE_MS ago. */
const lastSettledDay = (now: number): string => dayOf(now - INSIGHT_SETTLE_MS - DAY_MS);

/** The period of a report when the query names none. */
const DEFAULT_DAYS = 30;

export interface InsightsInput {
  from?: string | undefined;
  to?: string | undefined;
  days?: number | undefined;
  audience: InsightAudience;
  limit: number;
}

const audiences: Record<InsightAudience, Audience | undefined> = {
  all: undefined,
  guests: 'guest',
  accounts: 'account',
};

const dayTime = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/**
 * Statistics of use (issue #51): the asset page's view beacon, the admin's report of a period, and
 * the job that counts each day's events into the daily counts and removes events past
 * `insights.keepDays`. Events of other domains reach the recorder through their services.
 */
export class InsightsService {
  constructor(
    private readonly repository: InsightsRepository,
    private readonly recorder: InsightRecorder,
    private readonly access: Pick<AccessService, 'checkAccess' | 'requireVisible'>,
    private readonly settings: Settings,
    private readonly limits: Pick<ClientRateLimits, 'take'>,
  ) {}

  /**
   * A view of an asset's page, counted when the caller may see the asset. Guests' beacons count
   * against their client's search limit (a view costs what a search does at most); past it, the
   * view is not counted and nothing is read, but the beacon is not refused either: statistics never
   * fail a page, and a refused beacon would be a failed request in the visitor's browser.
   */
  async recordView(auth: Auth, input: { id: string; client: string }): Promise<{ ok: true }> {
    requireAssetUser(auth);
    if (auth.userId === null) {
      try {
        await this.limits.take('search', input.client);
      } catch (err) {
        if (err instanceof DomainError && err.id === 'rate_limited') return { ok: true };
        throw err;
      }
    }
    const assetId = Number(input.id);
    await this.access.requireVisible(auth, assetId);
    this.recorder.record({ kind: 'view', audience: audienceOf(auth), assetId });
    return { ok: true };
  }

  /** The period a query names: `days` up to today, or `from`–`to` (`to` defaults to today). */
  private range(input: InsightsInput, now: number): DayRange & { days: number } {
    const today = dayOf(now);
    if (input.days !== undefined && (input.from !== undefined || input.to !== undefined)) {
      throw validation('Name the period either by days or by from and to, not both.', [
        { path: 'query.days', message: 'must not be given with from or to' },
      ]);
    }
    if (input.from === undefined) {
      if (input.to !== undefined) {
        throw validation('A period with an end needs a start (from).', [
          { path: 'query.from', message: 'is required with to' },
        ]);
      }
      const days = input.days ?? DEFAULT_DAYS;
      return { from: dayOf(now - (days - 1) * DAY_MS), to: today, days };
    }
    const to = input.to ?? today;
    if (to > today)
      throw validation('The period cannot end after today.', [
        { path: 'query.to', message: `must be ${today} or earlier` },
      ]);
    if (input.from > to)
      throw validation('The period starts after it ends.', [
        { path: 'query.from', message: `must be ${to} or earlier` },
      ]);
    const span = (dayTime(to) - dayTime(input.from)) / DAY_MS + 1;
    if (span > MAX_INSIGHT_DAYS) {
      throw validation(`A period covers at most ${MAX_INSIGHT_DAYS} days.`, [
        { path: 'query.from', message: `is ${span} days before to; at most ${MAX_INSIGHT_DAYS}` },
      ]);
    }
    return { from: input.from, to, days: span };
  }

  async report(auth: Auth, input: InsightsInput, now = Date.now()): Promise<InsightsAnswer> {
    requireGuiAdmin(auth);
    const range = this.range(input, now);
    const audience = audiences[input.audience];
    const preset = input.from === undefined && input.to === undefined ? await this.presetReady(range, now) : false;
    let series: CountRow[];
    let tops: Map<string, { key: string; count: number }[]>;
    if (preset) {
      const today = { from: range.to, to: range.to };
      series = [
        ...(await this.repository.countedSeries({ from: range.from, to: dayOf(now - DAY_MS) }, audience)),
        ...(await this.repository.eventSeries(range.to, audience)),
      ];
      tops = await this.repository.spanTops(range.days, today, audience, input.limit);
    } else {
      // From–to periods, and presets in the minutes after midnight before the day is counted:
      // every key of the period grouped on each call (slow at large volumes).
      series = await this.repository.series(range, audience);
      tops = await this.repository.tops(range, audience, {
        limited: TOP_LIMITED_KINDS,
        whole: TOP_WHOLE_KINDS,
        limit: input.limit,
      });
    }
    const top = (kind: string) => tops.get(kind) ?? [];
    const days = daysOf(range, series);
    const totals = days.reduce<Omit<InsightDay, 'day'>>((sum, { day: _day, ...d }) => {
      for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += d[k];
      return sum;
    }, noCounts());
    const langs = [auth.locale ?? 'en', 'en', 'de'];
    return {
      from: range.from,
      to: range.to,
      audience: input.audience,
      days,
      totals,
      logins: loginsOf(series),
      downloadsBySet: top('download_set').map((s) => ({
        csetId: Number(s.key),
        title: conversionSetTitle(this.settings.file, Number(s.key), langs),
        count: s.count,
      })),
      topDownloaded: await this.assets(auth, top('download')),
      topViewed: await this.assets(auth, top('view')),
      topSearches: top('search').map((s) => ({ text: s.key, count: s.count })),
      searchesWithoutResults: top('search_empty').map((s) => ({ text: s.key, count: s.count })),
      facets: top('facet').map((f) => ({ key: f.key, count: f.count })),
      collections: await this.collections(top('collection_view'), top('collection_download'), input.limit),
    };
  }

  /**
   * Whether a preset period (days up to today) can be answered from the period counts: they must
   * follow every day before today. When the job has not counted the last settled day yet, this
   * counts it (any process may; counting is locked and done once).
   */
  private async presetReady(range: DayRange & { days: number }, now: number): Promise<boolean> {
    const yesterday = dayOf(now - DAY_MS);
    if (!(INSIGHT_PERIODS as readonly number[]).includes(range.days) || lastSettledDay(now) !== yesterday) return false;
    const ready = (s: { countedThrough?: string | undefined; spansThrough?: string | undefined }) =>
      s.countedThrough === yesterday && s.spansThrough === yesterday;
    if (ready(await this.repository.state())) return true;
    await this.aggregate(now);
    return ready(await this.repository.state());
  }

  /** Top assets with their titles; an asset the admin may not see (or that is gone) keeps its count, without a title. */
  private async assets(auth: Auth, top: { key: string; count: number }[]) {
    const ids = top.map((t) => Number(t.key));
    const visible = await this.access.checkAccess(auth, 'asset.read', ids);
    const titles = await this.repository.titles(ids.filter((id) => visible.has(id)));
    return top.map((t) => ({ id: t.key, title: titles.get(Number(t.key)) ?? null, count: t.count }));
  }

  private async collections(
    views: { key: string; count: number }[],
    downloads: { key: string; count: number }[],
    limit: number,
  ): Promise<InsightsAnswer['collections']> {
    const byId = new Map<number, { views: number; downloads: number }>();
    const entry = (key: string) => {
      const id = Number(key);
      let e = byId.get(id);
      if (!e) byId.set(id, (e = { views: 0, downloads: 0 }));
      return e;
    };
    for (const v of views) entry(v.key).views += v.count;
    for (const d of downloads) entry(d.key).downloads += d.count;
    const names = await this.repository.collectionNames([...byId.keys()]);
    return [...byId]
      .flatMap(([id, c]) => {
        const name = names.get(id);
        return name === undefined ? [] : [{ id, name, ...c }];
      })
      .sort((a, b) => b.views + b.downloads - (a.views + a.downloads) || a.id - b.id)
      .slice(0, limit);
  }

  /**
   * Counts the days after the last one counted up to the last settled one (ended at least
   * INSIGHT_SETTLE_MS ago) into the daily, monthly and period counts, each day once, then removes
   * events of days past `insights.keepDays`, all of which are counted by then. Any process may run
   * it at any time.
   */
  async aggregate(now = Date.now()): Promise<{ from: string; to: string; purged: number } | { purged: number }> {
    const counted = await this.repository.aggregate(lastSettledDay(now));
    // The oldest day kept: today and the keepDays before it.
    const oldestKept = dayOf(now - this.settings.file.insights.keepDays * DAY_MS);
    const purged = await this.repository.purgeEvents(oldestKept);
    return counted ? { ...counted, purged } : { purged };
  }

  /** Resolves once every event recorded so far is written. */
  settled(): Promise<void> {
    return this.recorder.settled();
  }
}

/** A day's counts before anything is counted. */
function noCounts(): Omit<InsightDay, 'day'> {
  return {
    searches: 0,
    searchesWithoutResults: 0,
    views: 0,
    downloads: 0,
    zips: 0,
    shareOpens: 0,
    logins: 0,
    failedLogins: 0,
  };
}

/** Every day of the period with its counts (0 where nothing happened). */
function daysOf(range: DayRange, rows: CountRow[]): InsightDay[] {
  const days = new Map<string, InsightDay>();
  for (let day = range.from; day <= range.to; day = nextDay(day)) {
    days.set(day, { day, ...noCounts() });
  }
  for (const row of rows) {
    const d = days.get(row.day);
    if (!d) continue;
    const field = seriesField(row);
    if (field) d[field] += row.count;
  }
  return [...days.values()];
}

function seriesField(row: CountRow): Exclude<keyof InsightDay, 'day'> | undefined {
  switch (row.kind) {
    case 'search':
      return 'searches';
    case 'search_empty':
      return 'searchesWithoutResults';
    case 'view':
      return 'views';
    case 'download':
      return 'downloads';
    case 'zip':
      return 'zips';
    case 'share_open':
      return 'shareOpens';
    case 'login':
      return row.key.endsWith(':ok') ? 'logins' : 'failedLogins';
    default:
      return undefined;
  }
}

function loginsOf(rows: CountRow[]): InsightsAnswer['logins'] {
  const methods = new Map<'native' | 'sso', { ok: number; failed: number }>();
  for (const row of rows) {
    if (row.kind !== 'login') continue;
    const [method, outcome] = row.key.split(':') as ['native' | 'sso', 'ok' | 'failed'];
    const m = methods.get(method) ?? { ok: 0, failed: 0 };
    m[outcome] += row.count;
    methods.set(method, m);
  }
  return [...methods].map(([method, m]) => ({ method, ...m })).sort((a, b) => a.method.localeCompare(b.method));
}
