/// <reference lib="dom" />
/**
 * bench/web-search: the search page in Chromium on a synthetic catalogue (`vitrine bench-data`):
 *  - time from submitting a query to the first result painted (median and p95 over several words);
 *  - long tasks (over 50 ms) while scrolling the poster view through 2,000 posters.
 * The gzipped JavaScript of the routes is `bench/web-bundle.mjs`.
 *
 *   npm run build && npx tsx bench/web-search/run.ts [--assets 10000] [--data-dir DIR] [--reuse] [--port 18599] [--explain]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { SyntheticCatalogue } from '@vitrine/server/src/bench-data/synthetic.ts';
import { writeBenchSettings } from '../settings.ts';

const { values: args } = parseArgs({
  options: {
    assets: { type: 'string', default: '10000' },
    'data-dir': { type: 'string' },
    reuse: { type: 'boolean', default: false },
    // Prints what the long animation frames while scrolling spent their time on.
    explain: { type: 'boolean', default: false },
    port: { type: 'string', default: '18599' },
  },
});
const assets = Number(args.assets);
const port = Number(args.port);
const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'apps/server/bin/vitrine.mjs');
const dataDir = path.resolve(args['data-dir'] ?? `/tmp/vitrine-bench-web-${assets}`);
const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };

if (!args.reuse) {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const made = spawnSync('node', [cli, 'bench-data', '--assets', String(assets)], { env, stdio: 'inherit' });
  if (made.status !== 0) throw new Error('bench-data failed');
}
writeBenchSettings(dataDir);
const server = spawn('node', [cli, 'serve'], { env, stdio: 'inherit' });
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/assetportal/api/health`)).ok) break;
  } catch {
    // not listening yet
  }
  if (i > 600) throw new Error('the server did not start');
  await new Promise((r) => setTimeout(r, 200));
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, locale: 'en-GB' });

const heading = () => page.getByRole('heading', { level: 2 });
await page.goto(`${base}/#/search/*`);
await heading()
  .filter({ hasText: /^\d+ results/ })
  .waitFor({ timeout: 120_000 });

/** Submits a query and answers the ms until the frame after the new results were rendered. */
async function firstResultPainted(p: Page, word: string): Promise<number> {
  const input = p.getByRole('search').getByRole('combobox', { name: 'Search' });
  await input.fill(word);
  // A script string: the bundler's helper names must not reach the page.
  const ms = await p.evaluate<number>(`new Promise((resolve) => {
    const word = ${JSON.stringify(word)};
    const form = document.querySelector('form[role="search"]');
    const t0 = performance.now();
    const observer = new MutationObserver(() => {
      const text = document.querySelector('h2')?.textContent ?? '';
      // The heading and the results of the new search render in the same commit.
      if (text.includes(word) && /^\\d+ results/.test(text)) {
        observer.disconnect();
        // Two frames: the one with the results, then the paint of it.
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    form.requestSubmit();
  })`);
  return ms;
}

const catalogue = new SyntheticCatalogue(42);
const words = [3, 10, 30, 100, 300, 5, 20, 50, 150, 7].map((rank) => catalogue.keywords[rank]!);
const times: number[] = [];
for (const word of words) times.push(await firstResultPainted(page, word));
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)]!;
const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;

// Long tasks while scrolling 2,000 posters. The suggestion menu of the last word must not cover
// the view buttons.
await page.goto(`${base}/#/search/*`);
await heading()
  .filter({ hasText: /^\d+ results/ })
  .waitFor({ timeout: 60_000 });
await page.keyboard.press('Escape');
await page.getByRole('listbox').waitFor({ state: 'hidden' });
await page.getByRole('button', { name: 'Posters', exact: true }).click();
const region = page.getByRole('region', { name: 'Results' });
await region.locator('[data-asset-id]').first().waitFor();
await page.evaluate(`window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: false });
  // Long animation frames say which scripts a slow frame ran and how long style and layout took.
  window.longFrames = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration <= 50) continue;
      window.longFrames.push({
        duration: Math.round(e.duration),
        styleAndLayout: Math.round(e.startTime + e.duration - e.styleAndLayoutStart),
        scripts: e.scripts.map((s) => ({
          duration: Math.round(s.duration),
          invoker: s.invoker,
          source: (s.sourceFunctionName || '?') + ' ' + (s.sourceURL || '').split('/').pop() + ':' + s.sourceCharPosition,
        })),
      });
    }
  }).observe({ type: 'long-animation-frame', buffered: false });`);
// Posters scrolled through: the results loaded so far (infinite scroll loads when near the end).
let posters = 0;
page.on('request', (r) => {
  const url = new URL(r.url());
  if (!url.pathname.endsWith('/api/search')) return;
  const end = Number(url.searchParams.get('solr_start') ?? 0) + Number(url.searchParams.get('solr_rows') ?? 0);
  posters = Math.max(posters, end);
});
let steps = 0;
const started = Date.now();
while (posters < 2000 && Date.now() - started < 180_000) {
  await region.evaluate((el) => el.scrollBy(0, el.clientHeight));
  await page.waitForTimeout(100);
  steps++;
}
const longTasks = await page.evaluate<number[]>('window.longTasks');
const longFrames = await page.evaluate<unknown[]>('window.longFrames');
const loaded = await page.evaluate<number>("document.querySelectorAll('[data-asset-id]').length");

await browser.close();
server.kill();

const f = (n: number) => n.toFixed(0);
console.log(`\n| measure (Chromium, ${assets} assets) | figure | target |`);
console.log('|---|---|---|');
console.log(
  `| submit → first result painted, median of ${times.length} words | ${f(median)} ms (p95 ${f(p95)} ms) | ≤ 300 ms |`,
);
console.log(
  `| long tasks while scrolling ~${posters} posters (${steps} steps) | ${longTasks.filter((d) => d > 50).length} over 50 ms, longest ${f(Math.max(0, ...longTasks))} ms | none over 50 ms |`,
);
console.log(`\nper word (ms): ${times.map(f).join(', ')}; result elements in the DOM at the end: ${loaded}`);
if (args.explain) console.log(`\nlong animation frames while scrolling:\n${JSON.stringify(longFrames, null, 1)}`);
