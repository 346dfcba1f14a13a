import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver, { type S3rverMiddleware } from 's3rver';
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
  // Before s3rver's own routes, which answer these two calls with 405.
  server.middleware.unshift(multipartListing(server));
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

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;

/**
 * The two calls of S3's multipart uploads that s3rver lacks and resumable uploads (@tus/s3-store)
 * make: ListParts (`GET /bucket/key?uploadId=…`) and AbortMultipartUpload (`DELETE …?uploadId=…`),
 * answered from the parts s3rver keeps on its disk, as S3 answers them (NoSuchUpload for an upload
 * completed or aborted).
 */
function multipartListing(server: S3rver): S3rverMiddleware {
  return async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    const listing = ctx.method === 'GET' && ctx.query.partNumber === undefined;
    if (typeof uploadId !== 'string' || !(listing || ctx.method === 'DELETE')) return next();
    const [bucket = '', ...key] = ctx.path.slice(1).split('/');
    const dir = path.join(server.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    if (!/^[0-9a-f]+$/.test(uploadId) || !existsSync(dir)) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = xml(
        `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${uploadId}</UploadId></Error>`,
      );
      return;
    }
    if (ctx.method === 'DELETE') {
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const numbers = (await readdir(dir))
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (n) => {
        const [info, md5] = await Promise.all([
          stat(path.join(dir, String(n))),
          readFile(path.join(dir, `${n}.md5`), 'utf8'),
        ]);
        return `<Part><PartNumber>${n}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${info.size}</Size></Part>`;
      }),
    );
    ctx.status = 200;
    ctx.type = 'application/xml';
    ctx.body = xml(
      `<ListPartsResult><Bucket>${bucket}</Bucket><Key>${key.join('/')}</Key><UploadId>${uploadId}</UploadId>` +
        `<MaxParts>1000</MaxParts><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
    );
  };
}
