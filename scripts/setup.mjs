// `npm run setup`: installs what is missing on a Debian machine (apt packages, npm packages) and
// builds the web app and the server. Safe to run again: it only does what is not done yet.
import { existsSync } from 'node:fs';
import {
  missingDebianPackages,
  npmPackagesMissing,
  onPath,
  root,
  run,
  serverBuildMissing,
  webBuildMissing,
} from './setup-lib.mjs';

const started = Date.now();
const debs = missingDebianPackages();
if (debs.length) {
  const asRoot = process.getuid?.() === 0;
  const sudo = !asRoot && onPath('sudo') ? ['sudo'] : [];
  if (!asRoot && !sudo.length) {
    console.error(
      `Vitrine needs these Debian packages: ${debs.join(' ')}\nInstall them as root: apt-get install ${debs.join(' ')}`,
    );
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => (sudo.length ? run('sudo', ['apt-get', ...args], { env }) : run('apt-get', args, { env }));
  apt(['update', '-q']);
  apt(['install', '-y', '-q', '--no-install-recommends', ...debs]);
}

if (npmPackagesMissing()) {
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  // Native modules (better-sqlite3) compile against the local Node headers when they are there,
  // instead of downloading them.
  if (existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';
  run('npm', [existsSync(`${root}/package-lock.json`) ? 'ci' : 'install', '--no-audit', '--no-fund'], { env });
}

if (webBuildMissing()) run('npm', ['run', 'build:web']);
if (serverBuildMissing()) run('npm', ['run', 'build:server']);

console.log(`\nVitrine is set up (${((Date.now() - started) / 1000).toFixed(1)} s). Start it with: npm start`);
