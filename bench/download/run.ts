// Download benchmark (issue #10), each figure next to its baseline from the same run:
//  - zip streaming throughput of ≥ 1 GiB of media over HTTP against `cat` of the same files into the
//    same consumer (target ≥ 0.9×), with the page cache warm and, where this process may drop the
//    page cache (root), cold; and against nginx (`sendfile on`) serving the same files to the same
//    client, the static-file baseline of an HTTP server;
//  - time to first byte of that zip (target ≤ 200 ms);
//  - web-JPEG conversion (conversion set 1: 2048 px, quality 85, sRGB, stripped) of the demo's large
//    photos against libvips' own CLI (`vipsthumbnail -s 2048x2048> -o %s.jpg[Q=85,strip]`), one lane per
//    CPU (target ≥ 0.8×).
// Run: npm run download --workspace bench [-- --rounds N] [-- --install-nginx]
//   (builds the demo media into ~/.cache/vitrine first if missing; without nginx installed, and
//   without --install-nginx to install Debian's nginx-light, the nginx rows are skipped)
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, homedir, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { convertImage } from '@vitrine/server/src/adapters/media.ts';
import { buildApp } from '@vitrine/server/src/app.ts';
import { newAssetWrite } from '@vitrine/server/src/catalogue/new-asset.ts';
import { loadSettings } from '@vitrine/server/src/settings.ts';
import { run, timed } from '../lanes.ts';

const root = path.resolve(import.meta.dirname, '../..');
const cache = process.env.VITRINE_DEMO_MEDIA ?? path.join(homedir(), '.cache', 'vitrine', 'demo-media');
const cpus = availableParallelism();
const args = process.argv.slice(2);
const ROUNDS = Number(args[args.indexOf('--rounds') + 1]) || 3;
const ZIP_FILES = 16;
const ZIP_FILE_BYTES = 64 * 1024 * 1024;
const NGINX = '/usr/sbin/nginx';
const DROP_CACHES = '/proc/sys/vm/drop_caches';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const work = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-download-'));
const load1 = () => loadavg()[0] ?? 0;

async function writeRandom(file: string, bytes: number): Promise<void> {
  const out = createWriteStream(file);
  for (let written = 0; written < bytes; written += 4 * 1024 * 1024) {
    if (!out.write(randomBytes(Math.min(4 * 1024 * 1024, bytes - written)))) {
      await new Promise<void>((r) => out.once('drain', () => r()));
    }
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

/** Reads a stream to its end, counting bytes, and answers seconds and the time of the first byte. */
async function drain(
  body: AsyncIterable<Uint8Array>,
  start: number,
): Promise<{ bytes: number; firstMs: number; s: number }> {
  let bytes = 0;
  let firstMs = -1;
  for await (const chunk of body) {
    if (firstMs < 0) firstMs = performance.now() - start;
    bytes += chunk.length;
  }
  return { bytes, firstMs, s: (performance.now() - start) / 1000 };
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Pass {
  /** MB/s. */
  rate: number;
  /** CPU seconds per GiB moved, of every process on the path. */
  cpu: number;
  /** The server's part of it (this process, or nginx). */
  serverCpu: number;
}

/**
 * A shell pipeline that moves `bytes` into `cat > /dev/null` (the same consumer on every row), with
 * its CPU seconds: its own processes (bash's `time`), this process (the server, when curl reads
 * from it) and `server` (nginx). Spawned, not run synchronously: the server lives in this process.
 * On a machine shared with other work, CPU seconds per byte say what wall time cannot.
 */
function pipeline(script: string, bytes: number, server?: number): Promise<Pass> {
  const own = process.cpuUsage();
  const other = server ? cpuOf(server) : 0;
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -o pipefail; TIMEFORMAT='%U %S'; { time { ${script}; } ; } 2>&1`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${script} exit ${code}`));
      const s = (performance.now() - start) / 1000;
      const [user = 0, system = 0] = out.trim().split(/\s+/).slice(-2).map(Number);
      const inProcess = process.cpuUsage(own);
      const serverCpu = (inProcess.user + inProcess.system) / 1e6 + (server ? cpuOf(server) - other : 0);
      const gib = bytes / 2 ** 30;
      resolve({ rate: bytes / 1e6 / s, cpu: (user + system + serverCpu) / gib, serverCpu: serverCpu / gib });
    });
  });
}

function catInto(files: string[]): Promise<{ bytes: number; s: number }> {
  const start = performance.now();
  const child = spawn('cat', files, { stdio: ['ignore', 'pipe', 'inherit'] });
  return drain(child.stdout, start);
}

/** Empties the page cache, so the next pass reads from the disk; false where this process may not. */
function dropCaches(): boolean {
  try {
    execFileSync('sync');
    const fd = openSync(DROP_CACHES, 'w');
    try {
      writeFileSync(fd, '3\n');
    } finally {
      closeSync(fd);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * nginx serving the media folder with `sendfile on`, as one throwaway process (no master, no
 * daemon) with its own prefix and config; undefined, with the reason printed, when it is missing.
 */
function startNginx(dir: string): { pid: number; port: number; stop(): void } | undefined {
  if (!existsSync(NGINX) && args.includes('--install-nginx')) {
    console.log('Installing nginx (Debian package nginx-light) …');
    execFileSync('apt-get', ['install', '-y', 'nginx-light'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  if (!existsSync(NGINX)) {
    console.log(`${NGINX} is missing: the nginx rows are skipped (--install-nginx installs nginx-light).`);
    return undefined;
  }
  const prefix = path.join(work, 'nginx');
  mkdirSync(prefix);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const conf = path.join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  sendfile on;
  tcp_nopush on;
  server {
    listen 127.0.0.1:${port};
    root ${dir};
  }
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', conf, '-e', path.join(prefix, 'error.log')], {
    stdio: 'inherit',
  });
  if (!child.pid) throw new Error('nginx did not start');
  return { pid: child.pid, port, stop: () => void child.kill('SIGTERM') };
}

// --- media -------------------------------------------------------------------------------------
if (!existsSync(path.join(cache, '.demo-manifest.tsv'))) {
  console.log(`Building the demo media in ${cache} …`);
  execFileSync('bash', [path.join(root, 'scripts/demo-media.sh'), cache], { stdio: 'inherit' });
}
const photos = readdirSync(path.join(cache, 'photos'))
  .filter((f) => f.endsWith('.jpg'))
  .map((f) => path.join(cache, 'photos', f));

const mediaDir = path.join(work, 'media');
mkdirSync(mediaDir);
const files = Array.from({ length: ZIP_FILES }, (_, i) =>
  path.join(mediaDir, `clip-${String(i).padStart(2, '0')}.mp4`),
);
for (const f of files) await writeRandom(f, ZIP_FILE_BYTES);
const totalBytes = files.reduce((s, f) => s + statSync(f).size, 0);
const loadAtStart = loadavg();

// --- servers -----------------------------------------------------------------------------------
const settings = loadSettings({ DATA_DIR: path.join(work, 'data'), LOG_LEVEL: 'silent' });
const app = await buildApp(settings, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const saved = await app.services.repositories.catalogue.saveAssets(
  files.map((f, i) =>
    newAssetWrite({
      source_path: f,
      filename: path.basename(f),
      sha256: (i + 1).toString(16).padStart(64, 'a'),
      file_size: ZIP_FILE_BYTES,
      mime: 'video/mp4',
      format: 'mp4',
      asset_group: 'video',
    }),
  ),
);
const ids = saved.map((a) => a.id);
const zipQuery = `operation=zip&csetid=0&${ids.map((id) => `id=${id}`).join('&')}`;
const askZip = async (): Promise<string> => {
  const res = await fetch(`${base}/assetportal/api/download?${zipQuery}`);
  const body = (await res.json()) as { url?: string };
  if (!res.ok || !body.url) throw new Error(`zip call failed: ${res.status}`);
  return base + body.url;
};
const nginx = startNginx(mediaDir);
if (nginx) {
  // Until it answers.
  for (let i = 0; ; i++) {
    const ok = await fetch(`http://127.0.0.1:${nginx.port}/${path.basename(files[0] ?? '')}`, { method: 'HEAD' }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 50) throw new Error('nginx does not answer');
    await new Promise((r) => setTimeout(r, 100));
  }
}

let t = performance.now();
await askZip();
const firstCallS = (performance.now() - t) / 1000;

// Warm the page cache for the warm passes.
await catInto(files);
const canDrop = dropCaches();
if (!canDrop) console.log(`Cannot write ${DROP_CACHES} (not root?): the cold-cache rows are skipped.`);
await catInto(files);

const quoted = files.map((f) => `'${f}'`).join(' ');
const nginxUrls = nginx ? files.map((f) => `'http://127.0.0.1:${nginx.port}/${path.basename(f)}'`).join(' ') : '';
type Case = 'cat' | 'zip' | 'nginx';
const passes: Record<'warm' | 'cold', Record<Case, Pass[]>> = {
  warm: { cat: [], zip: [], nginx: [] },
  cold: { cat: [], zip: [], nginx: [] },
};
const fetchRuns: number[] = [];
const catNodeRuns: number[] = [];
const ttfb: number[] = [];
const callMs: number[] = [];
const loads: number[] = [load1()];
let zipBytes = 0;
for (let r = 0; r < ROUNDS; r++) {
  t = performance.now();
  const url = await askZip();
  callMs.push(performance.now() - t);
  // This reader runs in the server's own process and thread: it gives the time to the first byte;
  // its MB/s shares one thread between server and client.
  const start = performance.now();
  const res = await fetch(url);
  if (!res.body) throw new Error('no body');
  // Node's fetch body is async-iterable; the DOM typings (loaded for the browser benchmarks) do not say so.
  const got = await drain(res.body as unknown as AsyncIterable<Uint8Array>, start);
  if (got.bytes !== Number(res.headers.get('content-length'))) throw new Error('length mismatch');
  zipBytes = got.bytes;
  fetchRuns.push(got.s);
  ttfb.push(got.firstMs);
  catNodeRuns.push((await catInto(files)).s);
  for (const cache of canDrop ? (['warm', 'cold'] as const) : (['warm'] as const)) {
    const cases: [Case, string, number, number?][] = [
      ['cat', `cat ${quoted} | cat > /dev/null`, totalBytes],
      ['zip', `curl -sf '${await askZip()}' | cat > /dev/null`, zipBytes],
    ];
    if (nginx) cases.push(['nginx', `curl -sf ${nginxUrls} | cat > /dev/null`, totalBytes, nginx.pid]);
    for (const [name, script, bytes, server] of cases) {
      if (cache === 'cold') dropCaches();
      passes[cache][name].push(await pipeline(script, bytes, server));
    }
  }
  loads.push(load1());
}
nginx?.stop();
await app.close();
const loadAfterZip = loadavg();

// --- conversion --------------------------------------------------------------------------------
const out = path.join(work, 'converted');
mkdirSync(out);
// Conversion set 1 of the default settings: the web JPEG a visitor downloads.
const webJpeg = settings.file.conversionSets.find((set) => set.id === 1);
if (webJpeg?.format !== 'jpeg') throw new Error('the default conversion set 1 is not a web JPEG');
const jpeg = { ...webJpeg, format: webJpeg.format };
const vipsRuns: number[] = [];
const oursRuns: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  // vipsthumbnail: one process per CPU, each given its share of the photos in one invocation.
  const shares = Array.from({ length: cpus }, (_, k) => photos.filter((_, i) => i % cpus === k));
  vipsRuns.push(
    await timed(shares, cpus, (share) =>
      run('vipsthumbnail', [...share, '--size', '2048x2048>', '-o', path.join(out, 'vips-%s.jpg[Q=85,strip]')]),
    ),
  );
  oursRuns.push(
    await timed(photos, cpus, async (f, i) => void (await convertImage(f, path.join(out, `ours-${i}.jpg`), jpeg))),
  );
}
const photoMb = photos.reduce((s, f) => s + statSync(f).size, 0) / 1e6;
rmSync(work, { recursive: true, force: true });

const mb = (bytes: number, s: number) => bytes / 1e6 / s;
const fetchMbS = mb(zipBytes, median(fetchRuns));
const catNodeMbS = mb(totalBytes, median(catNodeRuns));
const vips = photos.length / median(vipsRuns);
const ours = photos.length / median(oursRuns);
const fmt = (xs: number[], digits = 0) =>
  xs.length ? `${median(xs).toFixed(digits)} (best ${Math.max(...xs).toFixed(digits)})` : 'skipped';
/** The median over rounds of each round's ratio (both sides measured back to back), and the ratio of the bests. */
const ratio = (ours: Pass[], theirs: Pass[]) => {
  if (!ours.length || !theirs.length) return '';
  const perRound = ours.map((p, i) => p.rate / (theirs[i]?.rate ?? Number.NaN));
  const best = Math.max(...ours.map((p) => p.rate)) / Math.max(...theirs.map((p) => p.rate));
  return `${median(perRound).toFixed(2)}× (bests ${best.toFixed(2)}×)`;
};
const met = (ours: Pass[], theirs: Pass[], target: number) => {
  if (!ours.length || !theirs.length) return 'skipped';
  const perRound = median(ours.map((p, i) => p.rate / (theirs[i]?.rate ?? Number.NaN)));
  return `≥ ${target}× ${perRound >= target ? 'met' : 'not met'}`;
};
const rows = [];
for (const cache of ['warm', 'cold'] as const) {
  const p = passes[cache];
  if (!p.zip.length) continue;
  rows.push(
    {
      measure: `zip, curl | cat > /dev/null, page cache ${cache}, MB/s`,
      vitrine: fmt(p.zip.map((x) => x.rate)),
      baseline: `${fmt(p.cat.map((x) => x.rate))} cat files | cat`,
      ratio: ratio(p.zip, p.cat),
      target: met(p.zip, p.cat, 0.9),
    },
    {
      measure: `  same, against nginx sendfile (same files, same client), MB/s`,
      vitrine: fmt(p.zip.map((x) => x.rate)),
      baseline: `${fmt(p.nginx.map((x) => x.rate))} nginx`,
      ratio: ratio(p.zip, p.nginx),
      target: p.nginx.length ? '(static-file baseline)' : 'skipped',
    },
    {
      measure: `  CPU s per GiB, page cache ${cache}: server + curl + cat (server alone)`,
      vitrine: `${median(p.zip.map((x) => x.cpu)).toFixed(2)} (${median(p.zip.map((x) => x.serverCpu)).toFixed(2)})`,
      baseline: `cat | cat ${median(p.cat.map((x) => x.cpu)).toFixed(2)}, nginx ${
        p.nginx.length
          ? `${median(p.nginx.map((x) => x.cpu)).toFixed(2)} (${median(p.nginx.map((x) => x.serverCpu)).toFixed(2)})`
          : '–'
      }`,
      ratio: '',
      target: '',
    },
  );
}
console.log(
  `\nDownload benchmark, ${new Date().toISOString().slice(0, 10)}, ${cpus} CPUs, ${ROUNDS} rounds: median (best); ` +
    `load average (1 min) at the start ${loadAtStart[0]?.toFixed(1)}, after each round ${loads
      .slice(1)
      .map((l) => l.toFixed(1))
      .join(' / ')}, after the zip rows ${loadAfterZip.map((l) => l.toFixed(1)).join(' / ')} (1 / 5 / 15 min)`,
);
console.log(
  `zip of ${ZIP_FILES} files, ${(totalBytes / 2 ** 30).toFixed(2)} GiB stored (${zipBytes} bytes with headers)`,
);
console.table([
  ...rows,
  {
    measure: 'zip, Node fetch reader in the server process, page cache warm, MB/s',
    vitrine: fetchMbS.toFixed(0),
    baseline: `${catNodeMbS.toFixed(0)} cat files → Node reader`,
    ratio: `${(fetchMbS / catNodeMbS).toFixed(2)}×`,
    target: `≥ 0.9× ${fetchMbS / catNodeMbS >= 0.9 ? 'met' : 'not met'}`,
  },
  {
    measure: 'zip time to first byte, ms',
    vitrine: fmt(ttfb, 1).replace('best', 'max'),
    baseline: '',
    ratio: '',
    target: `≤ 200 ms ${median(ttfb) <= 200 ? 'met' : 'not met'}`,
  },
  {
    measure: 'zip call (checksums known), ms',
    vitrine: median(callMs).toFixed(1),
    baseline: `first call: ${firstCallS.toFixed(2)} s (CRC-32 of every file)`,
    ratio: '',
    target: '',
  },
  {
    measure: `web JPEG 2048 px, photos/s (${photos.length} photos, ${photoMb.toFixed(0)} MB)`,
    vitrine: ours.toFixed(1),
    baseline: `${vips.toFixed(1)} vipsthumbnail`,
    ratio: `${(ours / vips).toFixed(2)}×`,
    target: `≥ 0.8× ${ours / vips >= 0.8 ? 'met' : 'not met'}`,
  },
]);
