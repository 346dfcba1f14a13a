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

function newest(dir, skip = /node_modules|dist/) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.test(entry.name)) continue;
    const p = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(p, skip) : statSync(p).mtimeMs);
  }
  return latest;
}

export function npmPackagesMissing() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) return true;
  return statSync(path.join(root, 'package-lock.json')).mtimeMs > statSync(marker).mtimeMs;
}

export function webBuildMissing() {
  const index = path.join(root, 'apps/web/dist/index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return newest(path.join(root, 'apps/web/src')) > built || newest(path.join(root, 'packages/contract/src')) > built;
}

export function whatIsMissing() {
  const missing = [];
  const debs = missingDebianPackages();
  if (debs.length) missing.push(`Debian packages: ${debs.join(', ')}`);
  if (npmPackagesMissing()) missing.push('npm packages');
  if (webBuildMissing()) missing.push('web app build');
  return missing;
}

export function run(cmd, args, options = {}) {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...options });
}
