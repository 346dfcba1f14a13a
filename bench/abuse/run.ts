/**
 * The abuse bench (`npm run abuse --workspace bench`): can anonymous visitors wear the portal down?
 *
 * On a throwaway PostgreSQL and a catalogue made for the purpose (videos, 60-page PDFs, 3D models,
 * photos), 1 and then 3 server processes on loopback. First one ordinary visitor searches and opens
 * assets alone (the quiet run); then the same visitor does the same while 50 anonymous clients, each
 * from its own loopback address (127.0.1.x), open a fresh guest session for every request and ask
 * conversions of uncached videos, PDF pages 11–60, 3D previews and zips of converted photos.
 * Reported per run: the visitor's search and preview p50/p95 (quiet and abused), the most ffmpeg and
 * pdftoppm processes alive at once, the servers' largest resident memory and event-loop delay, the
 * conversion cache's size, the answers by status (5xx must be none), and a check of every converted
 * file against its database row (none lost, none half-written).
 *
 *   npm run abuse --workspace bench [-- --seconds 60 --abusers 50 --processes 1,3 --cpu-prof <folder>]
 *
 * Bounded to a few minutes; CI does not run it. Figures and how to read them: bench/README.md.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { homedir, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import pg from 'pg';
import { freePort, startTestCluster } from '@vitrine/server/test/postgres-cluster.ts';
import { makeClip, makeImage, makePdf } from '@vitrine/server/test/media-fixtures.ts';
import { percentile, step, stopServer, untilHealthy } from './processes.ts';
import { ensureServerBuild, watchedServer } from '../server-build.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    quiet: { type: 'string', default: '20' },
    abusers: { type: 'string', default: '50' },
    processes: { type: 'string', default: '1,3' },
    // A folder for a CPU profile of each server process (written when it stops).
    'cpu-prof': { type: 'string' },
  },
});
const SECONDS = Number(args.seconds);
const QUIET_SECONDS = Number(args.quiet);
const ABUSERS = Number(args.abusers);
const PROCESS_COUNTS = args.processes.split(',').map(Number);
const VIDEOS = 40;
const PDFS = 4;
const PDF_PAGES = 60;
const PHOTOS = 60;
const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'apps/server/bin/vitrine.mjs');
const SECRET = 'abuse bench secret of more than thirty-two characters';
const API = '/assetportal/api/';

// ---------------------------------------------------------------------------------------------
// The catalogue: every file distinct (its own content hash), so that nothing is converted once
// for all.

/** A binary STL sphere of about `triangles` triangles. */
function stlSphere(triangles: number, seed: number): Buffer {
  const rings = Math.max(4, Math.round(Math.sqrt(triangles / 2)));
  const segments = rings;
  const tris: number[][] = [];
  const at = (r: number, s: number) => {
    const theta = (r / rings) * Math.PI;
    const phi = (s / segments) * 2 * Math.PI;
    const radius = 1 + 0.05 * Math.sin(seed + r * 0.7) * Math.cos(s * 0.3);
    return [
      radius * Math.sin(theta) * Math.cos(phi),
      radius * Math.sin(theta) * Math.sin(phi),
      radius * Math.cos(theta),
    ];
  };
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = at(r, s);
      const b = at(r + 1, s);
      const c = at(r + 1, s + 1);
      const d = at(r, s + 1);
      tris.push([...a, ...b, ...c], [...a, ...c, ...d]);
    }
  }
  const out = Buffer.alloc(84 + tris.length * 50);
  out.write(`sphere ${seed}`, 0, 'ascii');
  out.writeUInt32LE(tris.length, 80);
  tris.forEach((t, i) => {
    const o = 84 + i * 50;
    t.forEach((v, j) => out.writeFloatLE(v, o + 12 + j * 4));
  });
  return out;
}

async function makeCatalogue(dir: string): Promise<void> {
  mkdirSync(path.join(dir, 'videos'), { recursive: true });
  // Each clip's tone differs, so each has its own content hash.
  for (let i = 0; i < VIDEOS; i++) {
    makeClip(path.join(dir, 'videos', `clip-${i}.mp4`), {
      seconds: 6 + (i % 4),
      size: '640x360',
      frequency: 200 + i * 7,
    });
  }
  mkdirSync(path.join(dir, 'documents'), { recursive: true });
  for (let d = 0; d < PDFS; d++) {
    makePdf(
      path.join(dir, 'documents', `report-${d}.pdf`),
      Array.from({ length: PDF_PAGES }, (_, p) => `Report ${d} page ${p + 1}`),
    );
  }
  mkdirSync(path.join(dir, 'models'), { recursive: true });
  [2_000, 20_000, 200_000, 400_000].forEach((n, i) =>
    writeFileSync(path.join(dir, 'models', `sphere-${i}.stl`), stlSphere(n, i)),
  );
  for (let i = 0; i < PHOTOS; i++) {
    await makeImage(path.join(dir, 'photos', `photo-${i}.jpg`), { width: 1600 + i * 8, height: 1200 });
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP from a chosen loopback address, so that each abuser is a client of its own.

interface Answer {
  status: number;
  body: Buffer;
  ms: number;
  /** Whether as many bytes arrived as Content-Length announced (true without one). */
  whole: boolean;
}

function request(
  base: string,
  target: string,
  options: { method?: string; token?: string; body?: unknown; from?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  const url = new URL(target, base);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method: options.method ?? 'GET',
        localAddress: options.from,
        headers: {
          cookie: 'XSRF-TOKEN=abuse',
          'x-xsrf-token': 'abuse',
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
        timeout: options.timeoutMs ?? 120_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          // Large files are counted, not kept.
          if (bytes < 1 << 20) chunks.push(c);
        });
        res.on('end', () => {
          const announced = Number(res.headers['content-length'] ?? NaN);
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            ms: performance.now() - t0,
            whole: Number.isNaN(announced) || announced === bytes,
          });
        });
        res.on('error', () => resolve({ status: 0, body: Buffer.alloc(0), ms: performance.now() - t0, whole: false }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, body: Buffer.alloc(0), ms: performance.now() - t0, whole: false }));
    req.end(payload);
  });
}

const json = <T>(a: Answer): T => JSON.parse(a.body.toString('utf8')) as T;

// ---------------------------------------------------------------------------------------------
// Servers with their event loop watched (bench/search/serve-watched.mjs).

interface Server {
  url: string;
  child: ChildProcess;
  reset(): Promise<void>;
  report(): Promise<{ maxMs: number; p99Ms: number }>;
  stop(): Promise<void>;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const profile = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'])}`] : [];
  const child = spawn(process.execPath, [...profile, watchedServer], {
    cwd: path.join(root, 'apps/server'),
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  await untilHealthy(child, async () => (await request(url, `${API}health`, { timeoutMs: 2000 })).status === 200);
  const ask = <T>(message: string, key: string) =>
    new Promise<T>((resolve) => {
      const on = (m: Record<string, unknown>) => {
        if (key in m) {
          child.off('message', on);
          resolve(m as T);
        }
      };
      child.on('message', on);
      child.send(message);
    });
  return {
    url,
    child,
    reset: async () => void (await ask('reset', 'reset')),
    report: () => ask('report', 'maxMs'),
    stop: () => stopServer(child),
  };
}

// ---------------------------------------------------------------------------------------------
// What runs on the machine meanwhile: converters alive, servers' memory.

function processesNamed(names: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const comm = readFileSync(`/proc/${d}/comm`, 'utf8').trim();
      if (comm in counts) counts[comm] = (counts[comm] ?? 0) + 1;
    } catch {
      // ended meanwhile
    }
  }
  return counts;
}

function rssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function folderBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let sum = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) sum += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return sum;
}

// ---------------------------------------------------------------------------------------------
// The visitor and the abusers.

interface Catalogue {
  videos: number[];
  pdfs: number[];
  models: number[];
  photos: number[];
}

const words = ['*', 'photo', 'clip', 'report', 'sphere', '*'];

/** One ordinary visitor: search, open an asset (its data and its preview picture), think, again. */
async function visitor(
  servers: Server[],
  catalogue: Catalogue,
  until: number,
): Promise<{
  search: number[];
  preview: number[];
  floor: number[];
  /** When each search was asked (ms since the run began), beside its time: where the slow ones fall. */
  searchAt: number[];
  statuses: Map<number, number>;
}> {
  const start = Date.now();
  const statuses = new Map<number, number>();
  const seen = (a: Answer) => statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
  const base = servers[0]?.url ?? '';
  const session = await request(base, `${API}session/get`, { method: 'POST', body: {} });
  seen(session);
  const token = json<{ session: string }>(session).session;
  const search: number[] = [];
  const searchAt: number[] = [];
  // The portal's page, a static file without database or session: the floor any answer stands on.
  const floor: number[] = [];
  const preview: number[] = [];
  const assets = [...catalogue.photos, ...catalogue.pdfs, ...catalogue.videos];
  for (let n = 0; Date.now() < until; n++) {
    const server = servers[n % servers.length]?.url ?? base;
    const q = encodeURIComponent(words[n % words.length] ?? '*');
    const page = await request(server, '/', {});
    seen(page);
    if (page.status === 200) floor.push(page.ms);
    const s = await request(server, `${API}search?solr_q=${q}&solr_rows=50`, { token });
    seen(s);
    if (s.status === 200) {
      search.push(s.ms);
      searchAt.push(Date.now() - start);
    }
    const id = assets[n % assets.length];
    const t0 = performance.now();
    const a = await request(server, `${API}assets?assetid=${id}`, { token });
    const p = await request(server, `${API}download/preview?id=${id}`, { token });
    seen(a);
    seen(p);
    const url = p.status === 200 ? json<{ url?: string }>(p).url : undefined;
    if (url) {
      const file = await request(server, url, {});
      seen(file);
      if (file.status === 200 && a.status === 200) preview.push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { search, preview, floor, searchAt, statuses };
}

interface AbuseFigures {
  requests: number;
  statuses: Map<number, number>;
  broken: number;
}

/** One hostile client: a fresh guest session for every request, always asking for expensive work. */
async function abuser(
  servers: readonly { url: string }[],
  catalogue: Catalogue,
  from: string,
  seed: number,
  until: number,
  figures: AbuseFigures,
): Promise<void> {
  let n = seed;
  const pick = <T>(xs: readonly T[]): T => xs[(n = (n * 1103515245 + 12345) & 0x7fffffff) % xs.length]!;
  const counted = (a: Answer) => {
    figures.requests++;
    figures.statuses.set(a.status, (figures.statuses.get(a.status) ?? 0) + 1);
    if (a.status === 200 && !a.whole) figures.broken++;
    return a;
  };
  while (Date.now() < until) {
    const base = pick(servers).url;
    const session = counted(await request(base, `${API}session/get`, { method: 'POST', body: {}, from }));
    if (session.status !== 200) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const token = json<{ session: string }>(session).session;
    const task = n % 4;
    let asked: Answer;
    if (task === 0) {
      asked = counted(await request(base, `${API}download/?id=${pick(catalogue.videos)}&csetid=3`, { token, from }));
    } else if (task === 1) {
      const page = 11 + (n % (PDF_PAGES - 10));
      asked = counted(
        await request(base, `${API}download/preview?id=${pick(catalogue.pdfs)}&page=${page}`, { token, from }),
      );
    } else if (task === 2) {
      asked = counted(await request(base, `${API}download/preview?id=${pick(catalogue.models)}`, { token, from }));
    } else {
      const ids = Array.from({ length: 10 }, () => `id=${pick(catalogue.photos)}`).join('&');
      asked = counted(await request(base, `${API}download?operation=zip&csetid=1&${ids}`, { token, from }));
    }
    const url = asked.status === 200 ? json<{ url?: string }>(asked).url : undefined;
    if (url) counted(await request(base, url, { from }));
    else await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The abusers run in a thread of their own: their answers (megabytes of video, zips) must not hold
 * up the visitor's client, whose times are what is measured. They are other people's computers.
 */
function attackFrom(urls: string[], catalogue: Catalogue, until: number): Promise<AbuseFigures> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('thread.mjs', import.meta.url), { workerData: { urls, catalogue, until } });
    worker.once('message', (figures: AbuseFigures) => resolve(figures));
    worker.once('error', reject);
  });
}

async function attack(data: { urls: string[]; catalogue: Catalogue; until: number }): Promise<void> {
  const servers = data.urls.map((url) => ({ url }));
  const figures: AbuseFigures = { requests: 0, statuses: new Map(), broken: 0 };
  await Promise.all(
    Array.from({ length: ABUSERS }, (_, i) =>
      abuser(servers, data.catalogue, `127.0.1.${i + 1}`, i + 1, data.until, figures),
    ),
  );
  parentPort?.postMessage(figures);
}

// ---------------------------------------------------------------------------------------------
// Integrity: every finished conversion's file is whole; no stray file in the cache.

async function checkFiles(pool: pg.Pool, dataDir: string): Promise<{ rows: number; bad: string[] }> {
  const bad: string[] = [];
  const convDir = path.join(dataDir, 'conversions');
  const { rows } = await pool.query<{ path: string | null; bytes: string | null; status: string }>(
    'SELECT path, bytes, status FROM conversion',
  );
  const known = new Set<string>();
  for (const row of rows) {
    if (row.status !== 'done' || !row.path) continue;
    known.add(path.normalize(row.path));
    const file = path.join(convDir, row.path);
    if (!existsSync(file)) bad.push(`missing ${row.path}`);
    else if (statSync(file).size !== Number(row.bytes)) bad.push(`size ${row.path}`);
  }
  if (existsSync(convDir)) {
    for (const entry of readdirSync(convDir, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile()) continue;
      const rel = path.relative(convDir, path.join(entry.parentPath, entry.name));
      if (!known.has(rel)) bad.push(`stray ${rel}`);
    }
  }
  return { rows: rows.length, bad };
}

// ---------------------------------------------------------------------------------------------

interface RunFigures {
  processes: number;
  quiet: { search: number[]; preview: number[]; floor: number[] };
  abused: { search: number[]; preview: number[]; floor: number[]; searchAt: number[] };
  visitorStatuses: Map<number, number>;
  abuse: AbuseFigures;
  maxAlive: Record<string, number>;
  rssMb: number;
  loopMaxMs: number;
  /** The visitor's own client: how long its event loop was held up (it must not measure itself). */
  visitorLoopMaxMs: number;
  cacheMb: number;
  files: { rows: number; bad: string[] };
  load: number[];
}

async function resetWork(pool: pg.Pool, dataDir: string): Promise<void> {
  // Every run starts with nothing converted, no page after the tenth rendered and no client counted.
  await pool.query('DELETE FROM conversion');
  await pool.query('DELETE FROM login_attempt');
  await pool.query("DELETE FROM derivative WHERE kind = 'preview' AND page > 10");
  rmSync(path.join(dataDir, 'conversions'), { recursive: true, force: true });
}

async function oneRun(
  processes: number,
  env: Record<string, string>,
  pool: pg.Pool,
  dataDir: string,
  catalogue: Catalogue,
): Promise<RunFigures> {
  await resetWork(pool, dataDir);
  step(`${processes} process(es): starting`);
  const servers: Server[] = [];
  for (let i = 0; i < processes; i++) servers.push(await startServer(env));
  try {
    step(`${processes} process(es): the visitor alone for ${QUIET_SECONDS} s`);
    const quiet = await visitor(servers, catalogue, Date.now() + QUIET_SECONDS * 1000);

    step(`${processes} process(es): the visitor and ${ABUSERS} abusers for ${SECONDS} s`);
    for (const s of servers) await s.reset();
    const maxAlive: Record<string, number> = { ffmpeg: 0, pdftoppm: 0 };
    let maxRss = 0;
    const sampler = setInterval(() => {
      const alive = processesNamed(['ffmpeg', 'pdftoppm']);
      for (const [k, v] of Object.entries(alive)) maxAlive[k] = Math.max(maxAlive[k] ?? 0, v);
      for (const s of servers) if (s.child.pid) maxRss = Math.max(maxRss, rssMb(s.child.pid));
    }, 50);
    const until = Date.now() + SECONDS * 1000;
    const attack = attackFrom(
      servers.map((s) => s.url),
      catalogue,
      until,
    );
    const clientLoop = monitorEventLoopDelay({ resolution: 10 });
    clientLoop.enable();
    const abused = await visitor(servers, catalogue, until);
    clientLoop.disable();
    const abuse = await attack;
    clearInterval(sampler);
    const loops = await Promise.all(servers.map((s) => s.report()));
    // Work still running when the clients stopped finishes before the files are checked.
    await new Promise((r) => setTimeout(r, 5000));
    const files = await checkFiles(pool, dataDir);
    const statuses = new Map(quiet.statuses);
    for (const [k, v] of abused.statuses) statuses.set(k, (statuses.get(k) ?? 0) + v);
    return {
      processes,
      quiet,
      abused,
      visitorStatuses: statuses,
      abuse,
      maxAlive,
      rssMb: maxRss,
      loopMaxMs: Math.max(...loops.map((l) => l.maxMs)),
      visitorLoopMaxMs: clientLoop.max / 1e6,
      cacheMb: folderBytes(path.join(dataDir, 'conversions')) / 1e6,
      files,
      load: loadavg(),
    };
  } finally {
    for (const s of servers) await s.stop();
  }
}

function report(runs: RunFigures[]): void {
  const ms = (x: number) => x.toFixed(0);
  const statusList = (m: Map<number, number>) =>
    [...m.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([k, v]) => `${k === 0 ? 'none' : k}: ${v}`)
      .join(', ');
  console.log(
    '\n| processes | visitor search p50 / p95 ms, quiet → abused | visitor preview p50 / p95 ms, quiet → abused | p95 ratio search / preview | most ffmpeg / pdftoppm alive | largest RSS MB | event loop max ms | conversion cache MB | abuser requests | 5xx | files checked / bad | load |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of runs) {
    const q = (xs: number[]) => `${ms(percentile(xs, 50))} / ${ms(percentile(xs, 95))}`;
    const ratio = (a: number[], b: number[]) => (percentile(b, 95) / Math.max(1, percentile(a, 95))).toFixed(2);
    const fiveXX = [...r.abuse.statuses.entries(), ...r.visitorStatuses.entries()]
      .filter(([k]) => k >= 500)
      .reduce((s, [, v]) => s + v, 0);
    console.log(
      `| ${r.processes} | ${q(r.quiet.search)} → ${q(r.abused.search)} | ${q(r.quiet.preview)} → ${q(r.abused.preview)} | ` +
        `${ratio(r.quiet.search, r.abused.search)} / ${ratio(r.quiet.preview, r.abused.preview)} | ` +
        `${r.maxAlive.ffmpeg} / ${r.maxAlive.pdftoppm} | ${r.rssMb.toFixed(0)} | ${r.loopMaxMs.toFixed(1)} | ` +
        `${r.cacheMb.toFixed(1)} | ${r.abuse.requests} | ${fiveXX} | ${r.files.rows} / ${r.files.bad.length} | ` +
        `${r.load.map((l) => l.toFixed(1)).join(' ')} |`,
    );
  }
  for (const r of runs) {
    console.log(
      `\n${r.processes} process(es): abusers' answers ${statusList(r.abuse.statuses)}; whole bodies missing: ${r.abuse.broken}`,
    );
    console.log(
      `  visitor's answers ${statusList(r.visitorStatuses)}; samples quiet ${r.quiet.search.length}, abused ${r.abused.search.length}`,
    );
    console.log(
      `  the portal page (static, no database) p50 / p95 ms: ${ms(percentile(r.quiet.floor, 50))} / ${ms(percentile(r.quiet.floor, 95))} → ` +
        `${ms(percentile(r.abused.floor, 50))} / ${ms(percentile(r.abused.floor, 95))}; the visitor's client event loop max: ${r.visitorLoopMaxMs.toFixed(1)} ms`,
    );
    const slices: string[] = [];
    for (let from = 0; from < SECONDS * 1000; from += 10_000) {
      const inSlice = r.abused.search.filter(
        (_, i) => (r.abused.searchAt[i] ?? 0) >= from && (r.abused.searchAt[i] ?? 0) < from + 10_000,
      );
      slices.push(
        `${from / 1000}–${from / 1000 + 10} s: ${ms(percentile(inSlice, 50))} / ${ms(percentile(inSlice, 95))} (${inSlice.length})`,
      );
    }
    console.log(`  the visitor's search p50 / p95 ms in each 10 s of the abused run: ${slices.join('; ')}`);
    if (r.files.bad.length) console.log(`  bad files: ${r.files.bad.slice(0, 10).join('; ')}`);
  }
}

async function main(): Promise<void> {
  ensureServerBuild();
  const work = mkdtempSync(path.join(tmpdir(), 'vitrine-abuse-'));
  step(`work folder ${work}`);
  // The files are the same every time, so they are made once and kept outside the clone.
  const media = path.join(homedir(), '.cache', 'vitrine', 'abuse-media-1');
  if (!existsSync(path.join(media, '.complete'))) {
    step(`making the catalogue: ${VIDEOS} videos, ${PDFS} PDFs of ${PDF_PAGES} pages, 4 models, ${PHOTOS} photos`);
    rmSync(media, { recursive: true, force: true });
    await makeCatalogue(media);
    writeFileSync(path.join(media, '.complete'), '');
  }
  const cluster = await startTestCluster();
  const dataDir = path.join(work, 'data');
  mkdirSync(dataDir, { recursive: true });
  const env = { DATABASE_URL: cluster.url, DATA_DIR: dataDir, SECRET };
  const pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
  try {
    step('importing (with thumbnails, previews and web videos)');
    execFileSync(process.execPath, [cli, 'import', media], {
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      stdio: 'inherit',
    });
    const { rows } = await pool.query<{ id: number; asset_group: string }>(
      "SELECT id, asset_group FROM asset WHERE status = 'active'",
    );
    const of = (group: string) => rows.filter((r) => r.asset_group === group).map((r) => r.id);
    const catalogue: Catalogue = { videos: of('video'), pdfs: of('document'), models: of('3d'), photos: of('image') };
    step(
      `catalogue: ${catalogue.videos.length} videos, ${catalogue.pdfs.length} PDFs, ${catalogue.models.length} models, ${catalogue.photos.length} photos`,
    );
    const runs: RunFigures[] = [];
    for (const processes of PROCESS_COUNTS) runs.push(await oneRun(processes, env, pool, dataDir, catalogue));
    report(runs);
    step('done');
  } finally {
    await pool.end();
    cluster.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (isMainThread) await main();
else await attack(workerData as Parameters<typeof attack>[0]);
