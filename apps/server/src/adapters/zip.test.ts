import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, truncateSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { crc32OfFile, planZip, writeZip, type ZipEntry, type ZipPlan } from './zip.ts';

/**
 * Bytes `start`…`end` of a planned zip as a client receives them: the reader copies each chunk,
 * because the writer reads into its blocks again once called back, and calls back a little later,
 * as a socket does, so chunks wait in the reader's buffer (where a block reused too early shows).
 */
async function zipBytes(plan: ZipPlan, start?: number, end?: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      setTimeout(done, 2);
    },
  });
  await writeZip(plan, out, start, end);
  await new Promise<void>((resolve) => out.end(resolve));
  return Buffer.concat(chunks);
}

describe('zip writer (stored entries, known length, byte ranges, zip64)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-zip-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const entry = async (name: string, content: string): Promise<ZipEntry> => {
    const file = path.join(dir, `${name.replace(/\W/g, '_')}.src`);
    writeFileSync(file, content);
    const sum = await crc32OfFile(file);
    return {
      name,
      path: file,
      size: sum.bytes,
      crc32: sum.crc32,
      modified: new Date(Date.UTC(2026, 10, 23, 12, 0, 0)),
    };
  };

  it('writes a zip that Info-ZIP tests clean, with UTF-8 names and the planned length', async () => {
    const entries = [await entry('Grüße.txt', 'hello '.repeat(1000)), await entry('empty.txt', '')];
    const plan = planZip(entries);
    const zip = await zipBytes(plan);
    expect(zip.length).toBe(plan.size);
    const file = path.join(dir, 'small.zip');
    writeFileSync(file, zip);
    expect(execFileSync('unzip', ['-t', file]).toString('utf8')).toContain('No errors detected');
    expect(execFileSync('zipinfo', ['-1', file]).toString('utf8').split('\n').filter(Boolean)).toEqual([
      'Grüße.txt',
      'empty.txt',
    ]);
  });

  it('produces any byte range without the bytes before it', async () => {
    const plan = planZip([await entry('a.txt', 'a'.repeat(5000)), await entry('b.txt', 'b'.repeat(7000))]);
    const whole = await zipBytes(plan);
    expect((await zipBytes(plan, 4990, 5200)).equals(whole.subarray(4990, 5201))).toBe(true);
  });

  it('gives the same bytes when files are larger than the blocks it reads into again', async () => {
    // 6 MiB and 3 MiB: more than the writer's blocks hold at once, so each block is reused.
    const files = [randomBytes(6 * 1024 * 1024 + 17), randomBytes(3 * 1024 * 1024 - 5)];
    const entries: ZipEntry[] = [];
    for (const [i, bytes] of files.entries()) {
      const file = path.join(dir, `large-${i}.bin`);
      writeFileSync(file, bytes);
      const sum = await crc32OfFile(file);
      entries.push({ name: `large-${i}.bin`, path: file, size: sum.bytes, crc32: sum.crc32, modified: new Date(0) });
    }
    const plan = planZip(entries);
    const whole = await zipBytes(plan);
    expect(whole.length).toBe(plan.size);
    const zip = path.join(dir, 'large.zip');
    writeFileSync(zip, whole);
    expect(execFileSync('unzip', ['-t', zip]).toString('utf8')).toContain('No errors detected');
    const from = 1024 * 1024 - 3;
    const to = 7 * 1024 * 1024 + 100;
    expect((await zipBytes(plan, from, to)).equals(whole.subarray(from, to + 1))).toBe(true);
  });

  it('stops with an error when a file shrank since the zip was planned, or the reader went away', async () => {
    const shrinking = await entry('shrinks.txt', 'x'.repeat(10_000));
    const plan = planZip([shrinking]);
    truncateSync(shrinking.path, 100);
    await expect(zipBytes(plan)).rejects.toThrow(/changed while it was being zipped/);

    const big = path.join(dir, 'gone.bin');
    writeFileSync(big, randomBytes(8 * 1024 * 1024));
    const gone = planZip([{ name: 'gone.bin', path: big, size: 8 * 1024 * 1024, crc32: 0, modified: new Date(0) }]);
    let received = 0;
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > 1024 * 1024) out.destroy();
        else setImmediate(done);
      },
    });
    await expect(writeZip(gone, out)).rejects.toThrow();
  });

  it('switches to zip64 for entries and offsets beyond 4 GiB', () => {
    // Sparse files: the layout is what is tested, not 5 GiB of reading.
    const big = path.join(dir, 'big.bin');
    closeSync(openSync(big, 'w'));
    truncateSync(big, 5 * 1024 ** 3);
    const entries: ZipEntry[] = [
      { name: 'big.bin', path: big, size: 5 * 1024 ** 3, crc32: 0, modified: new Date(0) },
      { name: 'after.bin', path: big, size: 10, crc32: 0, modified: new Date(0) },
    ];
    const plan = planZip(entries);
    const out = path.join(dir, 'big.zip');
    const fd = openSync(out, 'w');
    for (const s of plan.segments) if ('data' in s) writeSync(fd, s.data, 0, s.data.length, s.offset);
    closeSync(fd);
    truncateSync(out, plan.size);
    const listing = execFileSync('zipinfo', ['-l', out]).toString('utf8');
    expect(listing).toMatch(/5368709120\s+.*big\.bin/);
    expect(listing).toMatch(/\s10\s+.*after\.bin/);
    expect(listing).toContain('2 files');
  });
});
