import { existsSync, readFileSync } from 'node:fs';
import { appendFile, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestBucket, TEST_BUCKET, type TestBucket } from '../../test/s3.ts';
import { S3Bucket, type S3Store } from './s3-store.ts';

const text = async (stream: AsyncIterable<Buffer>) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString('latin1');
};

/**
 * A TCP relay to the S3 server that cuts every connection once `limit` bytes went up through it
 * altogether: an upload interrupted by the network, as far as the client can tell.
 */
async function cuttingRelay(port: number, limit: number): Promise<{ endpoint: string; close(): Promise<void> }> {
  let sent = 0;
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      if (sent > limit) {
        client.destroy();
        upstream.destroy();
      } else upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no port');
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

describe('media store on an S3-compatible object store (README "Object storage")', () => {
  let bucket: TestBucket;
  let store: S3Store;
  let direct: S3Bucket;
  /** Every object in the bucket, whatever its prefix. */
  const objects = async () => {
    const { client } = await direct.connect();
    return ((await client.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET }))).Contents ?? []).map((o) => o.Key);
  };

  beforeAll(async () => {
    bucket = await startTestBucket();
    direct = new S3Bucket({ ...bucket.settings, prefix: '' });
  });
  afterAll(() => bucket.close());
  beforeEach(async () => {
    const all = direct.store('');
    for (const key of await objects()) await all.remove(key ?? '');
    store = new S3Bucket(bucket.settings).store('derivatives/');
  });

  it('writes a file under its prefix, and reads it whole, as a range, and by a local copy', async () => {
    const key = 'ab/abcdef/thumb.webp';
    expect(await store.exists(key)).toBe(false);
    expect(await store.stat(key)).toBeUndefined();
    const made = await store.write([key], async ([scratch = '']) => {
      expect(scratch.endsWith('.webp')).toBe(true);
      await writeFile(scratch, '0123456789');
      return 'made';
    });
    expect(made).toBe('made');
    expect(await objects()).toEqual(['portal/derivatives/ab/abcdef/thumb.webp']);
    expect(await store.exists(key)).toBe(true);
    expect(await store.stat(key)).toMatchObject({ size: 10, modified: expect.any(Date) as Date });

    const whole = await store.open(key);
    expect(whole.size).toBe(10);
    expect(await text(whole.stream)).toBe('0123456789');
    const part = await store.open(key, { start: 2, end: 5 });
    expect(part.size).toBe(10);
    expect(await text(part.stream)).toBe('2345');

    let copy = '';
    const read = await store.withLocalCopy(key, async (file) => {
      copy = file;
      expect(file.endsWith('thumb.webp')).toBe(true);
      return readFileSync(file, 'latin1');
    });
    expect(read).toBe('0123456789');
    expect(existsSync(copy)).toBe(false);

    await store.remove(key);
    expect(await store.exists(key)).toBe(false);
    expect(await objects()).toEqual([]);
  });

  it('lists the files directly in a folder, not those of folders below it', async () => {
    await store.write(['sized/a.webp', 'sized/b.webp', 'sized/deeper/c.webp', 'top.css'], (scratch) =>
      Promise.all(scratch.map((s) => writeFile(s, 'x'))),
    );
    expect((await store.list('sized')).sort()).toEqual(['a.webp', 'b.webp']);
    expect(await store.list('')).toEqual(['top.css']);
    expect(await store.list('none')).toEqual([]);
  });

  it('a failing make leaves no object and no scratch file', async () => {
    let scratchFile = '';
    await expect(
      store.write(['y/a.jpg', 'y/b.jpg'], async ([a = '']) => {
        scratchFile = a;
        await appendFile(a, 'half');
        throw new Error('converter crashed');
      }),
    ).rejects.toThrow('converter crashed');
    expect(await objects()).toEqual([]);
    expect(existsSync(scratchFile)).toBe(false);
  });

  it('files of one write appear together: when one cannot be uploaded, those already up are removed', async () => {
    await expect(
      store.write(['z/a.jpg', 'z/b.jpg'], async ([a = '', b = '']) => {
        await writeFile(a, 'a');
        await writeFile(b, 'b');
        // The second file is gone before it is uploaded.
        await rm(b);
      }),
    ).rejects.toThrow(/ENOENT/);
    expect(await objects()).toEqual([]);
  });

  it('an upload cut off by the network leaves no visible object, and a later write succeeds', async () => {
    const port = Number(new URL(bucket.settings.endpoint ?? '').port);
    const relay = await cuttingRelay(port, 12 * 1024 * 1024);
    try {
      const cut = new S3Bucket({ ...bucket.settings, endpoint: relay.endpoint }).store('');
      // 20 MiB: uploaded in parts of 8 MiB, so the cut comes in the middle of a multipart upload.
      const big = Buffer.alloc(20 * 1024 * 1024, 7);
      await expect(cut.write(['v/video.mp4'], ([s = '']) => writeFile(s, big))).rejects.toThrow();
      const whole = new S3Bucket(bucket.settings).store('');
      expect(await whole.exists('v/video.mp4')).toBe(false);
      expect(await objects()).toEqual([]);
      await whole.write(['v/video.mp4'], ([s = '']) => writeFile(s, big));
      expect(await whole.stat('v/video.mp4')).toMatchObject({ size: big.length });
    } finally {
      await relay.close();
    }
  });

  it('refuses keys that lead out of its prefix', async () => {
    await expect(store.exists('../secret')).rejects.toThrow('outside the store');
    await expect(store.write(['/abs.jpg'], async () => undefined)).rejects.toThrow('outside the store');
  });
});
