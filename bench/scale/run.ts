/**
 * The scale test (`npm run scale-test`): a throwaway PostgreSQL, the demo catalogue plus synthetic
 * assets, then 1 and 3 server processes behind nginx on loopback, each driven by autocannon with
 * 200 concurrent virtual users that mix searches with facets, previews, bookmark writes, logins and
 * zip downloads. Prints throughput, p50/p95/p99 per call, errors, lost bookmark writes and the CPU
 * used by the server processes, PostgreSQL, nginx and the load generator, side by side.
 *
 *   npm run scale-test [-- --assets 100000 --seconds 40 --users 200]
 *
 * Bounded to a few minutes; CI does not run it. Figures and how to read them: bench/README.md.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request } from 'autocannon';
import pg from 'pg';
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
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

interface RunResult {
  processes: number;
  rps: number;
  total: number;
  errors: number;
  lostBookmarks: number;
  calls: Map<string, CallFigures>;
  cpu: Record<string, number>;
  load: number[];
}

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
            path: `${api}download?operation=zip&csetid=0&${assets.zip.map((id) => `id=${id}`).join('&')}`,
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
  instance.on('response', (client, status, _bytes, ms) => {
    const call = client.requestIterator.context.call;
    const name = typeof call === 'string' ? call : 'other';
    const f = calls.get(name) ?? { count: 0, errors: 0, statuses: new Map<number, number>(), ms: [] };
    f.count++;
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
  const env = {
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: cluster.url.replace(/\/postgres$/, '/vitrine'),
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  mkdirSync(env.DATA_DIR, { recursive: true });
  const servers: ServerProcess[] = [];
  let proxy: { pid: number; stop(): void } | undefined;
  try {
    const vitrine = (...cmd: string[]) => {
      const r = spawnSync(process.execPath, [cli, ...cmd], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: 'inherit',
      });
      if (r.status !== 0) throw new Error(`vitrine ${cmd.join(' ')} failed (${r.status})`);
    };
    step(`importing the demo catalogue from ${demoMedia} (previews are made by the server processes later)`);
    if (!existsSync(demoMedia))
      throw new Error(`no demo media in ${demoMedia}: run \`npx vitrine demo\` once (npm start does)`);
    vitrine('import', demoMedia, '--no-derivatives');
    step(`writing ${SYNTHETIC} synthetic assets`);
    vitrine('bench-data', '--assets', String(SYNTHETIC));

    const services = await openServices(loadSettings({ ...env, LOG_LEVEL: 'silent' }));
    // The demo's previews and web videos would be made by the server processes during the runs and
    // take the CPU the runs measure: the queue is emptied, previews answer their placeholders.
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
      .select(['id', 'file_size'])
      .where('source_path', 'like', `${demoMedia}%`)
      .orderBy('file_size')
      .execute();
    const assets = { search: demo.map((a) => a.id), zip: demo.slice(0, 3).map((a) => a.id) };
    await services.close();

    const results: RunResult[] = [];
    for (const count of [1, 3]) {
      step(`starting ${count} server process(es) behind nginx`);
      while (servers.length < count) servers.push(await startServerProcess(env));
      proxy = startNginx(
        nginx,
        servers.map((s) => s.port),
        18000 + count,
      );
      const url = `http://127.0.0.1:${18000 + count}`;
      // Every process loads its search index before the clock starts.
      for (const s of servers) await fetch(`${s.url}/assetportal/api/search?solr_q=*`);
      const pgPid = postmasterPid(Number(new URL(cluster.url).port));
      const before = {
        server: servers.reduce((s, p) => s + treeCpu(p.child.pid!), 0),
        postgres: treeCpu(pgPid),
        nginx: treeCpu(proxy.pid),
        load: process.cpuUsage(),
      };
      step(`${VUS} virtual users for ${SECONDS} s`);
      const run = await drive(url, users, assets);
      const used = process.cpuUsage(before.load);
      reportServerErrors(servers);
      results.push({
        processes: count,
        rps: run.rps,
        total: run.total,
        errors: run.errors,
        lostBookmarks: run.lost,
        calls: run.calls,
        cpu: {
          'server processes': servers.reduce((s, p) => s + treeCpu(p.child.pid!), 0) - before.server,
          PostgreSQL: treeCpu(pgPid) - before.postgres,
          nginx: treeCpu(proxy.pid) - before.nginx,
          'load generator': (used.user + used.system) / 1e6,
        },
        load: loadavg(),
      });
      proxy.stop();
      proxy = undefined;
    }
    print(results);
  } finally {
    proxy?.stop();
    await Promise.all(servers.map((s) => s.kill()));
    cluster.stop();
    rmSync(work, { recursive: true, force: true });
  }
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
  const head = `| | ${results.map((r) => `${r.processes} process${r.processes > 1 ? 'es' : ''}`).join(' | ')} |`;
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
  for (const part of Object.keys(results[0]?.cpu ?? {})) {
    lines.push(row(`CPU s: ${part}`, (r) => (r.cpu[part] ?? 0).toFixed(1)));
  }
  lines.push(row('load average after (1/5/15 min)', (r) => r.load.map((l) => l.toFixed(1)).join(' / ')));
  console.log(`\n${VUS} virtual users, ${SECONDS} s per run, ${SYNTHETIC} synthetic assets + the demo\n`);
  console.log(lines.join('\n'));
}

await main();
