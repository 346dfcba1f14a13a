/**
 * The conversion-pool bench (`npm run abuse:conversions --workspace bench`): can guests asking for
 * conversions of long videos keep an account holder's conversion from starting (issue #48)?
 *
 * On a throwaway PostgreSQL, 1 and then 2 server processes on loopback with the default work
 * settings (one converter per process, two in all, half kept for account holders). Guests, each
 * from a loopback address of its own with a guest session, ask over and over for the web MP4 of
 * two-minute videos (each converts for many seconds) and wait for the answer. Meanwhile an account
 * holder asks every few seconds for a conversion nobody made yet. Reported per run: the account
 * holder's time until its conversion's ffmpeg started (read from /proc, by the file it reads) and
 * until its answer, the guests' answers by status, and the most ffmpeg processes alive at once. A
 * run with nothing kept for account holders (`work.conversions.accountShare` 0) shows the problem.
 *
 *   npm run abuse:conversions --workspace bench [-- --seconds 60 --guests 12 --processes 1,2]
 *
 * Bounded to a few minutes; CI does not run it. Figures: bench/README.md, bench/abuse.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort, startTestCluster } from '@vitrine/server/test/postgres-cluster.ts';
import { makeClip } from '@vitrine/server/test/media-fixtures.ts';
import { percentile, step, stopServer, untilHealthy } from './processes.ts';
import { ensureServerBuild } from '../server-build.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    guests: { type: 'string', default: '12' },
    processes: { type: 'string', default: '1,2' },
  },
});
const SECONDS = Number(args.seconds);
const GUESTS = Number(args.guests);
const PROCESS_COUNTS = args.processes.split(',').map(Number);
/** Long videos the guests ask for, and short ones the account holder asks for (one per try). */
const LONG_VIDEOS = 8;
const ACCOUNT_CLIPS = 20;
/** The account holder asks for a new conversion this often. */
const ACCOUNT_EVERY_MS = 4000;
/** The account holder's conversion must start within this (issue #48). */
const BOUND_MS = 5000;
const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'apps/server/bin/vitrine.mjs');
const SECRET = 'conversion pool bench secret of more than thirty-two characters';
const PASSWORD = 'bench account password';
const API = '/assetportal/api/';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function makeCatalogue(dir: string): void {
  // Each file's tone differs, so each has its own content hash and is converted on its own.
  for (let i = 0; i < LONG_VIDEOS; i++) {
    makeClip(path.join(dir, 'long', `long-${i}.mp4`), { seconds: 120, size: '640x360', frequency: 200 + i * 11 });
  }
  for (let i = 0; i < ACCOUNT_CLIPS; i++) {
    makeClip(path.join(dir, 'account', `mine-${i}.mp4`), { seconds: 2, size: '320x240', frequency: 900 + i * 13 });
  }
}

interface Answer {
  status: number;
  body: string;
}

function request(
  base: string,
  target: string,
  options: { method?: string; token?: string; body?: unknown; from?: string } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve) => {
    const req = http.request(
      new URL(target, base),
      {
        method: options.method ?? 'GET',
        localAddress: options.from,
        headers: {
          cookie: 'XSRF-TOKEN=bench',
          'x-xsrf-token': 'bench',
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
        timeout: 300_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', () => resolve({ status: 0, body: '' }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(payload);
  });
}

interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [cli, 'serve'], {
    cwd: path.join(root, 'apps/server'),
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}`;
  await untilHealthy(child, async () => (await request(url, `${API}health`)).status === 200);
  return {
    url,
    child,
    stop: () => stopServer(child),
  };
}

/**
 * The command lines of the ffmpeg processes the servers (`parents`) run now; other work on the
 * machine (other people's tests) is not counted.
 */
function ffmpegs(parents: ReadonlySet<number>): string[][] {
  const found: string[][] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() !== 'ffmpeg') continue;
      // The parent's pid is the second field after the command name in parentheses.
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!parents.has(ppid)) continue;
      found.push(readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0'));
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

interface RunFigures {
  label: string;
  processes: number;
  /** Per account conversion: ms until its ffmpeg ran (undefined: never seen), ms until answered, status. */
  account: { startMs: number | undefined; answerMs: number; status: number }[];
  guestStatuses: Map<number, number>;
  mostFfmpeg: number;
}

async function oneRun(
  label: string,
  processes: number,
  accountShare: number,
  env: Record<string, string>,
  dataDir: string,
  pool: pg.Pool,
  catalogue: { long: number[]; mine: { id: number; file: string }[] },
): Promise<RunFigures> {
  // No conversion is left from an earlier run: every guest and account conversion is made afresh.
  await pool.query('DELETE FROM conversion');
  await pool.query('DELETE FROM work_slot');
  await pool.query('DELETE FROM download_lock');
  rmSync(path.join(dataDir, 'conversions'), { recursive: true, force: true });
  writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ work: { conversions: { accountShare } } }));
  step(`${label}: starting ${processes} process(es)`);
  const servers = await Promise.all(Array.from({ length: processes }, () => startServer(env)));
  const figures: RunFigures = { label, processes, account: [], guestStatuses: new Map(), mostFfmpeg: 0 };
  const parents = new Set(servers.map((s) => s.child.pid ?? 0));
  const until = Date.now() + SECONDS * 1000;
  let running = true;
  const sampler = (async () => {
    while (running) {
      figures.mostFfmpeg = Math.max(figures.mostFfmpeg, ffmpegs(parents).length);
      await sleep(50);
    }
  })();
  try {
    const guest = async (g: number) => {
      const from = `127.0.2.${g + 1}`;
      let token: string | undefined;
      let n = g;
      while (Date.now() < until) {
        const base = servers[n % servers.length]!.url;
        if (!token) {
          const session = await request(base, `${API}session/get`, { method: 'POST', body: {}, from });
          if (session.status !== 200) {
            await sleep(500);
            continue;
          }
          token = (JSON.parse(session.body) as { session: string }).session;
        }
        const video = catalogue.long[n++ % catalogue.long.length]!;
        const answer = await request(base, `${API}download/?id=${video}&csetid=3`, { token, from });
        figures.guestStatuses.set(answer.status, (figures.guestStatuses.get(answer.status) ?? 0) + 1);
        if (answer.status !== 200) await sleep(100);
      }
    };
    const account = async () => {
      await sleep(ACCOUNT_EVERY_MS);
      const login = await request(servers[0]!.url, `${API}session/get`, {
        method: 'POST',
        body: { user: 'bench', pass: PASSWORD },
      });
      if (login.status !== 200) throw new Error(`the account holder could not log in: ${login.body}`);
      const token = (JSON.parse(login.body) as { session: string }).session;
      for (let i = 0; Date.now() < until && i < catalogue.mine.length; i++) {
        const mine = catalogue.mine[i]!;
        const base = servers[i % servers.length]!.url;
        const t0 = performance.now();
        let startMs: number | undefined;
        let answered = false;
        const watch = (async () => {
          while (!answered && startMs === undefined) {
            if (ffmpegs(parents).some((cmd) => cmd.includes(mine.file))) startMs = performance.now() - t0;
            else await sleep(10);
          }
        })();
        const answer = await request(base, `${API}download/?id=${mine.id}&csetid=3`, { token });
        answered = true;
        await watch;
        figures.account.push({ startMs, answerMs: performance.now() - t0, status: answer.status });
        await sleep(Math.max(0, ACCOUNT_EVERY_MS - (performance.now() - t0)));
      }
    };
    step(`${label}: ${GUESTS} guests and one account holder for ${SECONDS} s`);
    await Promise.all([...Array.from({ length: GUESTS }, (_x, g) => guest(g)), account()]);
  } finally {
    running = false;
    await sampler;
    await Promise.all(servers.map((s) => s.stop()));
  }
  return figures;
}

function report(runs: readonly RunFigures[]): void {
  console.log('');
  console.log(
    '| run | processes | account conversions (200 / asked) | until its ffmpeg started p50 / max ms | until answered p50 / max ms | guests’ answers by status | most ffmpeg alive | start within 5 s |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of runs) {
    const started = r.account.map((a) => a.startMs ?? Infinity);
    const answered = r.account.map((a) => a.answerMs);
    const ok = r.account.filter((a) => a.status === 200).length;
    const statuses = [...r.guestStatuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(0) : 'never');
    const within = r.account.length > 0 && ok === r.account.length && Math.max(...started) <= BOUND_MS;
    console.log(
      `| ${r.label} | ${r.processes} | ${ok} / ${r.account.length} | ${fmt(percentile(started, 50))} / ${fmt(Math.max(...started))} | ${fmt(percentile(answered, 50))} / ${fmt(Math.max(...answered))} | ${statuses} | ${r.mostFfmpeg} | ${within ? 'yes' : '**no**'} |`,
    );
  }
}

async function main(): Promise<void> {
  ensureServerBuild();
  const work = mkdtempSync(path.join(tmpdir(), 'vitrine-abuse-conversions-'));
  step(`work folder ${work}`);
  const media = path.join(homedir(), '.cache', 'vitrine', 'abuse-conversions-1');
  if (!existsSync(path.join(media, '.complete'))) {
    step(`making the catalogue: ${LONG_VIDEOS} two-minute videos, ${ACCOUNT_CLIPS} short clips`);
    rmSync(media, { recursive: true, force: true });
    makeCatalogue(media);
    writeFileSync(path.join(media, '.complete'), '');
  }
  const cluster = await startTestCluster();
  const dataDir = path.join(work, 'data');
  mkdirSync(dataDir, { recursive: true });
  const env = { DATABASE_URL: cluster.url, DATA_DIR: dataDir, SECRET };
  const pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
  try {
    step('importing');
    const cliEnv = { ...process.env, ...env, LOG_LEVEL: 'warn' };
    execFileSync(process.execPath, [cli, 'import', media], { env: cliEnv, stdio: 'inherit' });
    execFileSync(process.execPath, [cli, 'users', 'add', 'bench', '--groups', 'users'], {
      env: cliEnv,
      input: `${PASSWORD}\n`,
      stdio: ['pipe', 'inherit', 'inherit'],
    });
    const { rows } = await pool.query<{ id: number; filename: string; source_path: string }>(
      "SELECT id, filename, source_path FROM asset WHERE status = 'active' ORDER BY filename",
    );
    const catalogue = {
      long: rows.filter((r) => r.filename.startsWith('long-')).map((r) => r.id),
      mine: rows.filter((r) => r.filename.startsWith('mine-')).map((r) => ({ id: r.id, file: r.source_path })),
    };
    const runs: RunFigures[] = [];
    for (const processes of PROCESS_COUNTS) {
      runs.push(await oneRun('half kept for accounts (default)', processes, 0.5, env, dataDir, pool, catalogue));
    }
    runs.push(await oneRun('nothing kept (accountShare 0)', 1, 0, env, dataDir, pool, catalogue));
    report(runs);
    step('done');
  } finally {
    await pool.end();
    cluster.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
