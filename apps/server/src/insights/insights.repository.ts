import { sql, type RawBuilder } from 'kysely';
import { insertAll } from '../catalogue/rows.ts';
import type { Db } from '../db/database.ts';
import type { Audience, InsightRow } from './insights.recorder.ts';

const EVENT_COLUMNS = ['at', 'day', 'kind', 'audience', 'key', 'asset_id', 'n', 'results'] as const;

/** Kinds whose day total (key '') the daily counts keep, so a year's series reads one row per day and kind. */
const TOTAL_KINDS = ['search', 'view', 'download', 'zip', 'share_open'];

/** A period of whole UTC days, both ends included (YYYY-MM-DD). */
export interface DayRange {
  from: string;
  to: string;
}

export interface CountRow {
  day: string;
  kind: string;
  key: string;
  count: number;
}

const DAY_MS = 86_400_000;
const dayAfter = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The day after `day` (YYYY-MM-DD). */
export const nextDay = (day: string): string => dayAfter(day, 1);

/** The last day of the month `month` (YYYY-MM). */
const monthEnd = (month: string): string => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

/** The whole months within a period (YYYY-MM, first and last), if there is one. */
export function wholeMonths(range: DayRange): { first: string; last: string } | undefined {
  const first = range.from.endsWith('-01')
    ? range.from.slice(0, 7)
    : nextDay(monthEnd(range.from.slice(0, 7))).slice(0, 7);
  const last =
    monthEnd(range.to.slice(0, 7)) === range.to
      ? range.to.slice(0, 7)
      : dayAfter(`${range.to.slice(0, 7)}-01`, -1).slice(0, 7);
  return first <= last ? { first, last } : undefined;
}

/**
 * All SQL of the statistics: the events the recorder writes, the daily counts the job makes of
 * them, and the answers of the admin's period, read from the daily counts up to the last day counted
 * and from the events after it (today's, mostly).
 */
export class InsightsRepository {
  constructor(private readonly db: Db) {}

  async insertEvents(rows: readonly InsightRow[]): Promise<void> {
    await insertAll(this.db.kysely, 'insight_event', EVENT_COLUMNS, rows as unknown as Record<string, unknown>[]);
  }

  /**
   * The counts the events of a period make, as rows of `insight_daily`: per key, the day totals of
   * TOTAL_KINDS, searches without results, and the downloads of each DAM collection's assets (its
   * members now).
   */
  private fromEvents(range: DayRange): RawBuilder<unknown> {
    const within = sql`day >= ${range.from} and day <= ${range.to}`;
    return sql`
      select day, kind, audience, key, sum(n) as count from insight_event where ${within}
        group by day, kind, audience, key
      union all
      select day, kind, audience, '' as key, sum(n) as count from insight_event
        where ${within} and kind in (${sql.join(TOTAL_KINDS)}) group by day, kind, audience
      union all
      select day, 'search_empty' as kind, audience, key, sum(n) as count from insight_event
        where ${within} and kind = 'search' and results = 0 group by day, audience, key
      union all
      select day, 'search_empty' as kind, audience, '' as key, sum(n) as count from insight_event
        where ${within} and kind = 'search' and results = 0 group by day, audience
      union all
      select e.day, 'collection_download' as kind, e.audience, cast(ac.collection_id as varchar(200)) as key,
          sum(e.n) as count
        from insight_event e join asset_collection ac on ac.asset_id = e.asset_id
        where e.day >= ${range.from} and e.day <= ${range.to} and e.kind = 'download'
        group by e.day, e.audience, ac.collection_id`;
  }

  /** The last day the daily counts hold; undefined before the first aggregation. */
  async lastCountedDay(): Promise<string | undefined> {
    const row = await this.db.kysely
      .selectFrom('insight_daily')
      .select((eb) => eb.fn.max('day').as('day'))
      .executeTakeFirst();
    return row?.day ?? undefined;
  }

  async firstEventDay(): Promise<string | undefined> {
    const row = await this.db.kysely
      .selectFrom('insight_event')
      .select((eb) => eb.fn.min('day').as('day'))
      .executeTakeFirst();
    return row?.day ?? undefined;
  }

  /**
   * Counts the events of the days of `range` into the daily counts. A day's counts are replaced by
   * what its events make now, so counting a day again (a later run, another process at the same
   * time) gives the same counts.
   */
  async aggregate(range: DayRange): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await sql`
        insert into insight_daily (day, kind, audience, key, count)
        select day, kind, audience, key, count from (${this.fromEvents(range)}) as d where 1 = 1
        on conflict (day, kind, audience, key) do update set count = excluded.count`.execute(trx);
      // The months the period touches, summed again whole from their days.
      const from = `${range.from.slice(0, 7)}-01`;
      const to = monthEnd(range.to.slice(0, 7));
      await sql`
        insert into insight_monthly (month, kind, audience, key, count)
        select substr(day, 1, 7) as month, kind, audience, key, sum(count) from insight_daily
          where day >= ${from} and day <= ${to} group by substr(day, 1, 7), kind, audience, key
        on conflict (month, kind, audience, key) do update set count = excluded.count`.execute(trx);
    });
  }

  /** Removes the events of days before `day`; answers how many rows went. */
  async purgeEvents(beforeDay: string): Promise<number> {
    const result = await this.db.kysely.deleteFrom('insight_event').where('day', '<', beforeDay).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * The counts of a period: daily counts up to the last day counted, events after it. `byMonth`:
   * the whole months of the counted part from the monthly counts (their rows' `day` is the month),
   * for answers that do not need the days.
   */
  private async source(range: DayRange, byMonth = false): Promise<RawBuilder<unknown>> {
    const counted = await this.lastCountedDay();
    const parts: RawBuilder<unknown>[] = [];
    const daily = (from: string, to: string) =>
      sql`select day, kind, audience, key, count from insight_daily where day >= ${from} and day <= ${to}`;
    if (counted !== undefined && counted >= range.from) {
      const to = counted < range.to ? counted : range.to;
      const months = byMonth ? wholeMonths({ from: range.from, to }) : undefined;
      if (months) {
        const [start, end] = [`${months.first}-01`, monthEnd(months.last)];
        parts.push(sql`select month as day, kind, audience, key, count from insight_monthly
          where month >= ${months.first} and month <= ${months.last}`);
        if (range.from < start) parts.push(daily(range.from, dayAfter(start, -1)));
        if (end < to) parts.push(daily(nextDay(end), to));
      } else {
        parts.push(daily(range.from, to));
      }
    }
    const rawFrom = counted === undefined || counted < range.from ? range.from : nextDay(counted);
    if (rawFrom <= range.to) parts.push(this.fromEvents({ from: rawFrom, to: range.to }));
    if (parts.length === 0) return sql`select day, kind, audience, key, count from insight_daily where 1 = 0`;
    return sql.join(parts, sql` union all `);
  }

  private audienceIs(audience: Audience | undefined): RawBuilder<unknown> {
    return audience === undefined ? sql`` : sql` and audience = ${audience}`;
  }

  /** The day totals of the series (key '') and the logins per day and method, of one audience or all. */
  async series(range: DayRange, audience?: Audience): Promise<CountRow[]> {
    const source = await this.source(range);
    const { rows } = await sql<CountRow>`
      select day, kind, key, sum(count) as count from (${source}) as s
        where ((key = '' and kind in (${sql.join([...TOTAL_KINDS, 'search_empty'])})) or kind = 'login')
          ${this.audienceIs(audience)}
        group by day, kind, key order by day`.execute(this.db.kysely);
    return rows.map((r) => ({ ...r, count: Number(r.count) }));
  }

  /**
   * Per kind, the keys with the most counts in a period, most first (ties by key), in one read of
   * the counts: at most `limit` of each of `limited`, all of each of `whole`.
   */
  async tops(
    range: DayRange,
    audience: Audience | undefined,
    kinds: { limited: readonly string[]; whole: readonly string[]; limit: number },
  ): Promise<Map<string, { key: string; count: number }[]>> {
    const source = await this.source(range, true);
    const { rows } = await sql<{ kind: string; key: string; count: number }>`
      select kind, key, count from (
        select kind, key, sum(count) as count,
            row_number() over (partition by kind order by sum(count) desc, key) as place
          from (${source}) as s
          where kind in (${sql.join([...kinds.limited, ...kinds.whole])}) and key <> '' ${this.audienceIs(audience)}
          group by kind, key
      ) as ranked
      where place <= ${kinds.limit} or kind in (${sql.join(kinds.whole)})
      order by kind, place`.execute(this.db.kysely);
    const tops = new Map<string, { key: string; count: number }[]>(
      [...kinds.limited, ...kinds.whole].map((k) => [k, []]),
    );
    for (const r of rows) tops.get(r.kind)?.push({ key: r.key, count: Number(r.count) });
    return tops;
  }

  /** Titles of assets (the first title value), else their file names; gone assets are missing. */
  async titles(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const assets = await this.db.kysely.selectFrom('asset').select(['id', 'filename']).where('id', 'in', ids).execute();
    const values = await this.db.kysely
      .selectFrom('asset_value')
      .select(['asset_id', 'value'])
      .where('field', '=', 'title')
      .where('asset_id', 'in', ids)
      .orderBy('lang')
      .orderBy('ord')
      .execute();
    const titles = new Map<number, string>();
    for (const v of values) if (!titles.has(Number(v.asset_id))) titles.set(Number(v.asset_id), v.value);
    return new Map(assets.map((a) => [Number(a.id), titles.get(Number(a.id)) ?? a.filename]));
  }

  async collectionNames(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.kysely.selectFrom('collection').select(['id', 'name']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }
}
