// `npm run dev`: the server from its sources, restarted when they change (tsx watch), and the web
// app from Vite's dev server with hot reload, which passes API and media requests on to the server.
// Open the address Vite prints. The server listens on 127.0.0.1:8080, where Vite's proxy expects it
// (apps/web/vite.config.ts); DATA_DIR, DATABASE_URL and the other settings apply as for `npm start`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root, whatIsMissing } from './setup-lib.mjs';

// Vite serves the web app and tsx runs the server from their sources, so missing builds do not matter here.
const missing = whatIsMissing().filter((m) => m !== 'web app build' && m !== 'server build');
if (missing.length) {
  console.error(`Vitrine is not set up yet (missing: ${missing.join('; ')}). Run: npm run setup && npm run dev`);
  process.exit(1);
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    // The Swagger UI is off unless asked for (API_DOCS); while developing it is on.
    env: { API_DOCS: 'true', ...process.env, PORT: '8080', HOST: '127.0.0.1' },
  }),
  spawn(bin('vite'), [], { cwd: path.join(root, 'apps/web'), stdio: 'inherit' }),
];

// One ends, both end; Ctrl+C and SIGTERM reach both (each stops its own children and helpers).
let stopping = false;
const stop = (signal = 'SIGTERM') => {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
let running = children.length;
for (const child of children) {
  child.on('exit', (code) => {
    stop();
    if (--running === 0) process.exit(code ?? 0);
  });
}
