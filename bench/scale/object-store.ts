/**
 * The scale test's object store, in a process of its own so that its CPU is measured apart from the
 * load generator's: a real S3-protocol server (s3rver) on loopback with one empty bucket, as the
 * server's tests start it. Prints the environment that points a server process at the bucket as one
 * JSON line, then serves until it gets SIGTERM.
 */
import { startTestBucket } from '@vitrine/server/test/s3.ts';

const bucket = await startTestBucket('scale/');
process.stdout.write(`${JSON.stringify({ env: bucket.env, dir: bucket.dir })}\n`);
process.once('SIGTERM', () => {
  void bucket.close().then(() => process.exit(0));
});
