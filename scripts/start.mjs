// `npm start`: starts the portal (after `npm run setup`, which installs what is missing).
import { spawn } from 'node:child_process';
import { root, whatIsMissing } from './setup-lib.mjs';

const missing = whatIsMissing();
if (missing.length) {
  console.error(`Vitrine is not set up yet (missing: ${missing.join('; ')}). Run: npm run setup && npm start`);
  process.exit(1);
}
const child = spawn(process.execPath, ['apps/server/bin/vitrine.mjs', 'serve'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
