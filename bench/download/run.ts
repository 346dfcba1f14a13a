// Download benchmark (issue #10), each figure next to its baseline from the same run:
//  - zip streaming throughput of ≥ 1 GiB of media over HTTP against `cat` of the same files into the
//    same kind of consumer (target ≥ 0.9×);
//  - time to first byte of that zip (target ≤ 200 ms);
//  - web-JPEG conversion (conversion set 1: 2048 px, quality 85, sRGB, stripped) of the demo's large
//    photos against libvips' own CLI (`vipsthumbnail -s 2048x2048> -o %s.jpg[Q=85,strip]`), one lane per
//    CPU (target ≥ 0.8×).
// Run: npm run download --workspace bench   (builds the demo media into ~/.cache/vitrine first if missing)
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
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
const ROUNDS = 3;
const ZIP_FILES = 16;
const ZIP_FILE_BYTES = 64 * 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const work = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-download-'));

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

/**
 * Seconds of a shell pipeline writing into a pipe read by `cat > /dev/null` (the same consumer on
 * both sides), with the CPU seconds (user + system) of its processes and of this process (the
 * server, when curl reads from it). Spawned, not run synchronously: the server lives in this
 * process. On a machine shared with other work, CPU seconds per byte say what wall time cannot.
 */
function shell(script: string): Promise<{ s: number; cpuS: number }> {
  const start = performance.now();
  const own = process.cpuUsage();
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -o pipefail; TIMEFORMAT='%U %S'; { time { ${script}; } ; } 2>&1`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${script} exit ${code}`));
      const [user = 0, system = 0] = out.trim().split(/\s+/).slice(-2).map(Number);
      const server = process.cpuUsage(own);
      resolve({
        s: (performance.now() - start) / 1000,
        cpuS: user + system + (server.user + server.system) / 1e6,
      });
    });
  });
}

function catInto(files: string[]): Promise<{ bytes: number; s: number }> {
  const start = performance.now();
  const child = spawn('cat', files, { stdio: ['ignore', 'pipe', 'inherit'] });
  return drain(child.stdout, start);
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

// --- server ------------------------------------------------------------------------------------
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

let t = performance.now();
await askZip();
const firstCallS = (performance.now() - t) / 1000;

// Warm the page cache for both sides.
await catInto(files);

const zipRuns: number[] = [];
const catRuns: number[] = [];
const curlRuns: { s: number; cpuS: number }[] = [];
const catPipeRuns: { s: number; cpuS: number }[] = [];
const quoted = files.map((f) => `'${f}'`).join(' ');
const ttfb: number[] = [];
const callMs: number[] = [];
let zipBytes = 0;
for (let r = 0; r < ROUNDS; r++) {
  t = performance.now();
  const url = await askZip();
  callMs.push(performance.now() - t);
  const start = performance.now();
  const res = await fetch(url);
  if (!res.body) throw new Error('no body');
  // Node's fetch body is async-iterable; the DOM typings (loaded for the browser benchmarks) do not say so.
  const got = await drain(res.body as unknown as AsyncIterable<Uint8Array>, start);
  if (got.bytes !== Number(res.headers.get('content-length'))) throw new Error('length mismatch');
  zipBytes = got.bytes;
  zipRuns.push(got.s);
  ttfb.push(got.firstMs);
  catRuns.push((await catInto(files)).s);
  const next = await askZip();
  curlRuns.push(await shell(`curl -sf '${next}' | cat > /dev/null`));
  catPipeRuns.push(await shell(`cat ${quoted} | cat > /dev/null`));
}
await app.close();

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
const zipMbS = mb(zipBytes, median(zipRuns));
const catMbS = mb(totalBytes, median(catRuns));
const curlMbS = mb(zipBytes, median(curlRuns.map((r) => r.s)));
const catPipeMbS = mb(totalBytes, median(catPipeRuns.map((r) => r.s)));
// CPU seconds per GiB moved: the server, curl and the reading cat against the two cats.
const cpuPerGiB = (runs: { cpuS: number }[], bytes: number) => median(runs.map((r) => r.cpuS)) / (bytes / 2 ** 30);
const curlCpu = cpuPerGiB(curlRuns, zipBytes);
const catPipeCpu = cpuPerGiB(catPipeRuns, totalBytes);
const [load1 = 0, load5 = 0] = loadavg();
const vips = photos.length / median(vipsRuns);
const ours = photos.length / median(oursRuns);
console.log(
  `\nDownload benchmark, ${new Date().toISOString().slice(0, 10)}, ${cpus} CPUs, median of ${ROUNDS}, load ${load1.toFixed(1)} / ${load5.toFixed(1)} (1 / 5 min)`,
);
console.log(
  `zip of ${ZIP_FILES} files, ${(totalBytes / 2 ** 30).toFixed(2)} GiB stored (${zipBytes} bytes with headers)`,
);
console.table([
  {
    measure: 'zip streaming over HTTP (Node fetch reader), MB/s',
    vitrine: zipMbS.toFixed(0),
    baseline: `${catMbS.toFixed(0)} (cat | Node reader)`,
    ratio: `${(zipMbS / catMbS).toFixed(2)}×`,
    target: '≥ 0.9×',
  },
  {
    measure: 'zip streaming over HTTP (curl | cat > /dev/null), MB/s',
    vitrine: curlMbS.toFixed(0),
    baseline: `${catPipeMbS.toFixed(0)} (cat files | cat > /dev/null)`,
    ratio: `${(curlMbS / catPipeMbS).toFixed(2)}×`,
    target: '≥ 0.9×',
  },
  {
    measure: 'CPU seconds per GiB (curl: server + curl + cat; baseline: cat + cat)',
    vitrine: curlCpu.toFixed(2),
    baseline: `${catPipeCpu.toFixed(2)} (cat files | cat > /dev/null)`,
    ratio: `${(catPipeCpu / curlCpu).toFixed(2)}×`,
    target: '',
  },
  {
    measure: 'zip time to first byte, ms',
    vitrine: median(ttfb).toFixed(1),
    baseline: '',
    ratio: '',
    target: '≤ 200 ms',
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
    baseline: `${vips.toFixed(1)} (vipsthumbnail)`,
    ratio: `${(ours / vips).toFixed(2)}×`,
    target: '≥ 0.8×',
  },
]);
