import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../src/settings.ts';

/** A bucket of a real S3-protocol server (s3rver, on a temporary folder) on loopback. */
export interface TestBucket {
  /** The environment that points the server at it (README "Object storage"). */
  env: Record<string, string>;
  settings: S3Settings;
  /** The folder the server keeps its objects in. */
  dir: string;
  /** The requests the server was sent, as `METHOD /path?query`, oldest first. */
  requests: string[];
  close(): Promise<void>;
}

export const TEST_BUCKET = 'vitrine-test';

/** Starts an S3-protocol server on a random loopback port with one empty bucket. */
export async function startTestBucket(prefix = 'portal/'): Promise<TestBucket> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const { port } = await server.run();
  const requests: string[] = [];
  server.httpServer?.on('request', (req: { method?: string; url?: string }) =>
    requests.push(`${req.method ?? ''} ${req.url ?? ''}`),
  );
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed key pair.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    env: {
      S3_BUCKET: TEST_BUCKET,
      S3_PREFIX: prefix,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    settings: {
      bucket: TEST_BUCKET,
      prefix,
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials,
      presignSeconds: 0,
    },
    dir,
    requests,
    close: async () => {
      // Clients keep connections alive; the server would wait for them.
      server.httpServer?.closeAllConnections();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
