// The duplicates report on a large catalogue (issue #52): how long its first answer takes, how long a
// later page takes, and how long the server's event loop is held meanwhile, so that every other
// request still gets its answer while an editor looks for copies.
// Run: npx tsx bench/alike/report.ts --data-dir DIR [--rounds 3]
//      DIR: a SQLite portal with signatures, e.g. the one bench/search writes
//      (`npx tsx bench/insights/run.ts --part recording --dialect sqlite --data-dir DIR --rounds 0`).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { addAccount, logIn } from '../accounts.ts';
import { startServer } from '../watched-server.ts';

const { values: args } = parseArgs({
  options: { 'data-dir': { type: 'string' }, rounds: { type: 'string', default: '3' } },
});
const dataDir = args['data-dir'];
if (!dataDir || !existsSync(path.join(dataDir, 'vitrine.db')))
  throw new Error('--data-dir: a SQLite portal with signatures');
const env: Record<string, string> = { DATA_DIR: dataDir, SETTINGS_FILE: path.join(dataDir, 'settings.json') };
const EDITOR = 'bench-duplicates-editor';
const PASSWORD = 'bench duplicates secret';
// An editor of the catalogue's groups (the bench catalogues give their assets to users, public and admins).
try {
  addAccount(env, EDITOR, PASSWORD, ['users', 'editors']);
} catch {
  // Made by an earlier run.
}

const server = await startServer(env);
try {
  const headers = await logIn(server.url, EDITOR, PASSWORD);
  const ask = async (query: string) => {
    const t = performance.now();
    const res = await fetch(`${server.url}${API_BASE_PATH}alike/duplicates${query}`, { headers });
    const body = (await res.json()) as { total: number };
    if (res.status !== 200) throw new Error(`the report answered ${res.status}`);
    return { ms: performance.now() - t, total: body.total };
  };
  // The index loaded, so that the first report is not the first search.
  await fetch(`${server.url}${API_BASE_PATH}search?solr_q=*&solr_rows=1`, { headers });
  const rows: string[] = [];
  for (let round = 0; round < Number(args.rounds); round++) {
    // Each round on a changed catalogue: the report's groups are kept only while it is unchanged.
    if (round > 0) {
      const res = await fetch(`${server.url}${API_BASE_PATH}edit/bin`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ids: [String(round)] }),
      });
      await fetch(`${server.url}${API_BASE_PATH}edit/restore`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ids: [String(round)] }),
      });
      if (res.status !== 200) throw new Error(`edit/bin answered ${res.status}`);
    }
    await server.resetLoop();
    const first = await ask('?rows=20');
    const firstLoop = await server.loop();
    await server.resetLoop();
    const next = await ask('?start=20&rows=20');
    const nextLoop = await server.loop();
    rows.push(
      `| ${round + 1} | ${first.total.toLocaleString('en')} | ${first.ms.toFixed(0)} | ${firstLoop.maxMs.toFixed(0)} | ${next.ms.toFixed(0)} | ${nextLoop.maxMs.toFixed(0)} |`,
    );
  }
  process.stdout.write(
    [
      '| round | groups | first page (ms) | longest event-loop delay meanwhile (ms) | next page (ms) | longest event-loop delay meanwhile (ms) |',
      '|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  server.stop();
  await server.exited;
}
