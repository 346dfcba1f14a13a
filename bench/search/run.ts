/**
 * bench/search: per database, generates a synthetic catalogue (`vitrine bench-data`, timed: write +
 * index), starts a server process (the compiled `vitrine serve`, built first when out of date;
 * VITRINE_SERVER_MAIN names another build's dist/cli/main.js) and times it until `GET ready` answers 200,
 * reads its resident memory, and measures median and p95 of five searches: inside this process
 * (the engine's own time, also with the text cache cleared before each run: a first search) and
 * through HTTP against that server (the portal's answer, 50 docs presented), timed by a client in a
 * process of its own (http-client.mjs), as a browser asks.
 *
 *   npx tsx bench/search/run.ts --assets 100000 [--dialect sqlite|postgres|both] [--data-dir DIR] [--reuse] [--runs 30] [--searches-only]
 *
 * --searches-only (with --reuse on SQLite) leaves the catalogue as it is: no settings file written, no
 * change of 5,000 assets (the server still marks the change log it read and may write its snapshot).
 * BENCH_SERVER_CPU_PROF=DIR has the server write a CPU profile of its run to DIR (node --cpu-prof).
 *
 * PostgreSQL runs on a throwaway cluster started here; `--database-url URL --reuse --data-dir DIR`
 * searches a PostgreSQL catalogue written before (DIR holding its index snapshot and settings). Each database's results are printed as a
 * Markdown table and written to bench/search/results/<dialect>-<assets>.json; with both, a table
 * puts the two side by side against the targets, with the load average of the machine.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeBenchData } from '@vitrine/server/src/cli/bench-data.command.ts';
import { CatalogueRepository, type AssetWrite } from '@vitrine/server/src/catalogue/catalogue.repository.ts';
import { openDatabase } from '@vitrine/server/src/db/database.ts';
import { createSearchEngine, createTextFeed, SNAPSHOT_FILE } from '@vitrine/server/src/search/create-engine.ts';
import { loadSettings } from '@vitrine/server/src/settings.ts';
import { startTestCluster } from '@vitrine/server/test/postgres-cluster.ts';
import { ensureServerBuild } from '../server-build.ts';
import { residentMb, startServer, type LoopDelay, type Server } from '../watched-server.ts';
import { writeBenchSettings } from '../settings.ts';
import { httpTimer, summary, type Timing } from './http-timer.ts';
import { searchScenarios } from './scenarios.ts';

const { values: args } = parseArgs({
  options: {
    assets: { type: 'string', default: '100000' },
    dialect: { type: 'string', default: 'both' },
    'data-dir': { type: 'string' },
    reuse: { type: 'boolean', default: false },
    runs: { type: 'string', default: '30' },
    'searches-only': { type: 'boolean', default: false },
    'database-url': { type: 'string' },
  },
});
const assets = Number(args.assets);
/** Assets changed at once by another process while the server runs (one catalogue change). */
const CHANGED = 5000;
const runs = Number(args.runs);
const dialects: ('sqlite' | 'postgres')[] =
  args.dialect === 'both' ? ['sqlite', 'postgres'] : [args.dialect === 'postgres' ? 'postgres' : 'sqlite'];
ensureServerBuild();

interface DialectResult {
  dialect: string;
  writeIndexSeconds: number | undefined;
  readySeconds: number;
  rssReadyMb: number;
  rssAfterMb: number;
  visible: number;
  results: {
    scenario: string;
    engine: Timing;
    uncached?: Timing;
    http: Timing;
    ratio: number;
    loop: LoopDelay;
    httpTarget: number;
  }[];
  /** The server's longest event-loop delay over all searches, and while it applied a change of CHANGED assets. */
  loopMaxMs: number;
  changeLoop: (LoopDelay & { catchUpMs: number }) | undefined;
}

const all: DialectResult[] = [];
for (const dialect of dialects) all.push(await benchDialect(dialect));
if (all.length === 2) printSideBySide(all[0]!, all[1]!);

async function benchDialect(dialect: 'sqlite' | 'postgres'): Promise<DialectResult> {
  const dataDir = path.resolve(args['data-dir'] ?? `/tmp/vitrine-bench-${dialect}-${assets}`);
  if (!args.reuse) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });

  const kept = dialect === 'postgres' && args.reuse ? args['database-url'] : undefined;
  const cluster = dialect === 'postgres' && !kept ? await startTestCluster() : undefined;
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' };
  if (cluster) env.DATABASE_URL = cluster.url;
  if (kept) env.DATABASE_URL = kept;
  if (!args['searches-only']) writeBenchSettings(dataDir);
  const settings = loadSettings(env);

  try {
    let writeIndexSeconds: number | undefined;
    if (!args.reuse || cluster) {
      const started = Date.now();
      await writeBenchData(settings, assets);
      writeIndexSeconds = (Date.now() - started) / 1000;
      process.stderr.write(`bench data written and indexed after ${writeIndexSeconds.toFixed(1)} s\n`);
    }

    const server = await startServer(env);
    const rssReadyMb = residentMb(server.pid);
    process.stderr.write(
      `server ready after ${server.readySeconds.toFixed(1)} s, ${rssReadyMb.toFixed(0)} MB resident\n`,
    );

    const db = await openDatabase(settings.database);
    // The server's index snapshot: at ten million the engine would otherwise load for minutes again.
    const engine = createSearchEngine(db, settings.file.fields, { snapshotFile: path.join(dataDir, SNAPSHOT_FILE) });
    const t = performance.now();
    await engine.refresh();
    process.stderr.write(`engine loaded its index in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
    const visualMb = engine.visualBytes / 1e6;

    const groups = ['public'];
    const { visible, common, rare, scenarios } = await searchScenarios(engine, groups);

    const address = server.url;
    const get = async (url: string) => {
      const res = await fetch(`${address}/assetportal/api/${url}`);
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };

    const measure = async (fn: () => Promise<unknown>): Promise<{ median: number; p95: number }> => {
      for (let i = 0; i < 3; i++) await fn();
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const s = performance.now();
        await fn();
        times.push(performance.now() - s);
      }
      return summary(times);
    };
    // Answers through HTTP are timed by a client in a process of its own (http-client.mjs).
    const client = httpTimer();

    const results = [];
    for (const s of scenarios) {
      const raw = await measure(s.engine);
      const uncached = s.text
        ? await measure(async () => {
            engine.clearTextCache();
            await s.engine();
          })
        : s.fresh
          ? await measure(s.fresh)
          : undefined;
      await server.resetLoop();
      const http = await client.time(`${address}/assetportal/api/${s.url}`, runs);
      const loop = await server.loop();
      results.push({
        scenario: s.name,
        engine: raw,
        uncached,
        http,
        ratio: http.median / raw.median,
        loop,
        httpTarget: s.httpTarget,
      });
    }
    const loopMaxMs = Math.max(...results.map((r) => r.loop.maxMs));
    const rssAfterMb = residentMb(server.pid);

    const changeLoop = args['searches-only']
      ? undefined
      : await applyChange(db, settings, server, () => get(scenarios[0]!.url));
    client.close();
    server.stop();
    await db.close();

    const ms = (v: number) => v.toFixed(1);
    const lines = [
      `### ${dialect}, ${assets.toLocaleString('en')} assets (${visible.toLocaleString('en')} visible to a guest), ${runs} runs`,
      '',
      `write + index ${writeIndexSeconds === undefined ? '–' : writeIndexSeconds.toFixed(1)} s; server ready after ${server.readySeconds.toFixed(1)} s with ${rssReadyMb.toFixed(0)} MB resident (${rssAfterMb.toFixed(0)} MB after the searches); load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(
          ' / ',
        )}; visual signatures in the index ${visualMb.toFixed(1)} MB (${((visualMb * 1e6) / assets).toFixed(0)} bytes per asset)`,
      '',
      '| search | engine median ms | engine p95 ms | engine median, not cached (text; similar/colour) | HTTP median ms | HTTP p95 ms | HTTP / engine | server event loop max ms |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...results.map(
        (r) =>
          `| ${r.scenario} | ${ms(r.engine.median)} | ${ms(r.engine.p95)} | ${r.uncached ? ms(r.uncached.median) : '–'} | ${ms(r.http.median)} | ${ms(r.http.p95)} | ${r.ratio.toFixed(2)} | ${ms(r.loop.maxMs)} |`,
      ),
      '',
      `server event loop: longest delay ${ms(loopMaxMs)} ms over all searches${changeLoop ? `; ${ms(changeLoop.maxMs)} ms while another process wrote a change of ${CHANGED} assets and it applied it (${changeLoop.catchUpMs.toFixed(0)} ms for that search)` : ''}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    const out = path.join(import.meta.dirname, 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(
      path.join(out, `${dialect}-${assets}.json`),
      `${JSON.stringify({ dialect, assets, visible, runs, common, rare, writeIndexSeconds, readySeconds: server.readySeconds, rssReadyMb, rssAfterMb, visualMb, loopMaxMs, changeLoop, loadAverage: loadavg(), results }, null, 2)}\n`,
    );
    return {
      dialect,
      writeIndexSeconds,
      readySeconds: server.readySeconds,
      rssReadyMb,
      rssAfterMb,
      visible,
      results,
      loopMaxMs,
      changeLoop,
    };
  } finally {
    cluster?.stop();
  }
}

/**
 * A change of CHANGED assets made by another process (this one, writing as the import does, with
 * their texts), which the server applies to its index at its next search (`search`): its event loop
 * while the change is written and applied.
 */
async function applyChange(
  db: Awaited<ReturnType<typeof openDatabase>>,
  settings: ReturnType<typeof loadSettings>,
  server: Server,
  search: () => Promise<void>,
): Promise<LoopDelay & { catchUpMs: number }> {
  const catalogueRows = new CatalogueRepository(db.kysely, createTextFeed(db, settings.file.fields));
  const changed: AssetWrite[] = [];
  for (let id = 1; changed.length < CHANGED; id++) {
    const write = await catalogueRows.assetWrite(id);
    if (write) changed.push({ ...write, columns: { ...write.columns, rating: ((write.columns.rating ?? 0) % 5) + 1 } });
  }
  // Measured from before the write: the server's statements wait for the writer's lock meanwhile.
  await server.resetLoop();
  await catalogueRows.saveAssets(changed, { queueDerivatives: false });
  const catchUpStarted = performance.now();
  await search();
  const changeLoop = { ...(await server.loop()), catchUpMs: performance.now() - catchUpStarted };
  process.stderr.write(
    `server applied a change of ${CHANGED} assets in ${changeLoop.catchUpMs.toFixed(0)} ms (one search); event loop delayed at most ${changeLoop.maxMs.toFixed(0)} ms\n`,
  );
  return changeLoop;
}

/** Both databases side by side, against the targets of a 1M catalogue. */
function printSideBySide(a: DialectResult, b: DialectResult): void {
  const ms = (v: number | undefined) => (v === undefined ? '–' : v.toFixed(1));
  const lines = [
    `### ${assets.toLocaleString('en')} assets, both databases (load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')})`,
    '',
    `| measure | ${a.dialect} | ${b.dialect} | target at 1M |`,
    '|---|---:|---:|---:|',
    `| write + index (s) | ${ms(a.writeIndexSeconds)} | ${ms(b.writeIndexSeconds)} | ≤ 150 |`,
    `| server start until ready (s) | ${ms(a.readySeconds)} | ${ms(b.readySeconds)} | ≤ 5 |`,
    `| resident memory when ready (MB) | ${a.rssReadyMb.toFixed(0)} | ${b.rssReadyMb.toFixed(0)} | ≤ 400 |`,
    `| resident memory after the searches (MB) | ${a.rssAfterMb.toFixed(0)} | ${b.rssAfterMb.toFixed(0)} | ≤ 400 |`,
    `| server event loop, longest delay during the searches (ms) | ${ms(a.loopMaxMs)} | ${ms(b.loopMaxMs)} | ≤ 50 |`,
    `| server event loop, longest delay while a change of ${CHANGED} assets is written and applied (ms) | ${ms(a.changeLoop?.maxMs)} | ${ms(b.changeLoop?.maxMs)} | ≤ 50 |`,
    ...a.results.flatMap((r, i) => {
      // Both ran the same scenarios.
      const o = b.results[i]!;
      return [
        `| ${r.scenario}: engine median ms | ${ms(r.engine.median)} | ${ms(o.engine.median)} | |`,
        ...(r.uncached
          ? [
              `| ${r.scenario}: first search (text not cached) ms | ${ms(r.uncached.median)} | ${ms(o.uncached?.median)} | ≤ 100 |`,
            ]
          : []),
        `| ${r.scenario}: HTTP median ms | ${ms(r.http.median)} | ${ms(o.http.median)} | ≤ ${r.httpTarget} |`,
        `| ${r.scenario}: HTTP − engine median ms | ${ms(r.http.median - r.engine.median)} | ${ms(o.http.median - o.engine.median)} | ≤ 2 |`,
      ];
    }),
  ];
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
