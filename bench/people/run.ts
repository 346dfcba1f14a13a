/**
 * bench/people: the People list of the admin area at 100,000 accounts (issue #50; goal: every call
 * under 300 ms).
 *
 * Per database: a fresh portal (a throwaway PostgreSQL cluster for postgres), --accounts synthetic
 * accounts written by `vitrine bench-data --accounts` (bench-data/accounts.ts), one admin made by the
 * command line; then `vitrine serve` (the compiled server, as `npm start` runs it) and, through HTTP
 * as that admin, the list's calls: the first page, page 2, a name prefix, a mail fragment, a rare
 * fragment, a group filter and a search's page 2 (--runs answers each after warm-ups). Beside each,
 * the same query asked of the repository in this process (no HTTP, no JSON): the database's share.
 *
 *   npx tsx bench/people/run.ts [--dialect sqlite|postgres|both] [--accounts 100000] [--runs 50]
 */
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { writeBenchAccounts } from '@vitrine/server/src/cli/bench-data.command.ts';
import type { PeopleFilter } from '@vitrine/server/src/people/people.repository.ts';
import { withServices } from '@vitrine/server/src/services.ts';
import { loadSettings } from '@vitrine/server/src/settings.ts';
import { startTestCluster } from '@vitrine/server/test/postgres-cluster.ts';
import { addAccount, logIn } from '../accounts.ts';
import { httpTimer, summary, type Timing } from '../search/http-timer.ts';
import { ensureServerBuild } from '../server-build.ts';
import { writeBenchSettings } from '../settings.ts';
import { startServer } from '../watched-server.ts';

const { values: args } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'both' },
    accounts: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '50' },
  },
});
const dialects: ('sqlite' | 'postgres')[] =
  args.dialect === 'both' ? ['sqlite', 'postgres'] : [args.dialect === 'postgres' ? 'postgres' : 'sqlite'];
const accounts = Number(args.accounts);
const runs = Number(args.runs);
const API = '/assetportal/api/';
const ADMIN = 'bench-admin';
const PASSWORD = 'bench admin secret';
const GOAL_MS = 300;
ensureServerBuild();

const ms = (v: number) => v.toFixed(1);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/**
 * The list's calls as the People section makes them. Synthetic names are first.last.N with twelve
 * first and ten last names, so "greta" starts about one name in twelve, "novak@" ends one mail in
 * ten, and ".4711@" (a number and the mail's @) is one account.
 */
const scenarios: { name: string; query: string }[] = [
  { name: 'first page, by name', query: '' },
  { name: 'page 2, by name', query: 'offset=50' },
  { name: 'last login, newest first', query: 'sort=lastLogin&order=desc' },
  { name: 'name prefix "greta"', query: 'q=greta' },
  { name: 'mail fragment "novak.9"', query: 'q=novak.9' },
  { name: 'rare mail fragment ".4711@"', query: `q=${encodeURIComponent('.4711@')}` },
  { name: 'group filter "editors"', query: 'group=editors' },
  { name: 'search "greta", page 2', query: 'q=greta&offset=50' },
  { name: 'disabled accounts', query: 'disabled=true' },
];

/** The filter the server makes of a query (the contract's defaults). */
function filterOf(query: string): PeopleFilter {
  const p = new URLSearchParams(query);
  const flag = (k: string) => (p.has(k) ? p.get(k) === 'true' : undefined);
  return {
    q: p.get('q') ?? undefined,
    group: p.get('group') ?? undefined,
    disabled: flag('disabled'),
    blocked: flag('blocked'),
    sort: (p.get('sort') as PeopleFilter['sort'] | null) ?? 'name',
    order: (p.get('order') as PeopleFilter['order'] | null) ?? 'asc',
    offset: Number(p.get('offset') ?? 0),
    limit: 50,
  };
}

async function benchDialect(dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const dataDir = `/tmp/vitrine-bench-people-${dialect}`;
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const cluster = dialect === 'postgres' ? await startTestCluster() : undefined;
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  if (cluster) env.DATABASE_URL = cluster.url;
  try {
    writeBenchSettings(dataDir);
    let started = performance.now();
    await writeBenchAccounts(loadSettings(env), accounts);
    const written = (performance.now() - started) / 1000;
    addAccount(env, ADMIN, PASSWORD, ['admins']);

    // The database's share: the repository's query in this process, timed alike.
    const direct = new Map<string, Timing>();
    await withServices(loadSettings(env), async (services) => {
      for (const s of scenarios) {
        const filter = filterOf(s.query);
        const times: number[] = [];
        for (let i = 0; i < 5 + runs; i++) {
          started = performance.now();
          await services.repositories.people.list(filter, Date.now());
          if (i >= 5) times.push(performance.now() - started);
        }
        direct.set(s.name, summary(times));
      }
    });

    const server = await startServer(env);
    const client = httpTimer();
    const rows: string[] = [];
    try {
      const headers = await logIn(server.url, ADMIN, PASSWORD);
      for (const s of scenarios) {
        const url = `${server.url}${API}admin/people${s.query ? `?${s.query}` : ''}`;
        const check = await fetch(url, { headers });
        const body = (await check.json()) as { people?: unknown[] };
        if (check.status !== 200) throw new Error(`${s.name}: ${check.status} ${JSON.stringify(body)}`);
        const http = await client.time(url, runs, { headers, warmups: 5 });
        const db = direct.get(s.name)!;
        rows.push(
          `| ${s.name} | \`${s.query || '(none)'}\` | ${body.people?.length ?? 0} | ${ms(http.median)} | ${ms(http.p95)} | ${ms(db.median)} | ${http.p95 < GOAL_MS ? 'yes' : '**no**'} |`,
        );
        process.stderr.write(`${dialect}: ${s.name} ${ms(http.median)} ms (load ${load()})\n`);
      }
    } finally {
      client.close();
      server.stop();
      await server.exited;
    }
    return [
      `### ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${accounts.toLocaleString('en')} accounts (${runs} answers each; load average ${load()})`,
      '',
      `accounts written in ${written.toFixed(1)} s`,
      '',
      `| call | query | rows | HTTP median (ms) | HTTP p95 (ms) | repository median (ms) | p95 under ${GOAL_MS} ms |`,
      '|---|---|---:|---:|---:|---:|---|',
      ...rows,
      '',
    ];
  } finally {
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const lines: string[] = [];
for (const dialect of dialects) lines.push(...(await benchDialect(dialect)));
process.stdout.write(`${lines.join('\n')}\n`);
