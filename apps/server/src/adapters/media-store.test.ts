import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SharedFolderStore } from './media-store.ts';

describe('media store on a shared folder (docs/scale-out.md "Media store")', () => {
  let root: string;
  let store: SharedFolderStore;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'vitrine-store-'));
    store = new SharedFolderStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a file appears only whole: while it is being written, readers do not see it', async () => {
    const key = 'ab/abcdef/video.mp4';
    const seen: boolean[] = [];
    await store.write([key], async ([scratch]) => {
      for (let i = 0; i < 5; i++) {
        await appendFile(scratch, Buffer.alloc(1000, i));
        seen.push(await store.exists(key));
      }
    });
    expect(seen).toEqual([false, false, false, false, false]);
    expect(await store.exists(key)).toBe(true);
    expect(readFileSync(store.path(key)).length).toBe(5000);
    expect(readdirSync(path.join(root, 'ab/abcdef'))).toEqual(['video.mp4']);
  });

  it('scratch files name host and process and keep the extension, so writers on several machines never share one', async () => {
    const names: string[] = [];
    await Promise.all(
      [1, 2].map(() =>
        store.write(['x/thumb.webp'], async ([scratch]) => {
          names.push(path.basename(scratch));
          await appendFile(scratch, 'x');
        }),
      ),
    );
    expect(new Set(names).size).toBe(2);
    for (const n of names)
      expect(n).toMatch(new RegExp(`^thumb\\.${hostname()}\\.${process.pid}\\.[0-9a-f]{8}\\.tmp\\.webp$`));
    expect(readFileSync(store.path('x/thumb.webp'), 'utf8')).toBe('x');
  });

  it('a failed write leaves neither the file nor its scratch', async () => {
    await expect(
      store.write(['y/a.jpg', 'y/b.jpg'], async ([a]) => {
        await appendFile(a, 'half');
        throw new Error('converter crashed');
      }),
    ).rejects.toThrow('converter crashed');
    expect(await store.exists('y/a.jpg')).toBe(false);
    expect(readdirSync(path.join(root, 'y'))).toEqual([]);
  });

  it('reads a file whole, as a range and in place, and lists a folder without scratch files', async () => {
    const read = async (stream: AsyncIterable<Buffer>) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      return Buffer.concat(chunks).toString();
    };
    expect(await store.stat('c/page-2.jpg')).toBeUndefined();
    await store.write(['c/page-2.jpg'], async ([scratch]) => {
      await appendFile(scratch, '0123456789');
      expect(await store.list('c')).toEqual([]);
    });
    expect(await store.stat('c/page-2.jpg')).toMatchObject({ size: 10 });
    expect(await read((await store.open('c/page-2.jpg')).stream)).toBe('0123456789');
    const part = await store.open('c/page-2.jpg', { start: 3, end: 4 });
    expect([part.size, await read(part.stream)]).toEqual([10, '34']);
    // The folder's own file: nothing is copied.
    expect(await store.withLocalCopy('c/page-2.jpg', async (file) => file)).toBe(path.join(root, 'c/page-2.jpg'));
    expect(await store.list('c')).toEqual(['page-2.jpg']);
    expect(await store.list('none')).toEqual([]);
  });

  it('refuses keys that lead out of the store', () => {
    expect(() => store.path('../secret')).toThrow('outside the store');
    expect(store.path('ab/c.webp')).toBe(path.join(root, 'ab/c.webp'));
  });
});
