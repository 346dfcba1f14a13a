/**
 * The scale test (`npm run scale-test`): a throwaway PostgreSQL, the demo catalogue plus synthetic
 * assets, then server processes behind nginx on loopback, each run driven by autocannon with 200
 * concurrent virtual users that mix searches with facets, previews, bookmark writes, logins and zip
 * downloads. Three runs: 1 and 3 processes sharing one data folder, and 3 processes whose media
 * store is a bucket of a real S3-protocol server on loopback (s3rver), each with a data folder of its
 * own, so derivatives and conversions come from the bucket and no folder is shared. Prints
 * throughput, p50/p95/p99 per call, errors, lost bookmark writes and the CPU used by the server
 * processes, PostgreSQL, nginx, the object store and the load generator, side by side.
 *
 *   npm run scale-test [-- --assets 100000 --seconds 40 --users 200]
 *
 * Bounded to a few minutes; CI does not run it. Figures and how to read them: bench/README.md.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Request } from 'autocannon';
import pg from 'pg';
import { S3Bucket } from '@vitrine/server/src/adapters/s3-store.ts';
import { makeDerivatives } from '@vitrine/server/src/cli/import.command.ts';
import { DERIVATIVES_JOB } from '@vitrine/server/src/derivatives/derivative.jobs.ts';
import { openServices } from '@vitrine/server/src/services.ts';
import { loadSettings } from '@vitrine/server/src/settings.ts';
import { startTestCluster } from '@vitrine/server/test/postgres-cluster.ts';
import { startServerProcess, type ServerProcess } from '@vitrine/server/test/server-process.ts';

const { values: args } = parseArgs({
  options: {
    assets: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '40' },
    users: { type: 'string', default: '200' },
  },
});
const SYNTHETIC = Number(args.assets);
const SECONDS = Number(args.seconds);
const VUS = Number(args.users);
const PASSWORD = 'scale test password';
const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'apps/server/bin/vitrine.mjs');
const demoMedia = process.env.VITRINE_DEMO_MEDIA ?? path.join(homedir(), '.cache', 'vitrine', 'demo-media');
const work = mkdtempSync(path.join(tmpdir(), 'vitrine-scale-'));
const TICKS = 100;

function step(what: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${what}`);
}

/** nginx from Debian, installed the way scripts/setup.mjs installs packages. */
function ensureNginx(): string {
  const bin = '/usr/sbin/nginx';
  if (existsSync(bin)) return bin;
  step('installing nginx (Debian package nginx-light)');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  execFileSync(
    sudo[0] ?? 'apt-get',
    [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'install', '-y', 'nginx-light'],
    {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    },
  );
  return bin;
}

/** CPU seconds a process and its reaped children used so far (from /proc). */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime, stime, cutime, cstime are fields 14–17 (11–14 after the command name).
    return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / TICKS;
  } catch {
    return 0;
  }
}

function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1] === String(parent);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A process and its living children, summed. */
const treeCpu = (pid: number) => cpuOf(pid) + childrenOf(pid).reduce((s, c) => s + cpuOf(c), 0);

function postmasterPid(port: number): number {
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      if (cmd[0]?.endsWith('/postgres') && cmd.includes(String(port))) return Number(d);
    } catch {
      /* gone meanwhile */
    }
  }
  throw new Error(`no postgres process listens on ${port}`);
}

function startNginx(bin: string, ports: number[], listen: number): { pid: number; stop(): void } {
  const dir = path.join(work, `nginx-${ports.length}`);
  mkdirSync(path.join(dir, 'logs'), { recursive: true });
  const conf = `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  upstream vitrine {
    least_conn;
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${listen};
    client_max_body_size 3m;
    location / {
      proxy_pass http://vitrine;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_buffering off;
      proxy_read_timeout 60s;
      proxy_next_upstream error timeout http_503;
    }
  }
}`;
  writeFileSync(path.join(dir, 'nginx.conf'), conf);
  execFileSync(bin, ['-p', dir, '-c', path.join(dir, 'nginx.conf')]);
  const pid = Number(readFileSync(path.join(dir, 'nginx.pid'), 'utf8').trim());
  return { pid, stop: () => execFileSync(bin, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-s', 'stop']) };
}

interface CallFigures {
  count: number;
  errors: number;
  /** How many answers of each error status (0: a timeout or a reset, no answer). */
  statuses: Map<number, number>;
  ms: number[];
  /** Bytes of the answers, headers included. */
  bytes: number;
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

interface RunResult {
  label: string;
  rps: number;
  total: number;
  errors: number;
  lostBookmarks: number;
  calls: Map<string, CallFigures>;
  cpu: Record<string, number>;
  load: number[];
  /** Media files found in the processes' own data folders after the run (object store runs). */
  localMediaFiles?: number;
}

/** The conversion set the zips are made of: its files come from the media store (the bucket, or DATA_DIR). */
const ZIP_SET = 1;

/** One load run: VUS connections through nginx, each a visitor going round the mix of calls. */
async function drive(
  url: string,
  users: { name: string; token: string }[],
  assets: { search: number[]; zip: number[] },
): Promise<{ calls: Map<string, CallFigures>; lost: number; rps: number; total: number; errors: number }> {
  const calls = new Map<string, CallFigures>();
  let lost = 0;
  const free = [...users];
  let loginsInFlight = 0;
  const words = ['*', 'sunset', 'blue', 'mountain', 'portrait', 'city', 'night'];
  let n = 0;
  const pick = <T>(xs: T[]) => xs[n++ % xs.length]!;
  const api = '/assetportal/api/';
  const auth = (c: Record<string, unknown>) => ({
    authorization: `Bearer ${String(c.token)}`,
    cookie: 'XSRF-TOKEN=scale',
    'x-xsrf-token': 'scale',
  });
  const local = (url: unknown) => {
    if (typeof url !== 'string') return `${api}health`;
    const u = new URL(url, 'http://portal');
    return u.pathname + u.search;
  };
  const named = (name: string, req: Request, c: Record<string, unknown>): Request => {
    c.call = name;
    return req;
  };
  const facets = encodeURIComponent(JSON.stringify([{ key: 'format', values: ['jpg'] }]));
  const round: Request[] = [
    {
      // A visitor arrives: a real password login, unless many are logging in right now (then the
      // visitor goes on with the session it has, as returning visitors do).
      setupRequest: (req, c) => {
        const user = free.pop() ?? users[n++ % users.length]!;
        c.user = user;
        c.token = user.token;
        if (loginsInFlight >= 12)
          return named('session check', { ...req, method: 'GET', path: `${api}session/check`, headers: auth(c) }, c);
        loginsInFlight++;
        c.loggingIn = true;
        return named(
          'login',
          {
            ...req,
            method: 'POST',
            path: `${api}session/get`,
            headers: { 'content-type': 'application/json', cookie: 'XSRF-TOKEN=scale', 'x-xsrf-token': 'scale' },
            body: JSON.stringify({ user: user.name, pass: PASSWORD }),
          },
          c,
        );
      },
      onResponse: (status, body, c) => {
        if (c.loggingIn) loginsInFlight--;
        if (c.loggingIn && status === 200) c.token = (JSON.parse(body) as { session: string }).session;
      },
    },
    ...Array.from({ length: 2 }, (): Request[] => [
      {
        setupRequest: (req, c) =>
          named(
            'search',
            { ...req, path: `${api}search?solr_q=${encodeURIComponent(pick(words))}&solr_rows=50`, headers: auth(c) },
            c,
          ),
      },
      {
        setupRequest: (req, c) =>
          named(
            'search with facets',
            {
              ...req,
              path: `${api}search?solr_q=*&solr_rows=50&filter=${facets}&solr_facetfields=format&solr_facetfields=category&solr_facetfields=creator`,
              headers: auth(c),
            },
            c,
          ),
      },
      {
        setupRequest: (req, c) =>
          named('preview', { ...req, path: `${api}download/preview?id=${pick(assets.search)}`, headers: auth(c) }, c),
        onResponse: (status, body, c) => {
          if (status === 200) c.preview = (JSON.parse(body) as { url?: string }).url;
        },
      },
      {
        setupRequest: (req, c) => named('preview image', { ...req, path: local(c.preview), headers: auth(c) }, c),
      },
      {
        setupRequest: (req, c) => {
          const list = [pick(assets.search), pick(assets.search)].map((id) => ({ id: String(id) }));
          c.written = JSON.stringify([...new Map(list.map((b) => [b.id, b])).values()]);
          return named(
            'bookmark write',
            {
              ...req,
              method: 'POST',
              path: `${api}config/bookmarks`,
              headers: { ...auth(c), 'content-type': 'application/json' },
              body: String(c.written),
            },
            c,
          );
        },
        // A write that failed is an error the visitor was told of, not a lost write.
        onResponse: (status, _body, c) => {
          c.writeOk = status === 200;
        },
      },
      {
        setupRequest: (req, c) =>
          named('bookmark read', { ...req, method: 'GET', path: `${api}config/bookmarks`, headers: auth(c) }, c),
        onResponse: (status, body, c) => {
          // Read back through the balancer, maybe from another process: it must be the list just written.
          if (status === 200 && c.writeOk === true && body !== c.written) lost++;
        },
      },
    ]).flat(),
    {
      setupRequest: (req, c) =>
        named(
          'zip request',
          {
            ...req,
            method: 'GET',
            path: `${api}download?operation=zip&csetid=${ZIP_SET}&${assets.zip.map((id) => `id=${id}`).join('&')}`,
            headers: auth(c),
          },
          c,
        ),
      onResponse: (status, body, c) => {
        if (status === 200) c.zip = (JSON.parse(body) as { url?: string }).url;
      },
    },
    {
      setupRequest: (req, c) => named('zip download', { ...req, path: local(c.zip), headers: auth(c) }, c),
      onResponse: (_status, _body, c) => {
        free.push(c.user as { name: string; token: string });
      },
    },
  ];
  const instance = autocannon({ url, connections: VUS, duration: SECONDS, timeout: 30, requests: round });
  instance.on('response', (client, status, bytes, ms) => {
    const call = client.requestIterator.context.call;
    const name = typeof call === 'string' ? call : 'other';
    const f = calls.get(name) ?? { count: 0, errors: 0, statuses: new Map<number, number>(), ms: [], bytes: 0 };
    f.count++;
    f.bytes += bytes;
    if (status >= 400) {
      f.errors++;
      f.statuses.set(status, (f.statuses.get(status) ?? 0) + 1);
    }
    f.ms.push(ms);
    calls.set(name, f);
  });
  const result = await instance;
  return {
    calls,
    lost,
    rps: result.requests.average,
    total: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

async function main(): Promise<void> {
  const nginx = ensureNginx();
  step('starting a throwaway PostgreSQL cluster');
  const cluster = await startTestCluster();
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  await client.query('CREATE DATABASE vitrine');
  await client.end();
  const env: Record<string, string> = {
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: cluster.url.replace(/\/postgres$/, '/vitrine'),
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // One secret for every process: the object store's processes have no shared folder to keep it in.
    SECRET: randomBytes(32).toString('hex'),
  };
  mkdirSync(env.DATA_DIR!, { recursive: true });
  const servers: ServerProcess[] = [];
  let proxy: { pid: number; stop(): void } | undefined;
  let store: ObjectStore | undefined;
  try {
    const vitrine = (...cmd: string[]) => {
      const r = spawnSync(process.execPath, [cli, ...cmd], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: 'inherit',
      });
      if (r.status !== 0) throw new Error(`vitrine ${cmd.join(' ')} failed (${r.status})`);
    };
    step(`importing the demo catalogue from ${demoMedia}`);
    if (!existsSync(demoMedia))
      throw new Error(`no demo media in ${demoMedia}: run \`npx vitrine demo\` once (npm start does)`);
    vitrine('import', demoMedia, '--no-derivatives');
    step(`writing ${SYNTHETIC} synthetic assets`);
    vitrine('bench-data', '--assets', String(SYNTHETIC));

    const services = await openServices(loadSettings({ ...env, LOG_LEVEL: 'silent' }));
    // The demo's thumbnails and previews are made now, so every run serves the same real files (from
    // the data folder, then from the bucket). Its web videos and sounds would be made by the server
    // processes during the runs and take the CPU the runs measure: those jobs are dropped.
    await services.db.kysely.deleteFrom('job').where('name', '!=', DERIVATIVES_JOB).execute();
    step('making the demo thumbnails and previews');
    const made = await makeDerivatives(services, true);
    if (made.failed) step(`${made.failed} derivative job(s) failed`);
    await services.db.kysely.deleteFrom('job').execute();
    step(`creating ${VUS} accounts`);
    const users: { name: string; token: string }[] = [];
    for (let i = 0; i < VUS; i += 8) {
      const batch = Array.from({ length: Math.min(8, VUS - i) }, (_, k) => `visitor${i + k}`);
      for (const name of await Promise.all(
        batch.map(async (name) => {
          const id = await services.users.add({ name, password: PASSWORD, groups: ['users'] });
          return { name, token: await services.auth.openSession(id) };
        }),
      ))
        users.push(name);
    }
    const demo = await services.db.kysely
      .selectFrom('asset')
      .select(['id', 'file_size', 'asset_group'])
      .where('source_path', 'like', `${demoMedia}%`)
      .orderBy('file_size')
      .execute();
    // The zips hold the three smallest pictures, converted by the zip's set (made before the clock).
    const pictures = demo.filter((a) => a.asset_group === 'image');
    const assets = { search: demo.map((a) => a.id), zip: pictures.slice(0, 3).map((a) => a.id) };
    await services.close();

    const columns: { label: string; processes: number; objectStore: boolean }[] = [
      { label: '1 process', processes: 1, objectStore: false },
      { label: '3 processes', processes: 3, objectStore: false },
      { label: '3 processes, S3 store', processes: 3, objectStore: true },
    ];
    const results: RunResult[] = [];
    const privateDirs: string[] = [];
    for (const [n, column] of columns.entries()) {
      if (column.objectStore && !store) {
        // A new set of processes: none of them sees the data folder of the runs before.
        await Promise.all(servers.splice(0).map((s) => s.kill()));
        step('starting the object store (s3rver on loopback) and copying the made files into its bucket');
        store = await startObjectStore();
        // As README "Object storage" tells an operator who switches: the made files go to the bucket.
        const copied = await copyToBucket(env.DATA_DIR!, store.env);
        step(`${copied} files copied into the bucket`);
      }
      step(`starting ${column.label} behind nginx`);
      while (servers.length < column.processes) {
        if (!column.objectStore) {
          servers.push(await startServerProcess(env));
          continue;
        }
        // Each process its own data folder (the database, its search index snapshot, the outbox):
        // media come only from the bucket. S3_PRESIGN_SECONDS stays 0: the bytes go through Node.
        const own = path.join(work, `data-s3-${servers.length + 1}`);
        mkdirSync(own, { recursive: true });
        privateDirs.push(own);
        servers.push(await startServerProcess({ ...env, ...store!.env, DATA_DIR: own, S3_PRESIGN_SECONDS: '0' }));
      }
      proxy = startNginx(
        nginx,
        servers.map((s) => s.port),
        18001 + n,
      );
      const url = `http://127.0.0.1:${18001 + n}`;
      // Every process loads its search index before the clock starts.
      for (const s of servers) await fetch(`${s.url}/assetportal/api/search?solr_q=*`);
      // The zip's conversions are made (or found in the store) before the clock starts.
      await warmZip(servers[0]!.url, users[0]!.token, assets.zip);
      const pgPid = postmasterPid(Number(new URL(cluster.url).port));
      const storePid = store?.child.pid;
      const before = {
        server: servers.reduce((s, p) => s + treeCpu(p.child.pid!), 0),
        postgres: treeCpu(pgPid),
        nginx: treeCpu(proxy.pid),
        store: column.objectStore && storePid ? treeCpu(storePid) : 0,
        load: process.cpuUsage(),
      };
      step(`${VUS} virtual users for ${SECONDS} s`);
      const run = await drive(url, users, assets);
      const used = process.cpuUsage(before.load);
      reportServerErrors(servers);
      results.push({
        label: column.label,
        rps: run.rps,
        total: run.total,
        errors: run.errors,
        lostBookmarks: run.lost,
        calls: run.calls,
        cpu: {
          'server processes': servers.reduce((s, p) => s + treeCpu(p.child.pid!), 0) - before.server,
          PostgreSQL: treeCpu(pgPid) - before.postgres,
          nginx: treeCpu(proxy.pid) - before.nginx,
          ...(column.objectStore && storePid ? { 'object store (s3rver)': treeCpu(storePid) - before.store } : {}),
          'load generator': (used.user + used.system) / 1e6,
        },
        load: loadavg(),
        ...(column.objectStore ? { localMediaFiles: privateDirs.reduce((sum, d) => sum + mediaFilesIn(d), 0) } : {}),
      });
      proxy.stop();
      proxy = undefined;
    }
    print(results);
  } finally {
    proxy?.stop();
    await Promise.all(servers.map((s) => s.kill()));
    await store?.stop();
    cluster.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The object store's process (object-store.ts) and the environment that points a server at its bucket. */
interface ObjectStore {
  child: ChildProcess;
  env: Record<string, string>;
  stop(): Promise<void>;
}

async function startObjectStore(): Promise<ObjectStore> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, path.join(import.meta.dirname, 'object-store.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`the object store ended (${code}) before it served`)));
  });
  const { env } = JSON.parse(line) as { env: Record<string, string> };
  return {
    child,
    env,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Files under a folder, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** Made files (derivatives, conversions, uploads) in a data folder. */
const mediaFilesIn = (dataDir: string) =>
  ['derivatives', 'conversions', 'config-files'].reduce((sum, f) => sum + filesUnder(path.join(dataDir, f)).length, 0);

/** Copies a data folder's made files to the same keys of the bucket, through the portal's own object store. */
async function copyToBucket(dataDir: string, bucketEnv: Record<string, string>): Promise<number> {
  const settings = loadSettings({ ...bucketEnv, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  if (settings.mediaStore.kind !== 's3') throw new Error('the object store settings did not select a bucket');
  const bucket = new S3Bucket(settings.mediaStore);
  let copied = 0;
  for (const folder of ['derivatives', 'conversions', 'config-files']) {
    const keys = bucket.store(`${folder}/`);
    for (const rel of filesUnder(path.join(dataDir, folder))) {
      await keys.write([rel], ([scratch = '']) => copyFile(path.join(dataDir, folder, rel), scratch));
      copied++;
    }
  }
  return copied;
}

/** Asks for the zip once, so its conversions exist before the clock starts. */
async function warmZip(url: string, token: string, ids: number[]): Promise<void> {
  const r = await fetch(
    `${url}/assetportal/api/download?operation=zip&csetid=${ZIP_SET}&${ids.map((id) => `id=${id}`).join('&')}`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  if (!r.ok) throw new Error(`the zip could not be prepared: ${r.status} ${await r.text()}`);
}

/** The distinct errors the server processes logged so far, so an error count comes with its cause. */
function reportServerErrors(servers: ServerProcess[]): void {
  const seen = new Map<string, number>();
  for (const s of servers) {
    for (const line of s.log().split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
        if ((entry.level ?? 0) < 50) continue;
        const what = `${entry.msg ?? ''}: ${entry.err?.message ?? ''}`.slice(0, 200);
        seen.set(what, (seen.get(what) ?? 0) + 1);
      } catch {
        // a line that is not one log entry
      }
    }
  }
  for (const [what, n] of seen) step(`server error ×${n}: ${what}`);
}

function print(results: RunResult[]): void {
  const head = `| | ${results.map((r) => r.label).join(' | ')} |`;
  const sep = `|---|${results.map(() => '---').join('|')}|`;
  const row = (label: string, f: (r: RunResult) => string) => `| ${label} | ${results.map(f).join(' | ')} |`;
  const lines = [
    head,
    sep,
    row('requests/s (all calls)', (r) => r.rps.toFixed(0)),
    row('requests in all', (r) => String(r.total)),
    row('errors (non-2xx, timeouts, resets)', (r) => String(r.errors)),
    row('lost bookmark writes', (r) => String(r.lostBookmarks)),
  ];
  const names = [...new Set(results.flatMap((r) => [...r.calls.keys()]))];
  for (const name of names) {
    lines.push(
      row(`${name}: n, p50/p95/p99 ms, errors`, (r) => {
        const f = r.calls.get(name);
        if (!f) return '–';
        const ms = [50, 95, 99].map((p) => percentile(f.ms, p).toFixed(0)).join('/');
        const statuses = [...f.statuses].map(([status, n]) => `${n}×${status}`).join(' ');
        return `${f.count}, ${ms}, ${f.errors}${statuses ? ` (${statuses})` : ''}`;
      }),
    );
  }
  for (const name of ['preview image', 'zip download']) {
    lines.push(
      row(`${name}: MB received`, (r) => {
        const f = r.calls.get(name);
        return f ? (f.bytes / 1e6).toFixed(1) : '–';
      }),
    );
  }
  for (const part of [...new Set(results.flatMap((r) => Object.keys(r.cpu)))]) {
    lines.push(row(`CPU s: ${part}`, (r) => (part in r.cpu ? r.cpu[part]!.toFixed(1) : '–')));
  }
  lines.push(
    row('made files in the processes’ own data folders', (r) =>
      r.localMediaFiles === undefined ? '(one shared folder)' : String(r.localMediaFiles),
    ),
  );
  lines.push(row('load average after (1/5/15 min)', (r) => r.load.map((l) => l.toFixed(1)).join(' / ')));
  console.log(`\n${VUS} virtual users, ${SECONDS} s per run, ${SYNTHETIC} synthetic assets + the demo\n`);
  console.log(lines.join('\n'));
}

await main();
