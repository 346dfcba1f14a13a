import { sql, type RawBuilder, type Transaction } from 'kysely';
import { INSIGHT_PERIODS } from '@vitrine/contract/insights';
import { insertAll } from '../catalogue/rows.ts';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { Audience, InsightRow } from './insights.recorder.ts';

const EVENT_COLUMNS = ['at', 'day', 'kind', 'audience', 'key', 'asset_id', 'n', 'results'] as const;

/** Kinds whose day total (key '') the daily counts keep, so a year's series reads one row per day and kind. */
const TOTAL_KINDS = ['search', 'view', 'download', 'zip', 'share_open'];

/** Kinds whose keys the top lists rank: the first `limit` of each. */
export const TOP_LIMITED_KINDS = ['download', 'view', 'search', 'search_empty', 'facet'] as const;
/** Kinds whose keys the answer lists whole (conversion sets, DAM collections). */
export const TOP_WHOLE_KINDS = ['download_set', 'collection_view', 'collection_download'] as const;
const TOP_KINDS: readonly string[] = [...TOP_LIMITED_KINDS, ...TOP_WHOLE_KINDS];
const SPAN_AUDIENCES = ['guest', 'account', 'all'] as const;

/** What the counts hold: the last day counted (each day once), and the last day the spans follow. */
export interface InsightState {
  countedThrough: string | undefined;
  spansThrough: string | undefined;
}

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
const daysBetween = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / DAY_MS;
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

  /** The last day counted into the daily counts; undefined before the first count. */
  async lastCountedDay(): Promise<string | undefined> {
    return (await this.state()).countedThrough;
  }

  async state(): Promise<InsightState> {
    const row = await this.db.kysely
      .selectFrom('insight_state')
      .select(['counted_through', 'spans_through'])
      .where('id', '=', 1)
      .executeTakeFirst();
    return { countedThrough: row?.counted_through ?? undefined, spansThrough: row?.spans_through ?? undefined };
  }

  async firstEventDay(): Promise<string | undefined> {
    const row = await this.db.kysely
      .selectFrom('insight_event')
      .select((eb) => eb.fn.min('day').as('day'))
      .executeTakeFirst();
    return row?.day ?? undefined;
  }

  /**
   * Counts the events of the days after the last one counted, up to `through`, into the daily and
   * monthly counts, once: a counted day is never counted again, so its later events are not
   * counted. The period counts (`insight_span`) follow in the same transaction, which holds the
   * state row locked (PostgreSQL; SQLite has one writer), so two processes never count a day twice.
   * Answers the days counted, if any.
   */
  async aggregate(through: string): Promise<DayRange | undefined> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const lock = this.db.dialect === 'postgres' ? sql`for update` : sql``;
      const { rows } = await sql<{ counted_through: string | null; spans_through: string | null }>`
        select counted_through, spans_through from insight_state where id = 1 ${lock}`.execute(trx);
      const state = rows[0];
      if (!state) {
        await trx.insertInto('insight_state').values({ id: 1, counted_through: null, spans_through: null }).execute();
      }
      const countedThrough = state?.counted_through ?? undefined;
      const spansThrough = state?.spans_through ?? undefined;
      let from = countedThrough === undefined ? undefined : nextDay(countedThrough);
      if (from === undefined) {
        const first = await trx
          .selectFrom('insight_event')
          .select((eb) => eb.fn.min('day').as('day'))
          .executeTakeFirst();
        from = first?.day ?? undefined;
      }
      let counted: DayRange | undefined;
      if (from !== undefined && from <= through) {
        counted = { from, to: through };
        await sql`
          insert into insight_daily (day, kind, audience, key, count)
          select day, kind, audience, key, count from (${this.fromEvents(counted)}) as d`.execute(trx);
        // The new days added to their months; the months' earlier days are not read again.
        await sql`
          insert into insight_monthly (month, kind, audience, key, count)
          select substr(day, 1, 7) as month, kind, audience, key, sum(count) from insight_daily
            where day >= ${counted.from} and day <= ${counted.to} group by substr(day, 1, 7), kind, audience, key
          on conflict (month, kind, audience, key) do update set count = insight_monthly.count + excluded.count`.execute(
          trx,
        );
      }
      const now = counted?.to ?? countedThrough;
      if (now !== undefined && now !== spansThrough) await this.followSpans(trx, spansThrough, now);
      if (now !== undefined) {
        await trx
          .updateTable('insight_state')
          .set({ counted_through: now, spans_through: now })
          .where('id', '=', 1)
          .execute();
      }
      return counted;
    });
  }

  /**
   * Moves each period's counts from the days through `from` to those through `to`: the new days
   * added, the days that left the period taken away (keys that reach 0 go), so a run's work follows
   * the new days, not the period. A period with no counts yet, or further behind than its length,
   * is built again from the daily counts.
   */
  private async followSpans(trx: Transaction<Database>, from: string | undefined, to: string): Promise<void> {
    for (const span of INSIGHT_PERIODS) {
      // The period's days before today: today is read from its events.
      const days = span - 1;
      const first = dayAfter(to, -(days - 1));
      if (from === undefined || daysBetween(from, to) >= days) {
        await trx.deleteFrom('insight_span').where('span', '=', span).execute();
        await this.addToSpan(trx, span, { from: first, to }, 1);
        continue;
      }
      await this.addToSpan(trx, span, { from: nextDay(from), to }, 1);
      await this.addToSpan(trx, span, { from: dayAfter(from, -(days - 1)), to: dayAfter(first, -1) }, -1);
      for (const audience of SPAN_AUDIENCES) {
        for (const kind of TOP_KINDS) {
          await trx
            .deleteFrom('insight_span')
            .where('span', '=', span)
            .where('audience', '=', audience)
            .where('kind', '=', kind)
            .where('count', '<=', 0)
            .execute();
        }
      }
    }
  }

  /** Adds (sign 1) or takes away (−1) the daily counts of `days` to a period's counts, per audience and for both. */
  private async addToSpan(trx: Transaction<Database>, span: number, days: DayRange, sign: 1 | -1): Promise<void> {
    const count = sign === 1 ? sql`sum(count)` : sql`-sum(count)`;
    const within = sql`day >= ${days.from} and day <= ${days.to} and kind in (${sql.join(TOP_KINDS)}) and key <> ''`;
    await sql`
      insert into insight_span (span, kind, audience, key, count)
      select ${sql.lit(span)}, kind, audience, key, count from (
        select kind, audience, key, ${count} as count from insight_daily where ${within} group by kind, audience, key
        union all
        select kind, 'all' as audience, key, ${count} as count from insight_daily where ${within} group by kind, key
      ) as d where 1 = 1
      on conflict (span, kind, audience, key) do update set count = insight_span.count + excluded.count`.execute(trx);
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

  /**
   * The series of counted days (as `series`), read from the daily counts directly: the day totals by
   * their keys (each day, kind and audience one lookup), the logins by their kind.
   */
  async countedSeries(range: DayRange, audience?: Audience): Promise<CountRow[]> {
    const days: string[] = [];
    for (let day = range.from; day <= range.to; day = nextDay(day)) days.push(day);
    if (days.length === 0) return [];
    const audiences = audience === undefined ? ['guest', 'account'] : [audience];
    const { rows } = await sql<CountRow>`
      select day, kind, key, sum(count) as count from insight_daily
        where day in (${sql.join(days)}) and kind in (${sql.join([...TOTAL_KINDS, 'search_empty'])})
          and audience in (${sql.join(audiences)}) and key = ''
        group by day, kind, key
      union all
      select day, kind, key, sum(count) as count from insight_daily
        where kind = 'login' and day >= ${range.from} and day <= ${range.to} ${this.audienceIs(audience)}
        group by day, kind, key`.execute(this.db.kysely);
    return rows.map((r) => ({ ...r, count: Number(r.count) }));
  }

  /** The series of one day not counted yet (as `series`), read from its events by kind, not by key. */
  async eventSeries(day: string, audience?: Audience): Promise<CountRow[]> {
    const of = sql`day = ${day} ${this.audienceIs(audience)}`;
    const { rows } = await sql<Omit<CountRow, 'day'>>`
      select kind, '' as key, sum(n) as count from insight_event
        where ${of} and kind in (${sql.join(TOTAL_KINDS)}) group by kind
      union all
      select 'search_empty' as kind, '' as key, sum(n) as count from insight_event
        where ${of} and kind = 'search' and results = 0 having count(*) > 0
      union all
      select kind, key, sum(n) as count from insight_event where ${of} and kind = 'login' group by kind, key`.execute(
      this.db.kysely,
    );
    return rows.map((r) => ({ ...r, day, count: Number(r.count) }));
  }

  /**
   * The tops of a preset period (as `tops`) from its period counts through the last counted day and
   * the events of `fresh` (today): the candidates are the period's first `limit` keys of each kind
   * and every key of the fresh events; a candidate's total is both counts. Exact: a key that is not
   * a candidate has only its period count, no more than that of the `limit` candidates before it.
   */
  async spanTops(
    span: number,
    fresh: DayRange,
    audience: Audience | undefined,
    limit: number,
  ): Promise<Map<string, { key: string; count: number }[]>> {
    const who = audience ?? 'all';
    const ofSpan = sql`span = ${span} and audience = ${who}`;
    const firsts = TOP_LIMITED_KINDS.map(
      (kind) => sql`select kind, key from (select kind, key from insight_span where ${ofSpan} and kind = ${kind}
        order by count desc, key limit ${limit}) as t`,
    );
    const { rows } = await sql<{ kind: string; key: string; count: number }>`
      with fresh as (
        select kind, key, sum(count) as count from (${this.fromEvents(fresh)}) as e
          where kind in (${sql.join(TOP_KINDS)}) and key <> '' ${this.audienceIs(audience)}
          group by kind, key
      ), candidates as (
        select kind, key from fresh
        union ${sql.join(firsts, sql` union `)}
        union select kind, key from insight_span where ${ofSpan} and kind in (${sql.join(TOP_WHOLE_KINDS)})
      )
      select kind, key, count from (
        select c.kind, c.key, coalesce(s.count, 0) + coalesce(f.count, 0) as count,
            row_number() over (partition by c.kind order by coalesce(s.count, 0) + coalesce(f.count, 0) desc, c.key)
              as place
          from candidates c
          left join insight_span s on s.span = ${span} and s.audience = ${who} and s.kind = c.kind and s.key = c.key
          left join fresh f on f.kind = c.kind and f.key = c.key
      ) as ranked
      where place <= ${limit} or kind in (${sql.join(TOP_WHOLE_KINDS)})
      order by kind, place`.execute(this.db.kysely);
    const tops = new Map<string, { key: string; count: number }[]>(TOP_KINDS.map((k) => [k, []]));
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
