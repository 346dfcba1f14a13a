import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@vitrine/contract/endpoints';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadSettings, type Settings } from '../src/settings.ts';
import { createTestDatabase, type DatabaseConfig } from './databases.ts';

export interface TestApp {
  app: FastifyInstance;
  settings: Settings;
  close(): Promise<void>;
}

/**
 * The real server on a fresh data folder and database, driven over HTTP with inject(). `env` and
 * `settings` (written as the data folder's settings.json) let a test set what an operator would.
 */
export async function startTestApp(
  options: {
    dialect?: DatabaseConfig['dialect'];
    env?: Record<string, string>;
    settings?: object;
    onRoute?: BuildOptions['onRoute'];
    /** pino options, to read what the server logs; none by default. */
    logger?: BuildOptions['logger'];
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vitrine-data-'));
  if (options.settings) writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify(options.settings));
  const database = await createTestDatabase(options.dialect ?? 'sqlite');
  const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...options.env });
  settings.database = database.config;
  const app = await buildApp(settings, { logger: options.logger ?? false, onRoute: options.onRoute });
  return {
    app,
    settings,
    close: async () => {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Imports a folder of media into the test app and runs the derivative jobs it queued; answers the
 * asset ids by file name. `beforeJobs` runs between the two (e.g. to drop some jobs).
 */
export async function importWithDerivatives(
  t: TestApp,
  folder: string,
  beforeJobs?: () => Promise<void>,
): Promise<Record<string, number>> {
  await t.app.services.importer().importFolder(folder);
  await beforeJobs?.();
  const worker = t.app.services.jobWorker({ pollMs: 50 });
  await worker.drain();
  await worker.stop();
  const assets = await t.app.db.kysely.selectFrom('asset').select(['id', 'filename']).execute();
  return Object.fromEntries(assets.map((a) => [a.filename, a.id]));
}

/**
 * Calls of the test app as a browser makes them: `url` relative to the API (`share/open`) or a
 * root-relative path (`/media/…`), with the caller's headers.
 */
export function apiCaller(t: TestApp) {
  return (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url: url.startsWith('/') ? url : API_BASE_PATH + url, headers, payload });
}
