// Catalogue benchmark (issue #3): thumbnail throughput of Vitrine's sharp path next to libvips' own
// vipsthumbnail on the same photos, and whole-import throughput of the demo catalogue.
// Run: npm run bench:import --workspace bench   (builds the demo media into ~/.cache/vitrine first if missing)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { makeImageDerivatives, makeThumbnail } from '@vitrine/server/src/adapters/media.ts';
import { writeDemoSidecars } from '@vitrine/server/src/catalogue/demo-catalogue.ts';
import { openServices } from '@vitrine/server/src/services.ts';
import { loadSettings } from '@vitrine/server/src/settings.ts';
import { run, timed } from '../lanes.ts';

const root = path.resolve(import.meta.dirname, '../..');
const cache = process.env.VITRINE_DEMO_MEDIA ?? path.join(homedir(), '.cache', 'vitrine', 'demo-media');
const cpus = availableParallelism();
const BOX = 400;
const ROUNDS = 3;

if (!existsSync(path.join(cache, '.demo-manifest.tsv'))) {
  console.log(`Building the demo media in ${cache} …`);
  execFileSync('bash', [path.join(root, 'scripts/demo-media.sh'), cache], { stdio: 'inherit' });
}
await writeDemoSidecars(cache);

const photos = readdirSync(path.join(cache, 'photos'))
  .filter((f) => f.endsWith('.jpg'))
  .map((f) => path.join(cache, 'photos', f));
const photoMb = photos.reduce((s, f) => s + statSync(f).size, 0) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const out = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-'));
// vipsthumbnail: one process per CPU, each given its share of the photos in one invocation.
const vipsRuns: number[] = [];
const sharpRuns: number[] = [];
const fullRuns: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const shares = Array.from({ length: cpus }, (_, k) => photos.filter((_, i) => i % cpus === k));
  vipsRuns.push(
    await timed(shares, cpus, (share) =>
      run('vipsthumbnail', [...share, '--size', String(BOX), '-o', path.join(out, 'vips-%s.jpg[Q=80]')]),
    ),
  );
  sharpRuns.push(await timed(photos, cpus, (f, i) => makeThumbnail(f, path.join(out, `sharp-${i}.jpg`), BOX)));
  fullRuns.push(
    await timed(photos, cpus, async (f, i) => {
      await makeImageDerivatives(f, {
        thumb: path.join(out, `t-${i}.webp`),
        thumbSmall: path.join(out, `s-${i}.webp`),
        preview: path.join(out, `p-${i}.webp`),
      });
    }),
  );
}
const vips = photos.length / median(vipsRuns);
const ours = photos.length / median(sharpRuns);
const full = photos.length / median(fullRuns);

// Whole import of the demo catalogue into a fresh SQLite database, then its derivative jobs.
const dataDir = path.join(out, 'data');
mkdirSync(dataDir);
const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const services = await openServices(settings);
const summary = await services.importer().importFolder(cache);
const jobsStart = performance.now();
const worker = services.jobWorker({ pollMs: 50 });
await worker.drain();
await worker.stop();
const jobSeconds = (performance.now() - jobsStart) / 1000;
await services.close();
rmSync(out, { recursive: true, force: true });

const mb = summary.bytes / 1e6;
const f1 = (n: number) => n.toFixed(1);
console.log(
  `\nCatalogue benchmark — ${cpus} CPUs, ${photos.length} demo photos (${f1(photoMb)} MB), median of ${ROUNDS} runs\n`,
);
console.log('| measure | Vitrine | baseline (same run) | ratio |');
console.log('|---|---|---|---|');
console.log(
  `| thumbnail ${BOX} px JPEG, photos/s | ${f1(ours)} (sharp) | ${f1(vips)} (vipsthumbnail) | ${(ours / vips).toFixed(2)}× |`,
);
console.log(`| all picture derivatives (preview 1600 + thumb 800×500 WebP + ThumbHash), photos/s | ${f1(full)} | | |`);
console.log(
  `| import of the demo catalogue (hash, probe, metadata, write) | ${summary.files} files, ${f1(mb)} MB in ${f1(summary.seconds)} s: ` +
    `${f1(summary.files / summary.seconds)} files/s, ${f1(mb / summary.seconds)} MB/s | | |`,
);
console.log(
  `| derivative jobs of the demo catalogue (incl. web MP4, PDF pages, 3D views) | ${f1(jobSeconds)} s: ${f1(summary.files / jobSeconds)} files/s | | |`,
);
console.log(
  `| import + derivatives | ${f1(summary.seconds + jobSeconds)} s: ${f1(summary.files / (summary.seconds + jobSeconds))} files/s, ` +
    `${f1(mb / (summary.seconds + jobSeconds))} MB/s | | |`,
);
if (summary.failed.length) console.log(`\nfailed: ${summary.failed.map((f) => `${f.file} (${f.reason})`).join('; ')}`);
