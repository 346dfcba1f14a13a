import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { toursSeen } from './support/tour.ts';

// The config is read by the runner and again by each worker; the data folder is made once and
// handed to the workers through the environment.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vitrine-e2e-'));
const port = Number(process.env.E2E_PORT ?? 18473);
const root = path.resolve(import.meta.dirname, '..');

export default defineConfig({
  testDir: './journeys',
  // The 10,000-asset journeys have their own config (playwright.large.config.ts).
  testIgnore: '**/*.large.spec.ts',
  outputDir: './test-results',
  timeout: 30_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.E2E_JSON ? [['list'], ['json', { outputFile: process.env.E2E_JSON }]] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    storageState: toursSeen(`http://127.0.0.1:${port}`),
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // The journeys run the compiled server, as production does (built first when it is older than
    // its sources), on the demo catalogue, built and imported (with derivatives) before serving, as
    // `npm start` does on a first start; the Debian packages it comes from stay cached.
    command:
      'node scripts/build-server.mjs --if-stale && node apps/server/bin/vitrine.mjs demo --if-empty && node apps/server/bin/vitrine.mjs serve',
    cwd: root,
    url: `http://127.0.0.1:${port}/assetportal/api/health`,
    reuseExistingServer: false,
    // The server stops as in production (jobs finished, helpers ended, database closed); the whole
    // process group is killed only if it has not stopped after ten seconds.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    timeout: 600_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      // Groups the journeys need beside the defaults (e.g. an admin without portal access).
      SETTINGS_FILE: path.join(import.meta.dirname, 'settings.json'),
    },
  },
});
