import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@vitrine/contract/endpoints';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadSettings, type Settings } from '../src/settings.ts';
import { createTestDatabase, type DatabaseConfig } from './databases.ts';
import { startTestBucket, type TestBucket } from './s3.ts';

/** Where a test app keeps derivatives, conversions and uploads: DATA_DIR's folders, or a bucket of an S3 server. */
export type TestStore = 'folder' | 's3';
/** The media stores the API tests of media, downloads, zips and uploads run on. */
export const testStores = ['folder', 's3'] as const satisfies readonly TestStore[];
/** Both databases with media in folders, and the object store once (on SQLite: the store does not touch the database). */
export const storeSetups = [
  { dialect: 'sqlite', store: 'folder' },
  { dialect: 'postgres', store: 'folder' },
  { dialect: 'sqlite', store: 's3' },
] as const satisfies readonly { dialect: DatabaseConfig['dialect']; store: TestStore }[];

export interface TestApp {
  app: FastifyInstance;
  settings: Settings;
  /** The bucket of `store: 's3'`. */
  bucket?: TestBucket | undefined;
  close(): Promise<void>;
}

/**
 * The real server on a fresh data folder and database, driven over HTTP with inject(). `env` and
 * `settings` (written as the data folder's settings.json) let a test set what an operator would.
 */
export async function startTestApp(
  options: {
    dialect?: DatabaseConfig['dialect'];
    /** 's3': a bucket of an S3-protocol server started for this app on loopback. Default 'folder'. */
    store?: TestStore;
    /** A function: the environment made from the bucket's (`store: 's3'`), e.g. to name its address. */
    env?: Record<string, string> | ((bucketEnv: Record<string, string>) => Record<string, string>);
    settings?: object;
    onRoute?: BuildOptions['onRoute'];
    /** pino options, to read what the server logs; none by default. */
    logger?: BuildOptions['logger'];
    /** false: answers written by the compiled serializers, as in production (default: checked with zod). */
    checkAnswers?: boolean;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vitrine-data-'));
  if (options.settings) writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify(options.settings));
  const database = await createTestDatabase(options.dialect ?? 'sqlite');
  const bucket = options.store === 's3' ? await startTestBucket() : undefined;
  const env = typeof options.env === 'function' ? options.env(bucket?.env ?? {}) : options.env;
  const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...bucket?.env, ...env });
  settings.database = database.config;
  const app = await buildApp(settings, {
    logger: options.logger ?? false,
    onRoute: options.onRoute,
    checkAnswers: options.checkAnswers,
  });
  return {
    app,
    settings,
    bucket,
    close: async () => {
      await app.close();
      await bucket?.close();
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

/** Puts a file among the uploaded ones (logo, style sheet, tile images) as an upload leaves it, in either store. */
export async function putUpload(t: TestApp, key: string, content: Buffer | string): Promise<void> {
  await t.app.services.stores.uploads.write([key], ([scratch = '']) => writeFile(scratch, content));
}
