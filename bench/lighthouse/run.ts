/**
 * The Lighthouse bench (`npm run lighthouse --workspace bench`): how fast a first visit is, as
 * Lighthouse 12 scores it, on the pages a visitor lands on.
 *
 * One server process on loopback (the compiled server and the built web app, as `npm start` runs
 * them) with the demo catalogue in a data folder of its own (built on the first run, kept in
 * bench/.lighthouse/data). Lighthouse 12.2.3 drives Debian's Chromium (`CHROME_PATH`, default
 * /usr/bin/chromium) in its mobile preset (a mid-range phone: 4× CPU slowdown, slow 4G, simulated)
 * and its desktop preset, RUNS times per page; the table gives each page's median run (by score) and
 * the 1-minute load average before and after. Later Lighthouse majors want Node 22; 12.2.3 is
 * installed on the first run into bench/.lighthouse (not a dependency of the project).
 *
 *   npm run lighthouse --workspace bench [-- --runs 3 --presets mobile,desktop --pages dashboard,search]
 *
 * Figures are measured, never asserted by tests; they go into bench/README.md by hand.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeBenchSettings } from '../settings.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    presets: { type: 'string', default: 'mobile,desktop' },
    pages: { type: 'string', default: 'dashboard,search,image,video,login' },
    port: { type: 'string', default: '18790' },
  },
});
const RUNS = Number(args.runs);
const root = path.resolve(import.meta.dirname, '../..');
const work = path.join(root, 'bench/.lighthouse');
const dataDir = path.join(work, 'data');
const lighthouseBin = path.join(work, 'node_modules/.bin/lighthouse');
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const base = `http://127.0.0.1:${args.port}`;
const api = `${base}/assetportal/api`;

function installLighthouse(): void {
  if (existsSync(lighthouseBin)) return;
  console.log('Installing Lighthouse 12.2.3 into bench/.lighthouse …');
  mkdirSync(work, { recursive: true });
  execFileSync('npm', ['install', '--prefix', work, '--no-save', '--no-package-lock', 'lighthouse@12.2.3'], {
    stdio: 'inherit',
  });
}

async function waitFor(url: string, seconds: number): Promise<void> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The first image and the first video of the catalogue, by their asset groups. */
async function pickAssets(): Promise<{ image: string; video: string }> {
  const session = (await (
    await fetch(`${api}/session/get`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  ).json()) as { session: string };
  const ids = Array.from({ length: 200 }, (_, i) => i + 1).join(',');
  const answer = (await (
    await fetch(`${api}/assets?assetid=${ids}`, { headers: { authorization: `Bearer ${session.session}` } })
  ).json()) as { response: { docs: { id: string; asset_groups?: string[] }[] } };
  const first = (group: string) => answer.response.docs.find((d) => d.asset_groups?.includes(group))?.id;
  const image = first('image');
  const video = first('video');
  if (!image || !video) throw new Error('The demo catalogue has no image or no video');
  return { image, video };
}

interface Run {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  bytes: number;
}

function lighthouse(url: string, preset: string): Run {
  const out = path.join(work, 'last-run.json');
  rmSync(out, { force: true });
  execFileSync(
    lighthouseBin,
    [
      url,
      '--only-categories=performance',
      '--output=json',
      `--output-path=${out}`,
      '--quiet',
      '--chrome-flags=--headless=new --no-sandbox',
      ...(preset === 'desktop' ? ['--preset=desktop'] : []),
    ],
    { env: { ...process.env, CHROME_PATH: chrome }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    categories: { performance: { score: number } };
    audits: Record<string, { numericValue?: number }>;
  };
  const value = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round(report.categories.performance.score * 100),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    si: value('speed-index'),
    bytes: value('total-byte-weight'),
  };
}

/** The run in the middle by score (ties by LCP), so that its figures belong together. */
function median(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.score - b.score || b.lcp - a.lcp);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!middle) throw new Error('No run');
  return middle;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  installLighthouse();
  const cli = path.join(root, 'apps/server/bin/vitrine.mjs');
  const env = { ...process.env, DATA_DIR: dataDir, PORT: args.port, LOG_LEVEL: 'warn' };
  mkdirSync(dataDir, { recursive: true });
  writeBenchSettings(dataDir);
  execFileSync(process.execPath, [cli, 'demo', '--if-empty'], { env, stdio: 'inherit' });
  const server = spawn(process.execPath, [cli, 'serve'], { env, stdio: 'inherit' });
  try {
    await waitFor(`${api}/health`, 60);
    const assets = await pickAssets();
    const pages: Record<string, string> = {
      dashboard: `${base}/#/`,
      search: `${base}/#/search/*`,
      image: `${base}/#/asset/${assets.image}`,
      video: `${base}/#/asset/${assets.video}`,
      login: `${base}/#/login`,
    };
    const loadBefore = loadavg()[0] ?? 0;
    const rows: string[] = [];
    for (const preset of args.presets.split(',')) {
      for (const page of args.pages.split(',')) {
        const url = pages[page];
        if (!url) throw new Error(`Unknown page ${page}`);
        const runs = Array.from({ length: RUNS }, () => lighthouse(url, preset));
        const m = median(runs);
        const row = `| ${page} | ${preset} | ${m.score} (${runs.map((r) => r.score).join(', ')}) | ${seconds(m.fcp)} | ${seconds(m.lcp)} | ${Math.round(m.tbt)} ms | ${m.cls.toFixed(3)} | ${seconds(m.si)} | ${Math.round(m.bytes / 1024)} KB |`;
        console.log(row);
        rows.push(row);
      }
    }
    const loadAfter = loadavg()[0] ?? 0;
    console.log(
      `\nLighthouse 12.2.3, ${RUNS} runs per row, median run by score; load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after\n`,
    );
    console.log('| page | preset | performance (every run) | FCP | LCP | TBT | CLS | Speed Index | transferred |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const row of rows) console.log(row);
  } finally {
    server.kill('SIGTERM');
  }
}

await main();
