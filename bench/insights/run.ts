/**
 * bench/insights: what the statistics of use cost (issue #51, decision 0257, docs/security.md
 * "Statistics").
 *
 * 1. Recording (--part recording): on a search bench catalogue of --assets (bench/search's, written
 *    first when --data-dir holds none), the five searches of bench/search through HTTP, by a server
 *    with `insights.enabled` false and one with it true, one after the other, --rounds times (the
 *    order swapped every round), --runs answers each. Per search the median of the rounds' medians
 *    with and without recording, and their difference (goal ≤ +0.2 ms); the events written are
 *    counted, so a run that recorded nothing (or recorded while off) is told.
 * 2. The Statistics section's answer (--part answer): a portal of --catalogue-assets assets with a
 *    year (--history-days) of use at --events-per-day events a day (searches with texts drawn from a
 *    long-tailed list, some without results, facets, views and downloads of long-tailed assets, zips,
 *    share-link openings, logins) written as the recorder writes them and counted by the statistics
 *    job as it runs after a week offline, events past `insights.keepDays` removed, today's half day
 *    left as events; then `GET admin/insights` through HTTP as an admin for 365, 90, 30 and 7 days and
 *    for one audience (goal ≤ 300 ms at 365 days).
 *
 *   npx tsx bench/insights/run.ts [--part recording|answer|both] [--dialect sqlite|postgres|both]
 *     [--assets 1000000] [--data-dir DIR] [--runs 200] [--rounds 5]
 *     [--catalogue-assets 100000] [--history-days 365] [--events-per-day 100000] [--answer-runs 20] [--reuse]
 *     [--side-by-side] (recording measured with both servers running at once, see benchRecordingSideBySide)
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { writeBenchData } from '@vitrine/server/src/cli/bench-data.command.ts';
import { openDatabase } from '@vitrine/server/src/db/database.ts';
import {
  InsightRecorder,
  rowsOf,
  type InsightEvent,
  type InsightRow,
} from '@vitrine/server/src/insights/insights.recorder.ts';
import { InsightsRepository } from '@vitrine/server/src/insights/insights.repository.ts';
import { createSearchEngine, SNAPSHOT_FILE } from '@vitrine/server/src/search/create-engine.ts';
import { withServices } from '@vitrine/server/src/services.ts';
import { loadSettings } from '@vitrine/server/src/settings.ts';
import { startTestCluster } from '@vitrine/server/test/postgres-cluster.ts';
import { SyntheticCatalogue } from '@vitrine/server/src/bench-data/synthetic.ts';
import { addAccount, logIn } from '../accounts.ts';
import { httpTimer, type Timing } from '../search/http-timer.ts';
import { searchScenarios } from '../search/scenarios.ts';
import { ensureServerBuild } from '../server-build.ts';
import { writeBenchSettings } from '../settings.ts';
import { startServer } from '../watched-server.ts';

const { values: args } = parseArgs({
  options: {
    part: { type: 'string', default: 'both' },
    dialect: { type: 'string', default: 'sqlite' },
    assets: { type: 'string', default: '1000000' },
    'data-dir': { type: 'string' },
    runs: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '5' },
    'catalogue-assets': { type: 'string', default: '100000' },
    'history-days': { type: 'string', default: '365' },
    'events-per-day': { type: 'string', default: '100000' },
    'answer-runs': { type: 'string', default: '20' },
    reuse: { type: 'boolean', default: false },
    'side-by-side': { type: 'boolean', default: false },
  },
});
const dialects: ('sqlite' | 'postgres')[] =
  args.dialect === 'both' ? ['sqlite', 'postgres'] : [args.dialect === 'postgres' ? 'postgres' : 'sqlite'];
const API = '/assetportal/api/';
const DAY_MS = 86_400_000;
const ADMIN = 'bench-admin';
const PASSWORD = 'bench admin secret';
ensureServerBuild();

const ms = (v: number) => v.toFixed(2);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/** The data folder's settings: the bench's (rate limits) with recording on or off. */
function writeSettings(dataDir: string, enabled: boolean): void {
  writeBenchSettings(dataDir);
  const file = path.join(dataDir, 'settings.json');
  const current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, `${JSON.stringify({ ...current, insights: { enabled } }, null, 2)}\n`);
}

/** A throwaway PostgreSQL cluster for `dialect` postgres, with the environment that names it. */
async function portalEnv(dialect: 'sqlite' | 'postgres', dataDir: string) {
  const cluster = dialect === 'postgres' ? await startTestCluster() : undefined;
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' };
  if (cluster) env.DATABASE_URL = cluster.url;
  return { env, cluster };
}

async function eventCount(env: Record<string, string>): Promise<number> {
  const db = await openDatabase(loadSettings(env).database);
  try {
    const { rows } = await sql<{ n: number }>`select count(*) as n from insight_event`.execute(db.kysely);
    return Number(rows[0]!.n);
  } finally {
    await db.close();
  }
}

async function benchRecording(dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const assets = Number(args.assets);
  const runs = Number(args.runs);
  const rounds = Number(args.rounds);
  const dataDir = path.resolve(args['data-dir'] ?? `/tmp/vitrine-bench-${dialect}-${assets}`);
  const fresh = dialect === 'postgres' || !existsSync(path.join(dataDir, 'vitrine.db'));
  if (fresh && dialect === 'sqlite') rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const { env, cluster } = await portalEnv(dialect, dataDir);
  try {
    writeSettings(dataDir, false);
    if (fresh) {
      const started = Date.now();
      await writeBenchData(loadSettings(env), assets);
      process.stderr.write(`bench data written after ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    }
    const settings = loadSettings(env);
    const db = await openDatabase(settings.database);
    const engine = createSearchEngine(db, settings.file.fields, { snapshotFile: path.join(dataDir, SNAPSHOT_FILE) });
    await engine.refresh();
    const { scenarios } = await searchScenarios(engine, ['public']);
    await db.close();

    const medians = new Map<string, { off: number[]; on: number[] }>(
      scenarios.map((s) => [s.name, { off: [], on: [] }]),
    );
    const recorded = { off: 0, on: 0 };
    for (let round = 0; round < rounds; round++) {
      for (const on of round % 2 === 0 ? [false, true] : [true, false]) {
        writeSettings(dataDir, on);
        const before = await eventCount(env);
        const server = await startServer(env);
        const client = httpTimer();
        for (const s of scenarios) {
          const timing: Timing = await client.time(`${server.url}${API}${s.url}`, runs);
          medians.get(s.name)![on ? 'on' : 'off'].push(timing.median);
        }
        client.close();
        server.stop();
        await server.exited;
        recorded[on ? 'on' : 'off'] += (await eventCount(env)) - before;
        process.stderr.write(`round ${round + 1}, recording ${on ? 'on' : 'off'}: done (load ${load()})\n`);
      }
    }
    writeSettings(dataDir, true);
    const cost = await recordingCost(env);
    return [
      `### Recording on ${dialect}, ${assets.toLocaleString('en')} assets: ${rounds} rounds of ${runs} answers per search and mode`,
      '',
      `statistics rows written: ${recorded.on.toLocaleString('en')} with recording, ${recorded.off} without; load average ${load()}`,
      '',
      '| search | HTTP median without recording (ms) | with recording (ms) | difference (ms) | median of the rounds’ differences (ms) | rounds’ medians without / with |',
      '|---|---:|---:|---:|---:|---|',
      ...[...medians].map(([name, m]) => {
        const [off, on] = [median(m.off), median(m.on)];
        const paired = median(m.on.map((v, i) => v - m.off[i]!));
        return `| ${name} | ${ms(off)} | ${ms(on)} | ${signed(on - off)} | ${signed(paired)} | ${m.off.map(ms).join(', ')} / ${m.on.map(ms).join(', ')} |`;
      }),
      '',
      `What recording adds to the event loop per recorded search, in the process, on the same database ` +
        `(${cost.events.toLocaleString('en')} searches): queuing ${(cost.recordNs / 1000).toFixed(2)} µs, ` +
        `its share of the batched insert ${(cost.insertNsPerEvent / 1000).toFixed(2)} µs ` +
        `(batches of ${cost.batch} rows, ${ms(cost.insertMsPerBatch)} ms each, one a second at most), ` +
        `in all ${((cost.recordNs + cost.insertNsPerEvent) / 1e6).toFixed(4)} ms.`,
      '',
    ];
  } finally {
    cluster?.stop();
  }
}

const signed = (v: number) => `${v >= 0 ? '+' : ''}${ms(v)}`;

/**
 * The event-loop time recording adds to one search, measured in the process rather than through HTTP
 * (whose round-to-round noise is larger than the effect): the recorder's `record` (queuing) timed over
 * many searches, and the repository's batched insert of the rows they make, per row, written into the
 * catalogue's own database and removed afterwards.
 */
async function recordingCost(env: Record<string, string>) {
  const events = 100_000;
  const batch = 500;
  const db = await openDatabase(loadSettings(env).database);
  const repository = new InsightsRepository(db);
  const search = (i: number): InsightEvent => ({
    kind: 'search',
    audience: i % 3 === 0 ? 'account' : 'guest',
    text: `bench word ${i % 997}`,
    facets: i % 4 === 0 ? ['file_type'] : [],
    results: i % 12 === 0 ? 0 : 42,
    collection: undefined,
  });
  const queued = Array.from({ length: events }, (_, i) => search(i));
  const recorder = new InsightRecorder(
    { insertEvents: async () => {} },
    { enabled: true, onError: () => {}, delayMs: 60_000, maxBatch: events + 1 },
  );
  const started = process.hrtime.bigint();
  for (const event of queued) recorder.record(event);
  const recordNs = Number(process.hrtime.bigint() - started) / events;
  await recorder.settled();
  const since = Date.now();
  const batches: number[] = [];
  try {
    for (let i = 0; i < queued.length; i += batch) {
      const rows = queued.slice(i, i + batch).flatMap((event) => rowsOf(event, since));
      const t = process.hrtime.bigint();
      await repository.insertEvents(rows);
      batches.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  } finally {
    await sql`delete from insight_event where at >= ${since}`.execute(db.kysely);
    await db.close();
  }
  const insertMsPerBatch = median(batches);
  return { events, batch, recordNs, insertMsPerBatch, insertNsPerEvent: (insertMsPerBatch * 1e6) / batch };
}

/**
 * Recording's cost with both servers running at once (`--side-by-side`, SQLite): one on the search
 * catalogue with recording off, one on a copy of it with recording on, both started and warmed once,
 * then asked in alternating blocks (`--rounds` blocks of `--runs` answers per search and server, the
 * order swapped every block). Each block's medians make a pair; the median of the pairs'
 * differences is the cost, free of what a server started anew varies by from round to round.
 * `--rounds 1000 --runs 1` pairs single answers, which resolves hundredths of a millisecond where
 * blocks of 100 answers still move by a millisecond (bench/README.md "bench/insights").
 */
async function benchRecordingSideBySide(dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  if (dialect !== 'sqlite') throw new Error('--side-by-side copies the SQLite catalogue; run it with --dialect sqlite');
  const assets = Number(args.assets);
  const runs = Number(args.runs);
  const blocks = Number(args.rounds);
  const dataDir = path.resolve(args['data-dir'] ?? `/tmp/vitrine-bench-${dialect}-${assets}`);
  if (!existsSync(path.join(dataDir, 'vitrine.db')))
    throw new Error(`no catalogue in ${dataDir}: run --part recording first`);
  const copy = `${dataDir}-recording`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(dataDir, copy, { recursive: true });
  writeSettings(dataDir, false);
  writeSettings(copy, true);
  const envOf = (dir: string) => ({ DATA_DIR: dir, LOG_LEVEL: 'silent', PORT: '0' });
  const settings = loadSettings(envOf(dataDir));
  const db = await openDatabase(settings.database);
  const engine = createSearchEngine(db, settings.file.fields, { snapshotFile: path.join(dataDir, SNAPSHOT_FILE) });
  await engine.refresh();
  const { scenarios } = await searchScenarios(engine, ['public']);
  await db.close();
  const before = { off: await eventCount(envOf(dataDir)), on: await eventCount(envOf(copy)) };
  const servers = { off: await startServer(envOf(dataDir)), on: await startServer(envOf(copy)) };
  const client = httpTimer();
  const rows: string[] = [];
  try {
    for (const s of scenarios) {
      const medians = { off: [] as number[], on: [] as number[] };
      for (let block = 0; block < blocks; block++) {
        for (const mode of block % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
          const timing = await client.time(`${servers[mode].url}${API}${s.url}`, runs, { warmups: 5 });
          medians[mode].push(timing.median);
        }
      }
      const [off, on] = [median(medians.off), median(medians.on)];
      const paired = median(medians.on.map((v, i) => v - medians.off[i]!));
      rows.push(`| ${s.name} | ${ms(off)} | ${ms(on)} | ${signed(paired)} |`);
      process.stderr.write(`${s.name}: ${signed(paired)} ms (load ${load()})\n`);
    }
  } finally {
    client.close();
    for (const server of [servers.off, servers.on]) {
      server.stop();
      await server.exited;
    }
  }
  const recorded = {
    off: (await eventCount(envOf(dataDir))) - before.off,
    on: (await eventCount(envOf(copy))) - before.on,
  };
  rmSync(copy, { recursive: true, force: true });
  writeSettings(dataDir, true);
  return [
    `### Recording on ${dialect}, ${assets.toLocaleString('en')} assets, both servers at once: ${blocks} alternating blocks of ${runs} answers per search and server`,
    '',
    `statistics rows written: ${recorded.on.toLocaleString('en')} with recording, ${recorded.off} without; load average ${load()}`,
    '',
    '| search | HTTP median without recording (ms) | with recording (ms) | median of the blocks’ differences (ms) |',
    '|---|---:|---:|---:|',
    ...rows,
    '',
  ];
}

/** A seeded random source (mulberry32), so every run writes the same history. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks 0…n−1 with weights 1/(i+1): a few often, a long tail rarely (as real use is). */
function longTail(n: number, r: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cumulative[i] = sum += 1 / (i + 1);
  return () => {
    const x = r() * sum;
    let [lo, hi] = [0, n - 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * A portal's use: `events` events from `start` within `spanMs` (a day) on a portal of `assets` assets (ids 1…assets, shuffled so the
 * most used are not the first written): 55 % searches (one in twelve without results, a quarter
 * narrowed by facets, one in twenty from a pre-search), 25 % asset page views, 12 % downloads (one in
 * ten a zip of 2–50 assets), 2 % share-link openings, 6 % logins (one in twenty failed).
 */
function useOf(assets: number, r: () => number): (start: number, events: number, spanMs?: number) => InsightRow[] {
  const words = new SyntheticCatalogue().keywords;
  const texts = longTail(20_000, r);
  const misses = longTail(5_000, r);
  const asset = longTail(assets, r);
  const facets = ['keywords', 'category', 'creator', 'asset_groups', 'rating', 'color_code', 'file_size', 'imp_date'];
  const idOf = (i: number) => ((i * 7919) % assets) + 1;
  const text = (i: number) =>
    i < words.length ? words[i]! : `${words[i % words.length]} ${words[(i * 31) % words.length]}`;
  const audience = () => (r() < 0.7 ? 'guest' : 'account');
  return (start, events, spanMs = DAY_MS) => {
    const rows: InsightRow[] = [];
    for (let i = 0; i < events; i++) {
      const at = start + Math.floor(r() * spanMs);
      const x = r();
      let event: InsightEvent;
      if (x < 0.55) {
        const empty = r() < 1 / 12;
        event = {
          kind: 'search',
          audience: audience(),
          text: empty ? `${text(misses())}x` : text(texts()),
          facets: r() < 0.25 ? facets.slice(Math.floor(r() * 7), undefined).slice(0, 1 + Math.floor(r() * 2)) : [],
          results: empty ? 0 : 1 + Math.floor(r() * 5000),
          collection: r() < 0.05 ? 1 + Math.floor(r() * 50) : undefined,
        };
      } else if (x < 0.8) event = { kind: 'view', audience: audience(), assetId: idOf(asset()) };
      else if (x < 0.92) {
        const zip = r() < 0.1;
        const n = zip ? 2 + Math.floor(r() * 49) : 1;
        event = {
          kind: 'download',
          audience: audience(),
          csetId: [0, 0, 1, 2, 3][Math.floor(r() * 5)]!,
          assetIds: Array.from({ length: n }, () => idOf(asset())),
          zip,
        };
      } else if (x < 0.94) event = { kind: 'share_open', shareId: 1 + Math.floor(r() * 2000) };
      else event = { kind: 'login', method: r() < 0.95 ? 'native' : 'sso', ok: r() >= 0.05 };
      rows.push(...rowsOf(event, at));
    }
    return rows;
  };
}

/** A portal of `assets` assets with `historyDays` of use at `perDay` events a day, counted as the job counts. */
async function fillHistory(
  settings: ReturnType<typeof loadSettings>,
  assets: number,
  historyDays: number,
  perDay: number,
): Promise<{ rowsWritten: number; fillSeconds: number }> {
  await writeBenchData(settings, assets);
  const dayOfUse = useOf(assets, random(51));
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const started = performance.now();
  let rowsWritten = 0;
  await withServices(settings, async (services) => {
    const repository = services.repositories.insights;
    // A week of events at a time, counted by the job as after a week offline (the same counts as
    // hourly runs make), then the events past keepDays removed by it.
    for (let first = historyDays; first > 0; first -= 7) {
      for (let d = first; d > Math.max(first - 7, 0); d--) {
        const rows = dayOfUse(today - d * DAY_MS, perDay);
        for (let i = 0; i < rows.length; i += 5000) await repository.insertEvents(rows.slice(i, i + 5000));
        rowsWritten += rows.length;
      }
      await services.insights.aggregate(today - Math.max(first - 7, 0) * DAY_MS + DAY_MS / 2);
      process.stderr.write(`\r${historyDays - Math.max(first - 7, 0)} of ${historyDays} days written and counted`);
    }
    // Today until noon, not counted yet: the answer counts it from its events.
    const rows = dayOfUse(today, perDay / 2, DAY_MS / 2);
    for (let i = 0; i < rows.length; i += 5000) await repository.insertEvents(rows.slice(i, i + 5000));
    rowsWritten += rows.length;
  });
  const fillSeconds = (performance.now() - started) / 1000;
  process.stderr.write(`\nhistory written in ${fillSeconds.toFixed(0)} s\n`);
  return { rowsWritten, fillSeconds };
}

async function benchAnswer(dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const assets = Number(args['catalogue-assets']);
  const historyDays = Number(args['history-days']);
  const perDay = Number(args['events-per-day']);
  const runs = Number(args['answer-runs']);
  const dataDir = `/tmp/vitrine-bench-insights-${dialect}`;
  // --reuse answers on the history a former run of the same size wrote (SQLite: its data folder).
  const reuse = args.reuse && dialect === 'sqlite' && existsSync(path.join(dataDir, 'vitrine.db'));
  if (!reuse) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const { env, cluster } = await portalEnv(dialect, dataDir);
  try {
    writeSettings(dataDir, true);
    const settings = loadSettings(env);
    const { rowsWritten, fillSeconds } = reuse
      ? { rowsWritten: 0, fillSeconds: 0 }
      : await fillHistory(settings, assets, historyDays, perDay);
    const db = await openDatabase(settings.database);
    const sizes = await Promise.all(
      ['insight_event', 'insight_daily', 'insight_monthly'].map(async (table) => {
        const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db.kysely);
        return `${table} ${Number(rows[0]!.n).toLocaleString('en')}`;
      }),
    );
    await db.close();

    if (!reuse) addAccount(env, ADMIN, PASSWORD, ['admins']);
    const server = await startServer(env);
    const headers = await logIn(server.url, ADMIN, PASSWORD);
    const client = httpTimer();
    const asks = ['days=365', 'days=365&audience=guests', 'days=90', 'days=30', 'days=7'];
    const timings: [string, Timing][] = [];
    for (const query of asks) {
      timings.push([
        query,
        await client.time(`${server.url}${API}admin/insights?${query}`, runs, { warmups: 3, headers }),
      ]);
    }
    client.close();
    server.stop();
    await server.exited;
    return [
      `### The Statistics answer on ${dialect}: ${historyDays} days of use at ${perDay.toLocaleString('en')} events a day, ${assets.toLocaleString('en')} assets`,
      '',
      `${reuse ? 'the history a former run wrote' : `${rowsWritten.toLocaleString('en')} event rows written and counted in ${fillSeconds.toFixed(0)} s`}; kept: ${sizes.join(', ')}; ${runs} answers each; load average ${load()}`,
      '',
      '| `GET admin/insights?…` | median (ms) | p95 (ms) |',
      '|---|---:|---:|',
      ...timings.map(([query, t]) => `| ${query} | ${ms(t.median)} | ${ms(t.p95)} |`),
      '',
    ];
  } finally {
    cluster?.stop();
  }
}

const out: string[] = [];
for (const dialect of dialects) {
  if (args.part !== 'answer')
    out.push(...(await (args['side-by-side'] ? benchRecordingSideBySide(dialect) : benchRecording(dialect))));
  if (args.part !== 'recording') out.push(...(await benchAnswer(dialect)));
}
process.stdout.write(`${out.join('\n')}\n`);
