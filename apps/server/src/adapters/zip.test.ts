import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, truncateSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32OfFile, planZip, zipStream, type ZipEntry } from './zip.ts';

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
    const chunks: Buffer[] = [];
    for await (const c of zipStream(plan)) chunks.push(c as Buffer);
    const zip = Buffer.concat(chunks);
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
    const all: Buffer[] = [];
    for await (const c of zipStream(plan)) all.push(c as Buffer);
    const whole = Buffer.concat(all);
    const part: Buffer[] = [];
    for await (const c of zipStream(plan, 4990, 5200)) part.push(c as Buffer);
    expect(Buffer.concat(part).equals(whole.subarray(4990, 5201))).toBe(true);
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
