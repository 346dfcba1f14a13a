import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { bucketSettings, journeyPortal } from './portals.ts';

export type MediaFolder = 'derivatives' | 'conversions' | 'config-files';

/** The keys of the bucket under `portal/<folder>/<under>`, relative to it. */
async function bucketKeys(folder: MediaFolder, under: string): Promise<string[]> {
  const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: bucketSettings.S3_ENDPOINT,
    region: bucketSettings.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: bucketSettings.S3_ACCESS_KEY_ID, secretAccessKey: bucketSettings.S3_SECRET_ACCESS_KEY },
  });
  const prefix = `${bucketSettings.S3_PREFIX}${folder}/${under}`;
  const keys: string[] = [];
  try {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucketSettings.S3_BUCKET, Prefix: prefix, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key.slice(prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
  return keys;
}

/** The files under a folder, relative to it, with '/' between names. */
function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(folder, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/**
 * The made files of a kind (under a folder of it, e.g. a file's) the journey's portal keeps, where
 * its store keeps them: files of the data folder, or objects of the bucket. On the object store the
 * data folder must hold none of that kind: then whatever the portal served of it came from the bucket.
 */
export async function storedMedia(folder: MediaFolder, under = ''): Promise<string[]> {
  const portal = journeyPortal();
  const local = path.join(portal.dataDir, folder);
  if (portal.store === 'folder') return filesUnder(path.join(local, under));
  expect(filesUnder(local), `${folder} in the data folder of the portal on the object store`).toEqual([]);
  return bucketKeys(folder, under === '' ? '' : `${under}/`);
}

/**
 * The folder of the files made of a demo original (derivatives, conversions), found by its file name:
 * `<first two of its SHA-256>/<SHA-256>`, as the stores name them (derivatives/storage.ts).
 */
export function madeFilesFolder(filename: string): string {
  const demo = path.join(journeyPortal().dataDir, 'demo');
  const file = readdirSync(demo, { recursive: true, withFileTypes: true }).find(
    (e) => e.isFile() && e.name === filename,
  );
  if (!file) throw new Error(`${filename} is not among the demo files`);
  const sha = createHash('sha256')
    .update(readFileSync(path.join(file.parentPath, file.name)))
    .digest('hex');
  return `${sha.slice(0, 2)}/${sha}`;
}
