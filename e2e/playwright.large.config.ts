import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';
import { toursSeen } from './support/tour.ts';

// Journeys on a synthetic catalogue of 10,000 assets (`vitrine bench-data`), in a data folder of
// their own and on a port 50 above the demo journeys', so both can run side by side.
process.env.E2E_LARGE_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vitrine-e2e-large-'));
const port = Number(process.env.E2E_LARGE_PORT ?? Number(process.env.E2E_PORT ?? 18473) + 50);
const root = path.resolve(import.meta.dirname, '..');

export default defineConfig({
  ...base,
  testDir: './journeys',
  testMatch: '**/*.large.spec.ts',
  testIgnore: [],
  // One portal, on the folder store.
  projects: undefined,
  timeout: 120_000,
  use: { ...base.use, baseURL: `http://127.0.0.1:${port}`, storageState: toursSeen(`http://127.0.0.1:${port}`) },
  webServer: {
    command:
      'node scripts/build-server.mjs --if-stale && node apps/server/bin/vitrine.mjs bench-data --assets 10000 && node apps/server/bin/vitrine.mjs serve',
    cwd: root,
    url: `http://127.0.0.1:${port}/assetportal/api/health`,
    reuseExistingServer: false,
    timeout: 600_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_LARGE_DATA_DIR,
      LOG_LEVEL: 'warn',
      SETTINGS_FILE: path.join(import.meta.dirname, 'settings.json'),
    },
  },
});
