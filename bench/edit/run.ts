/**
 * bench/edit: what an editor waits for (issue #49, docs/editing.md).
 *
 * 1. A bulk edit: per database, a synthetic catalogue of --assets (`vitrine bench-data`), --processes
 *    server processes on it (the compiled `vitrine serve`, event loop watched: serve-watched.mjs; on
 *    SQLite always one), an editor adds one new keyword to 5,000 assets with one `edit/apply`; the
 *    time until each process's search finds all of them, and each server's longest event-loop delay
 *    from the call until then.
 * 2. Uploads (--photos N, default 100; 0 leaves it out): N photos of 12 megapixels, written once
 *    into a folder, go into an empty portal twice: by `vitrine import` of the folder, and through
 *    the tus protocol on loopback (four at a time, as a browser does), each until search finds all N.
 *    The two times and their ratio (goal ≤ 1.2).
 *
 *   npx tsx bench/edit/run.ts --assets 1000000 [--dialect sqlite|postgres|both] [--processes 2] [--photos 100]
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { UPLOAD_ASSET_HEADER, UPLOAD_PATH } from '@vitrine/contract/edit';
import { writeBenchData } from '@vitrine/server/src/cli/bench-data.command.ts';
import { loadSettings } from '@vitrine/server/src/settings.ts';
import { startTestCluster } from '@vitrine/server/test/postgres-cluster.ts';
import { ensureServerBuild } from '../server-build.ts';
import { addAccount, logIn } from '../accounts.ts';
import { writeBenchSettings } from '../settings.ts';
import { startServer, type LoopDelay, type Server } from '../watched-server.ts';

const { values: args } = parseArgs({
  options: {
    assets: { type: 'string', default: '100000' },
    dialect: { type: 'string', default: 'both' },
    processes: { type: 'string', default: '2' },
    photos: { type: 'string', default: '100' },
    /** Bulk edits one after another on the same catalogue (each adds another word). */
    edits: { type: 'string', default: '1' },
    /** Serve the catalogue a former run wrote (SQLite) instead of writing it again. */
    reuse: { type: 'boolean', default: false },
  },
});
const assets = Number(args.assets);
const photos = Number(args.photos);
/** Assets one bulk edit changes. */
const EDITED = 5000;
const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'apps/server/bin/vitrine.mjs');
const EDITOR = 'bench-editor';
const PASSWORD = 'bench editor secret';
ensureServerBuild();

const dialects: ('sqlite' | 'postgres')[] =
  args.dialect === 'both' ? ['sqlite', 'postgres'] : [args.dialect === 'postgres' ? 'postgres' : 'sqlite'];

/** The editor's account on the portal of `env`. */
const addEditor = (env: Record<string, string>) => addAccount(env, EDITOR, PASSWORD, ['users', 'editors']);
/** The headers of the editor's calls. */
const logInEditor = (url: string) => logIn(url, EDITOR, PASSWORD);

async function call<T>(url: string, headers: Record<string, string>, what: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${API_BASE_PATH}${what}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const found = async (url: string, headers: Record<string, string>, q: string) =>
  (await call<{ response: { numFound: number } }>(url, headers, `search?solr_q=${encodeURIComponent(q)}&solr_rows=0`))
    .response.numFound;

/** Milliseconds from `since` until every server's search finds `want` assets for `q`. */
async function untilFound(
  servers: readonly Server[],
  headers: Record<string, string>,
  q: string,
  want: number,
  since: number,
  limitMs = 600_000,
): Promise<number[]> {
  return Promise.all(
    servers.map(async (s) => {
      for (;;) {
        if ((await found(s.url, headers, q)) >= want) return performance.now() - since;
        if (performance.now() - since > limitMs) throw new Error(`${s.url} did not find ${want} for ${q}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }),
  );
}

interface EditResult {
  dialect: string;
  processes: number;
  answerMs: number;
  visibleMs: number[];
  loops: LoopDelay[];
}

async function benchBulkEdit(dialect: 'sqlite' | 'postgres'): Promise<EditResult[]> {
  const dataDir = `/tmp/vitrine-bench-edit-${dialect}-${assets}`;
  const written = path.join(dataDir, 'bench-edit-written');
  const reuse = args.reuse && dialect === 'sqlite' && existsSync(written);
  if (!reuse) {
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
  }
  const cluster = dialect === 'postgres' ? await startTestCluster() : undefined;
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' };
  if (cluster) env.DATABASE_URL = cluster.url;
  writeBenchSettings(dataDir);
  const servers: Server[] = [];
  try {
    if (!reuse) {
      const started = Date.now();
      await writeBenchData(loadSettings(env), assets);
      process.stderr.write(`${dialect}: ${assets} assets written and indexed in ${(Date.now() - started) / 1000} s\n`);
      addEditor(env);
      writeFileSync(written, new Date().toISOString());
    }
    const processes = dialect === 'sqlite' ? 1 : Math.max(1, Number(args.processes));
    for (let i = 0; i < processes; i++) servers.push(await startServer(env));
    const headers = await logInEditor(servers[0]!.url);
    const ids: string[] = [];
    for (let start = 0; ids.length < EDITED; start += 1000) {
      const page = await call<{ response: { docs: { id: string }[] } }>(
        servers[0]!.url,
        headers,
        `search?solr_q=*&solr_rows=1000&solr_start=${start}&solr_sort=imp_date%20desc`,
      );
      if (page.response.docs.length === 0) throw new Error(`the catalogue shows fewer than ${EDITED} assets`);
      ids.push(...page.response.docs.map((d) => d.id));
    }
    const results: EditResult[] = [];
    for (let run = 0; run < Number(args.edits); run++) {
      const word = `benchedit${Date.now().toString(36)}`;
      for (const s of servers) await s.resetLoop();
      const t = performance.now();
      const answer = await call<{ changed: number }>(servers[0]!.url, headers, 'edit/apply', {
        ids: ids.slice(0, EDITED),
        changes: [{ field: 'keywords', op: 'add', values: [word] }],
      });
      const answerMs = performance.now() - t;
      if (answer.changed !== EDITED) throw new Error(`edit/apply changed ${answer.changed} assets, not ${EDITED}`);
      const visibleMs = await untilFound(servers, headers, `keywords:${word}`, EDITED, t);
      // The event loop is watched until the last process has caught up and a moment after.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const loops = await Promise.all(servers.map((s) => s.loop()));
      results.push({ dialect, processes, answerMs, visibleMs, loops });
    }
    return results;
  } finally {
    for (const s of servers) s.stop();
    cluster?.stop();
  }
}

/** N photos of 12 megapixels (4000×3000, JPEG quality 90, a different picture each), made once. */
async function photoFolder(n: number): Promise<string> {
  const folder = `/tmp/vitrine-bench-edit-photos-${n}`;
  if (existsSync(folder) && readdirSync(folder).length === n) return folder;
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const [w, h] = [4000, 3000];
  for (let i = 0; i < n; i++) {
    // A smooth picture with grain, closer to a photo's size than noise or a flat colour.
    const small = Buffer.alloc(40 * 30 * 3);
    for (let p = 0; p < small.length; p++) small[p] = (p * 7 + i * 31 + ((p * p) % 97)) % 256;
    await sharp(small, { raw: { width: 40, height: 30, channels: 3 } })
      .resize(w, h, { kernel: 'cubic' })
      .blur(3)
      .jpeg({ quality: 90 })
      .toFile(path.join(folder, `photo-${String(i + 1).padStart(3, '0')}.jpg`));
  }
  return folder;
}

/** An empty SQLite portal with the editor, served. */
async function emptyPortal(name: string): Promise<{ server: Server; env: Record<string, string> }> {
  const dataDir = `/tmp/vitrine-bench-edit-${name}`;
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  writeBenchSettings(dataDir);
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' };
  addEditor(env);
  return { server: await startServer(env), env };
}

/** One file through tus: the upload is made, then its bytes sent in one PATCH. */
async function tusUpload(
  url: string,
  headers: Record<string, string>,
  file: string,
  collection: number,
): Promise<string> {
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  const size = statSync(file).size;
  const created = await fetch(`${url}${API_BASE_PATH}${UPLOAD_PATH}`, {
    method: 'POST',
    headers: {
      ...headers,
      'tus-resumable': '1.0.0',
      'upload-length': String(size),
      'upload-metadata': `filename ${b64(path.basename(file))},collection ${b64(String(collection))}`,
    },
  });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location) throw new Error(`tus creation answered ${created.status}`);
  // The bytes go through node:http straight from the file: a browser sends from another machine,
  // while this client shares the server's two cores (fetch's stream bridging cost them 1.2–1.9 s of
  // CPU for 80 MB, about half the import's time).
  const patched = await new Promise<{ status: number; assetId: string | undefined; body: string }>(
    (resolve, reject) => {
      const req = request(
        new URL(location, url),
        {
          method: 'PATCH',
          headers: {
            ...headers,
            'tus-resumable': '1.0.0',
            'upload-offset': '0',
            'content-type': 'application/offset+octet-stream',
            'content-length': String(size),
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => {
            const id = res.headers[UPLOAD_ASSET_HEADER.toLowerCase()];
            resolve({ status: res.statusCode ?? 0, assetId: typeof id === 'string' ? id : undefined, body });
          });
          res.on('error', reject);
        },
      );
      pipeline(createReadStream(file), req).catch(reject);
    },
  );
  const { assetId } = patched;
  if (patched.status !== 204 || !assetId) throw new Error(`tus PATCH answered ${patched.status}: ${patched.body}`);
  return assetId;
}

async function benchUploads(n: number): Promise<{ importMs: number; uploadMs: number; megabytes: number }> {
  const folder = await photoFolder(n);
  const megabytes = readdirSync(folder).reduce((sum, f) => sum + statSync(path.join(folder, f)).size, 0) / 1e6;

  const viaImport = await emptyPortal('import');
  let importMs: number;
  try {
    const headers = await logInEditor(viaImport.server.url);
    const t = performance.now();
    const importing = spawn(process.execPath, [cli, 'import', folder], {
      env: { ...process.env, ...viaImport.env },
      stdio: 'ignore',
    });
    importMs = (await untilFound([viaImport.server], headers, '*', n, t))[0]!;
    await new Promise((resolve) => importing.once('exit', resolve));
  } finally {
    viaImport.server.stop();
  }

  const viaUpload = await emptyPortal('upload');
  let uploadMs: number;
  try {
    const url = viaUpload.server.url;
    const headers = await logInEditor(url);
    const collection = await call<{ id: number }>(url, headers, 'edit/collection', { name: 'bench uploads' });
    const files = readdirSync(folder).map((f) => path.join(folder, f));
    const t = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < files.length) await tusUpload(url, headers, files[next++]!, collection.id);
      }),
    );
    uploadMs = (await untilFound([viaUpload.server], headers, '*', n, t))[0]!;
  } finally {
    viaUpload.server.stop();
  }
  return { importMs: importMs!, uploadMs: uploadMs!, megabytes };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const edits: EditResult[] = [];
for (const dialect of dialects) edits.push(...(await benchBulkEdit(dialect)));
const lines = [
  `### A bulk edit of ${EDITED.toLocaleString('en')} assets in a catalogue of ${assets.toLocaleString('en')} (load average ${load()})`,
  '',
  '| database | processes | edit/apply answered (ms) | found by every process (ms) | longest event-loop delay (ms) | goal |',
  '|---|---:|---:|---:|---:|---|',
  ...edits.map(
    (e) =>
      `| ${e.dialect} | ${e.processes} | ${e.answerMs.toFixed(0)} | ${e.visibleMs.map((v) => v.toFixed(0)).join(' / ')} | ${e.loops.map((l) => l.maxMs.toFixed(1)).join(' / ')} | found ≤ ${assets >= 10_000_000 ? 3000 : 1000} ms, loop ≤ 50 ms |`,
  ),
];
if (photos > 0) {
  const u = await benchUploads(photos);
  lines.push(
    '',
    `### ${photos} photos of 12 megapixels (${u.megabytes.toFixed(0)} MB) into an empty portal, until search finds all (load average ${load()})`,
    '',
    '| way in | seconds |',
    '|---|---:|',
    `| \`vitrine import\` of the folder | ${(u.importMs / 1000).toFixed(1)} |`,
    `| uploads through tus on loopback, four at a time | ${(u.uploadMs / 1000).toFixed(1)} |`,
    `| uploads / import (goal ≤ 1.2) | ${(u.uploadMs / u.importMs).toFixed(2)} |`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
