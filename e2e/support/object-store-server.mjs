// The journeys' portal on an object store (project `object-store` of e2e/playwright.config.ts,
// started by e2e/support/portals.ts): an S3-protocol server (s3rver) on loopback with the bucket the
// S3_* settings name, the demo catalogue imported into the portal (its derivatives and uploads go to
// the bucket), then `vitrine serve`.
//
// The demo's originals are copied from the folder journeys' data folder (E2E_DATA_DIR) when they
// were built there already: originals stay where they were imported from, so they are no part of
// what the bucket holds, and building them again would only cost time.
//
// SIGTERM (or SIGINT) is handed to the command running, so the portal stops as in production; the
// S3 server is closed once it has ended.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import S3rver from 's3rver';

const root = path.resolve(import.meta.dirname, '../..');
const { S3_BUCKET, S3_ENDPOINT, DATA_DIR, E2E_BUCKET_DIR, E2E_DATA_DIR } = process.env;
if (!S3_BUCKET || !S3_ENDPOINT || !DATA_DIR || !E2E_BUCKET_DIR) {
  console.error('object-store-server: S3_BUCKET, S3_ENDPOINT, DATA_DIR and E2E_BUCKET_DIR must be set');
  process.exit(2);
}

const s3 = new S3rver({
  address: '127.0.0.1',
  port: Number(new URL(S3_ENDPOINT).port),
  silent: true,
  directory: E2E_BUCKET_DIR,
  configureBuckets: [{ name: S3_BUCKET }],
});
await s3.run();

let child;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    child?.kill(signal);
  });
}

/** Runs `vitrine …args`; answers its exit code. */
function vitrine(...args) {
  return new Promise((resolve) => {
    child = spawn(process.execPath, ['apps/server/bin/vitrine.mjs', ...args], { cwd: root, stdio: 'inherit' });
    child.once('error', () => resolve(1));
    child.once('exit', (code, signal) => {
      child = undefined;
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

const builtDemo = E2E_DATA_DIR && path.join(E2E_DATA_DIR, 'demo');
const demo = path.join(DATA_DIR, 'demo');
if (builtDemo && existsSync(path.join(builtDemo, '.demo-manifest.tsv')) && !existsSync(demo)) {
  mkdirSync(DATA_DIR, { recursive: true });
  cpSync(builtDemo, demo, { recursive: true });
}
let code = stopping ? 128 : await vitrine('demo', '--if-empty');
if (code === 0 && !stopping) code = await vitrine('serve');
// The portal's SDK client kept connections alive; the S3 server would wait for them.
s3.httpServer?.closeAllConnections();
await s3.close();
process.exit(code);
