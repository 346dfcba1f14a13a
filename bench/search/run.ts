/**
 * bench/search: generates a synthetic catalogue (`vitrine bench-data`) and measures, per engine,
 * median and p95 of five searches: once inside the process (the engine's own time, the baseline)
 * and once through HTTP against a listening server (the portal's answer, 50 docs presented).
 *
 *   npx tsx bench/search/run.ts --assets 100000 --dialect sqlite [--data-dir DIR] [--reuse] [--runs 30]
 *
 * PostgreSQL runs on a throwaway cluster started here. Results are printed as a Markdown table and
 * written to bench/search/results/<dialect>-<assets>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '@vitrine/server/src/app.ts';
import { writeBenchData } from '@vitrine/server/src/cli/bench-data.command.ts';
import { SyntheticCatalogue } from '@vitrine/server/src/bench-data/synthetic.ts';
import { openDatabase } from '@vitrine/server/src/db/database.ts';
import { createSearchEngine } from '@vitrine/server/src/search/create-engine.ts';
import type { EngineQuery } from '@vitrine/server/src/search/search-engine.ts';
import { loadSettings } from '@vitrine/server/src/settings.ts';
import { startTestCluster } from '@vitrine/server/test/postgres-cluster.ts';

const { values: args } = parseArgs({
  options: {
    assets: { type: 'string', default: '100000' },
    dialect: { type: 'string', default: 'sqlite' },
    'data-dir': { type: 'string' },
    reuse: { type: 'boolean', default: false },
    runs: { type: 'string', default: '30' },
  },
});
const assets = Number(args.assets);
const runs = Number(args.runs);
const dialect = args.dialect === 'postgres' ? 'postgres' : 'sqlite';
const dataDir = path.resolve(args['data-dir'] ?? `/tmp/vitrine-bench-${dialect}-${assets}`);
if (!args.reuse) rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

const cluster = dialect === 'postgres' ? await startTestCluster() : undefined;
const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' };
if (cluster) env.DATABASE_URL = cluster.url;
const settings = loadSettings(env);

try {
  if (!args.reuse || cluster) {
    const started = Date.now();
    await writeBenchData(settings, assets);
    process.stderr.write(`bench data ready after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }

  const db = await openDatabase(settings.database);
  const engine = createSearchEngine(db, settings.file.fields);
  let t = performance.now();
  await engine.refresh();
  process.stderr.write(`engine loaded its index in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);

  const groups = ['public'];
  const facets = ['keywords', 'category', 'creator', 'asset_groups', 'rating', 'color_code'];
  const catalogue = new SyntheticCatalogue();
  const visible = (await engine.search(groups, { q: '*', rows: 0 })).numFound;
  // The keyword closest to 20 % of the visible assets, and one found in roughly 0.02 %.
  let common = catalogue.keywords[0];
  let best = Infinity;
  for (const word of catalogue.keywords.slice(0, 12)) {
    const n = (await engine.search(groups, { q: word, rows: 0 })).numFound;
    if (Math.abs(n / visible - 0.2) < best) {
      best = Math.abs(n / visible - 0.2);
      common = word;
    }
  }
  const rare = catalogue.keywords[2000];
  const commonShare = (100 * (await engine.search(groups, { q: common, rows: 0 })).numFound) / visible;
  const topCategory = (
    await engine.search(groups, { q: '*', rows: 0, facetFields: ['category'], facetLimit: 10_000 })
  ).facetFields.category.sort((a, b) => b.count - a.count)[0].value;

  interface Scenario {
    name: string;
    engine: () => Promise<unknown>;
    url: string;
    /** Searches words, so the engine's cache of text matches matters. */
    text?: boolean;
  }
  const facetParams = facets.map((f) => `solr_facetfields=${f}`).join('&');
  const q = (query: EngineQuery) => () => engine.search(groups, { rows: 50, facetFields: facets, ...query });
  const filters = [
    { key: 'category', values: [topCategory] },
    { key: 'asset_groups', values: ['image'] },
    { key: 'file_size', values: ['1000000 TO 100000000'], range: true },
  ];
  const scenarios: Scenario[] = [
    {
      name: 'match-all + 6 facets, sorted by date',
      engine: q({ q: '*', sort: { field: 'imp_date', dir: 'desc' } }),
      url: `search?solr_q=*&solr_rows=50&solr_sort=imp_date%20desc&${facetParams}`,
    },
    {
      name: `common word (${commonShare.toFixed(0)} % of assets) + 6 facets`,
      engine: q({ q: common }),
      text: true,
      url: `search?solr_q=${common}&solr_rows=50&${facetParams}`,
    },
    {
      name: `rare word (${(await engine.search(groups, { q: rare, rows: 0 })).numFound} hits) + 6 facets`,
      engine: q({ q: rare }),
      text: true,
      url: `search?solr_q=${rare}&solr_rows=50&${facetParams}`,
    },
    {
      name: 'common word + 2 facet filters + size range + 6 facets',
      engine: q({ q: common, filter: filters }),
      text: true,
      url: `search?solr_q=${common}&solr_rows=50&${facetParams}&filter=${encodeURIComponent(JSON.stringify(filters))}`,
    },
    {
      name: "suggestions for a 2-letter prefix ('ka')",
      engine: () => engine.suggest(groups, 'ka', ['keywords', 'category', 'creator'], 5),
      url: 'search/suggestions?text=ka',
    },
  ];

  const app = await buildApp(settings, { logger: false });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  t = performance.now();
  await fetch(`${address}/assetportal/api/search?solr_rows=0`);
  process.stderr.write(`server loaded its index in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);

  const measure = async (fn: () => Promise<unknown>): Promise<{ median: number; p95: number }> => {
    for (let i = 0; i < 3; i++) await fn();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      await fn();
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    return {
      median: times[Math.floor(times.length / 2)],
      p95: times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)],
    };
  };

  const results = [];
  for (const s of scenarios) {
    const raw = await measure(s.engine);
    const uncached = s.text
      ? await measure(async () => {
          engine.clearTextCache();
          await s.engine();
        })
      : undefined;
    const http = await measure(async () => {
      const res = await fetch(`${address}/assetportal/api/${s.url}`);
      if (res.status !== 200) throw new Error(`${s.url} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    });
    results.push({ scenario: s.name, engine: raw, uncached, http, ratio: http.median / raw.median });
  }
  await app.close();
  await db.close();

  const ms = (v: number) => v.toFixed(1);
  const lines = [
    `### ${dialect}, ${assets.toLocaleString('en')} assets (${visible.toLocaleString('en')} visible to a guest), ${runs} runs`,
    '',
    '| search | engine median ms | engine p95 ms | engine median, text not cached | HTTP median ms | HTTP p95 ms | HTTP / engine |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.scenario} | ${ms(r.engine.median)} | ${ms(r.engine.p95)} | ${r.uncached ? ms(r.uncached.median) : '–'} | ${ms(r.http.median)} | ${ms(r.http.p95)} | ${r.ratio.toFixed(2)} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const out = path.join(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    path.join(out, `${dialect}-${assets}.json`),
    `${JSON.stringify({ dialect, assets, visible, runs, common, rare, results }, null, 2)}\n`,
  );
} finally {
  cluster?.stop();
}
