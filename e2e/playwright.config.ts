import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { folderPort as port, MEDIA_TAG, portalOf } from './support/portals.ts';
import { toursSeen } from './support/tour.ts';

// The config is read by the runner and again by each worker; the data folders (and the S3 server's
// folder) are made once and handed to the workers through the environment.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vitrine-e2e-'));
process.env.E2E_OBJECT_STORE_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vitrine-e2e-object-store-'));
process.env.E2E_BUCKET_DIR ??= mkdtempSync(path.join(tmpdir(), 'vitrine-e2e-bucket-'));
const root = path.resolve(import.meta.dirname, '..');
// One worker per portal: the journeys of one portal change its stored config and catalogue, so
// they run one after the other, while the two portals' journeys run side by side.
const project = (store: 'folder' | 'object-store') => {
  const { origin } = portalOf(store);
  return { name: store, workers: 1, use: { baseURL: origin, storageState: toursSeen(origin) } };
};
// Journey files that need no media store of their own (they look at screens, they make no files)
// run on the object store portal only: the folder portal has every other journey, so the two
// workers finish close together (the folder portal's alone took 15 minutes, the other's two; once
// axe ran in the page, the accessibility journeys took half their time, and login and focus moved;
// with the folder's journeys at 1,230 s against 927 s, dashboard, first-paint, phones and tour
// moved, 141 s; people and alike, 55 s each, went to the object store's at 1,178 s against 1,069 s). Files that make files in the store (a conversion downloaded, a config file
// uploaded, as keyboard, shell and account do) stay, so the folder store keeps those journeys.
const onTheObjectStore = [
  'accessibility.spec.ts',
  'alike.spec.ts',
  'dashboard.spec.ts',
  'first-paint.spec.ts',
  'focus.spec.ts',
  'layout-stability.spec.ts',
  'list-view.spec.ts',
  'login.spec.ts',
  'model-viewer.spec.ts',
  'people.spec.ts',
  'phones.spec.ts',
  'search.spec.ts',
  'tour.spec.ts',
];
// A journey's grep title starts with its project and its file (relative to testDir).
const fileTitle = (file: string) => new RegExp(`^[\\w-]+ ${file.replaceAll('.', '\\.')} `);

export default defineConfig({
  testDir: './journeys',
  // The 10,000-asset journeys have their own config (playwright.large.config.ts).
  testIgnore: '**/*.large.spec.ts',
  outputDir: './test-results',
  timeout: 30_000,
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: process.env.E2E_JSON ? [['list'], ['json', { outputFile: process.env.E2E_JSON }]] : [['list']],
  // Every journey (but those of `onTheObjectStore`) runs on the portal that keeps made files in
  // folders of its data folder; those tagged @media (downloads, previews, zips, uploads) run again on
  // a portal that keeps them in a bucket of an S3 server on loopback, started by the worker of that
  // project (support/portals.ts).
  projects: [
    { ...project('folder'), grepInvert: onTheObjectStore.map(fileTitle) },
    { ...project('object-store'), grep: [new RegExp(MEDIA_TAG), ...onTheObjectStore.map(fileTitle)] },
  ],
  use: {
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
