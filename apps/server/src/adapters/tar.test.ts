import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTarGz, TarError, writeTarGz } from './tar.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-tar-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readAll(file: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for await (const entry of readTarGz(file)) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk);
    found[entry.name] = Buffer.concat(chunks).toString('utf8');
  }
  return found;
}

describe('gzipped tar archives', () => {
  it('reads back what it wrote, in order, and GNU tar reads it too', async () => {
    const big = path.join(dir, 'big.txt');
    writeFileSync(big, 'x'.repeat(70_000));
    const file = path.join(dir, 'a.tar.gz');
    await writeTarGz(file, [
      { name: 'manifest.json', size: 2, data: Buffer.from('{}') },
      { name: 'data/config-files/logo', size: 70_000, data: { file: big } },
      { name: 'empty', size: 0, data: Buffer.alloc(0) },
    ]);
    expect(await readAll(file)).toEqual({
      'manifest.json': '{}',
      'data/config-files/logo': 'x'.repeat(70_000),
      empty: '',
    });
    const out = path.join(dir, 'unpacked');
    mkdirSync(out);
    execFileSync('tar', ['-xzf', file, '-C', out]);
    expect(readFileSync(path.join(out, 'data/config-files/logo'), 'utf8')).toBe('x'.repeat(70_000));
  });

  it('reads an archive GNU tar wrote', async () => {
    const src = path.join(dir, 'src');
    mkdirSync(path.join(src, 'sub'), { recursive: true });
    writeFileSync(path.join(src, 'sub', 'a.txt'), 'alpha');
    const file = path.join(dir, 'gnu.tar.gz');
    execFileSync('tar', ['-czf', file, '-C', src, 'sub/a.txt']);
    expect(await readAll(file)).toEqual({ 'sub/a.txt': 'alpha' });
  });

  it('writes and reads names longer than 100 bytes, as an upload in a deep folder may have', async () => {
    const name = `data/config-files/${'d'.repeat(90)}/${'f'.repeat(90)}`;
    const file = path.join(dir, 'long.tar.gz');
    await writeTarGz(file, [{ name, size: 3, data: Buffer.from('abc') }]);
    expect(await readAll(file)).toEqual({ [name]: 'abc' });
    expect(execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim()).toBe(name);
  });

  it('refuses links and names outside the folder it unpacks into, and passes over folder entries', async () => {
    const src = path.join(dir, 'linked');
    mkdirSync(path.join(src, 'sub'), { recursive: true });
    writeFileSync(path.join(src, 'sub', 'a.txt'), 'alpha');
    symlinkSync('/etc/hostname', path.join(src, 'sub', 'host'));
    const folders = path.join(dir, 'folders.tar.gz');
    execFileSync('tar', ['-czf', folders, '-C', src, 'sub/a.txt', 'sub']);
    await expect(readAll(folders)).rejects.toThrow(
      new TarError('it holds a symbolic link (sub/host → /etc/hostname), which no backup holds'),
    );
    const plain = path.join(dir, 'plain.tar.gz');
    execFileSync('tar', ['-czf', plain, '-C', src, '--exclude', 'sub/host', 'sub']);
    expect(await readAll(plain)).toEqual({ 'sub/a.txt': 'alpha' });
    const climbing = path.join(dir, 'climbing.tar.gz');
    execFileSync('tar', ['-czPf', climbing, '-C', path.join(src, 'sub'), '../sub/a.txt']);
    await expect(readAll(climbing)).rejects.toThrow(/entry named \.\.\/sub\/a\.txt, outside the folder/);
    await expect(
      writeTarGz(path.join(dir, 'out.tar.gz'), [{ name: '../x', size: 0, data: Buffer.alloc(0) }]),
    ).rejects.toThrow(TarError);
  });

  it('rejects when the archive cannot be written, and when a file changed its size', async () => {
    const big = path.join(dir, 'big-for-failure.bin');
    writeFileSync(big, Buffer.alloc(4 << 20, 1));
    await expect(
      writeTarGz(path.join(dir, 'no-such-folder', 'x.tar.gz'), [{ name: 'big', size: 4 << 20, data: { file: big } }]),
    ).rejects.toThrow(/ENOENT/);
    await expect(
      writeTarGz(path.join(dir, 'grown.tar.gz'), [{ name: 'big', size: 1000, data: { file: big } }]),
    ).rejects.toThrow(new TarError('big changed its size while it was archived'));
  });

  it('says an archive cut short or corrupted is so', async () => {
    const file = path.join(dir, 'b.tar.gz');
    await writeTarGz(file, [{ name: 'n', size: 100_000, data: Buffer.alloc(100_000, 7) }]);
    const whole = readFileSync(file);
    writeFileSync(path.join(dir, 'cut.tar.gz'), whole.subarray(0, whole.length - 10));
    await expect(readAll(path.join(dir, 'cut.tar.gz'))).rejects.toThrow(
      new TarError('the archive ends early (it was cut short)'),
    );
    const flipped = Buffer.from(whole);
    flipped.writeUInt8(flipped.readUInt8(whole.length - 6) ^ 0xff, whole.length - 6); // in gzip's checksum of the whole
    writeFileSync(path.join(dir, 'flipped.tar.gz'), flipped);
    await expect(readAll(path.join(dir, 'flipped.tar.gz'))).rejects.toThrow(/its compressed data is corrupt/);
  });
});
