// `npm start`: starts the portal (after `npm run setup`, which installs what is missing and builds the
// web app and the server): the compiled server, as `vitrine` runs it.
import { spawn, spawnSync } from 'node:child_process';
import { root, whatIsMissing } from './setup-lib.mjs';

const missing = whatIsMissing();
if (missing.length) {
  console.error(
    `Vitrine is not set up (missing or out of date: ${missing.join('; ')}). Run: npm run setup && npm start`,
  );
  process.exit(1);
}
// First start: an empty catalogue gets the demo catalogue (built from Debian packages and imported
// with its derivatives). A catalogue with assets is left alone; VITRINE_DEMO=0 skips this.
if (process.env.VITRINE_DEMO !== '0') {
  const demo = spawnSync(process.execPath, ['apps/server/bin/vitrine.mjs', 'demo', '--if-empty'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (demo.status !== 0) {
    console.error('The demo catalogue could not be built completely (see above); the portal starts anyway.');
  }
}
const child = spawn(process.execPath, ['apps/server/bin/vitrine.mjs', 'serve'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
