// What a fresh Debian machine needs for Vitrine, and how to get it. Plain Node (no dependencies),
// because it runs before `npm install`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

/** Debian packages and how to tell each is there. */
export const debianPackages = [
  { pkg: 'ffmpeg', present: () => onPath('ffmpeg') },
  { pkg: 'poppler-utils', present: () => onPath('pdftoppm') },
  { pkg: 'libvips-tools', present: () => onPath('vipsthumbnail') },
  { pkg: 'chromium', present: () => existsSync('/usr/bin/chromium') },
  { pkg: 'postgresql', present: () => postgresBin() !== undefined },
  { pkg: 'perl', present: () => onPath('perl') },
  // The journey of a zip through nginx with its default settings (e2e/journeys/zip-through-nginx.spec.ts).
  { pkg: 'nginx-light', present: () => existsSync('/usr/sbin/nginx') },
];

export function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

export function postgresBin() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const v = readdirSync(base)
    .filter((d) => existsSync(path.join(base, d, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return v ? path.join(base, v, 'bin') : undefined;
}

export function missingDebianPackages() {
  return debianPackages.filter((d) => !d.present()).map((d) => d.pkg);
}

/** The newest modification time under `p` (a file or a folder), leaving out what `skip` matches by name. */
function newest(p, skip = /^(node_modules|dist)$|\.test\.tsx?$/) {
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const name of readdirSync(p)) if (!skip.test(name)) latest = Math.max(latest, newest(path.join(p, name), skip));
  return latest;
}

/** Whether the build that wrote `made` (a file it writes last) is missing or older than any of `sources`. */
function buildMissing(made, sources) {
  if (!existsSync(made)) return true;
  const built = statSync(made).mtimeMs;
  return sources.some((source) => newest(path.join(root, source)) > built);
}

export function npmPackagesMissing() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) return true;
  return statSync(path.join(root, 'package-lock.json')).mtimeMs > statSync(marker).mtimeMs;
}

export function webBuildMissing() {
  return buildMissing(path.join(root, 'apps/web/dist/index.html'), ['apps/web/src', 'packages/contract/src']);
}

/** The compiled server (scripts/build-server.mjs); the file its build writes last. */
export const serverDist = path.join(root, 'apps/server/dist');

/** Whether the server's build in `out` (apps/server/dist unless given) is missing or older than its sources. */
export function serverBuildMissing(out = serverDist) {
  return buildMissing(path.join(out, 'build.json'), [
    'apps/server/src',
    'packages/contract/src',
    'packages/search-engine/src',
    'apps/server/tsconfig.build.json',
    'packages/contract/tsconfig.build.json',
    'packages/search-engine/tsconfig.build.json',
    'tsconfig.base.json',
    'scripts/build-server.mjs',
  ]);
}

export function whatIsMissing() {
  const missing = [];
  const debs = missingDebianPackages();
  if (debs.length) missing.push(`Debian packages: ${debs.join(', ')}`);
  if (npmPackagesMissing()) missing.push('npm packages');
  if (webBuildMissing()) missing.push('web app build');
  if (serverBuildMissing()) missing.push('server build');
  return missing;
}

export function run(cmd, args, options = {}) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...options });
}
