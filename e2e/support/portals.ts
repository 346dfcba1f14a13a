import path from 'node:path';
import { test } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The journeys run against two portals on the demo catalogue (e2e/playwright.config.ts): project
 * `folder` keeps made files (derivatives, conversions, uploads) in folders of its data folder, as by
 * default; project `object-store` keeps them in a bucket of an S3-protocol server on loopback
 * (README "Object storage"). Journeys tagged `@media` run on both.
 */
export type MediaStoreKind = 'folder' | 'object-store';

export const MEDIA_TAG = '@media';

/** The folder portal's port; the object store portal and its S3 server take the ports 2 and 3 above. */
export const folderPort = Number(process.env.E2E_PORT ?? 18473);
export const objectStorePort = folderPort + 2;
const s3Port = folderPort + 3;

/** The bucket of the object store portal, as its settings name it (README "Object storage"). */
export const bucketSettings = {
  S3_BUCKET: 'vitrine-e2e',
  S3_PREFIX: 'portal/',
  S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
  S3_REGION: 'us-east-1',
  S3_FORCE_PATH_STYLE: 'true',
  // s3rver's fixed key pair.
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
} as const;

export interface JourneyPortal {
  store: MediaStoreKind;
  origin: string;
  dataDir: string;
  /** The environment of a `vitrine` command on this portal's data (settings, data folder, bucket). */
  env: Record<string, string | undefined>;
}

/** A portal by the store of its media; its data folder comes from the config through the environment. */
export function portalOf(store: MediaStoreKind): JourneyPortal {
  const dataDir = store === 'folder' ? process.env.E2E_DATA_DIR : process.env.E2E_OBJECT_STORE_DATA_DIR;
  if (!dataDir) throw new Error('the journeys run through e2e/playwright.config.ts, which sets the data folders');
  return {
    store,
    origin: `http://127.0.0.1:${store === 'folder' ? folderPort : objectStorePort}`,
    dataDir,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      SETTINGS_FILE: path.join(root, 'e2e/settings.json'),
      LOG_LEVEL: 'silent',
      ...(store === 'object-store' ? bucketSettings : {}),
    },
  };
}

/** The portal of the journey running now: its project's. */
export function journeyPortal(): JourneyPortal {
  return portalOf(test.info().project.name === 'object-store' ? 'object-store' : 'folder');
}
