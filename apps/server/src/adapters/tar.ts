import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

/**
 * Gzipped tar archives (POSIX ustar), written and read here with node:zlib rather than by a library:
 * backups need only plain files, read and written as streams, and any `tar` can list or unpack them.
 * Sizes of 8 GiB and more are written in the base-256 form GNU tar and libarchive read.
 */
export interface TarSource {
  /** The name inside the archive: relative, `/`-separated. */
  name: string;
  size: number;
  /** The bytes: in memory, or the file they are read from. */
  data: Buffer | { file: string };
  mode?: number;
}

export class TarError extends Error {}

const BLOCK = 512;
const OCTAL_SIZE_MAX = 0o77777777777;

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

function header(entry: TarSource, mtime: number): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  if (name.length > 100) throw new TarError(`The name ${entry.name} is longer than 100 bytes`);
  const h = Buffer.alloc(BLOCK);
  name.copy(h, 0);
  h.write(octal(entry.mode ?? 0o600, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  if (entry.size <= OCTAL_SIZE_MAX) h.write(octal(entry.size, 12), 124, 'ascii');
  else {
    h[124] = 0x80;
    h.writeBigUInt64BE(BigInt(entry.size), 124 + 4);
  }
  h.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\u000000', 257, 'ascii');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/**
 * Writes `entries` in their order as a gzipped tar into `file` (mode 0600: a backup holds the whole
 * portal). `onBytes` is told the entry bytes written so far. A file whose size changed since the
 * entry was made is refused, so the archive never disagrees with its manifest.
 */
export async function writeTarGz(
  file: string,
  entries: TarSource[],
  onBytes: (written: number) => void = () => undefined,
): Promise<void> {
  const mtime = Date.now();
  async function* blocks(): AsyncGenerator<Buffer> {
    let done = 0;
    for (const entry of entries) {
      yield header(entry, mtime);
      if (Buffer.isBuffer(entry.data)) {
        yield entry.data;
      } else {
        let read = 0;
        for await (const chunk of createReadStream(entry.data.file, { highWaterMark: 1 << 20 })) {
          read += (chunk as Buffer).length;
          onBytes(done + read);
          yield chunk as Buffer;
        }
        if (read !== entry.size) throw new TarError(`${entry.name} changed its size while it was archived`);
      }
      done += entry.size;
      onBytes(done);
      yield padding(entry.size);
    }
    yield Buffer.alloc(2 * BLOCK);
  }
  await pipeline(Readable.from(blocks()), createGzip(), createWriteStream(file, { mode: 0o600 }));
}

export interface TarEntry {
  name: string;
  size: number;
  /** The entry's bytes; read them all before asking for the next entry. */
  body: AsyncGenerator<Buffer>;
}

function readSize(h: Buffer): number {
  if (h[124] & 0x80) return Number(h.readBigUInt64BE(124 + 4));
  return parseInt(h.toString('ascii', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8);
}

function readString(h: Buffer, start: number, length: number): string {
  const raw = h.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.toString('utf8', 0, end === -1 ? length : end);
}

/** Whether a file starts as gzip does. */
export async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * The regular files of a gzipped tar, one after another. A cut or damaged archive ends in a
 * TarError that says so; `onCompressedBytes` is told how much of the file was read.
 */
export async function* readTarGz(
  file: string,
  onCompressedBytes: (read: number) => void = () => undefined,
): AsyncGenerator<TarEntry> {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  let compressed = 0;
  raw.on('data', (chunk) => onCompressedBytes((compressed += chunk.length)));
  const gunzip = createGunzip();
  raw.on('error', (err) => gunzip.destroy(err));
  const chunks = raw.pipe(gunzip)[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let buffered: Buffer = Buffer.alloc(0);
  const more = async (): Promise<boolean> => {
    let next: IteratorResult<Buffer>;
    try {
      next = await chunks.next();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'Z_BUF_ERROR') throw new TarError('the archive ends early (it was cut short)');
      throw new TarError(`its compressed data is corrupt (${(err as Error).message})`);
    }
    if (next.done) return false;
    buffered = buffered.length ? Buffer.concat([buffered, next.value]) : next.value;
    return true;
  };
  const take = async (n: number): Promise<Buffer> => {
    while (buffered.length < n) {
      if (!(await more())) throw new TarError('the archive ends early (it was cut short)');
    }
    const taken = buffered.subarray(0, n);
    buffered = buffered.subarray(n);
    return taken;
  };
  try {
    for (;;) {
      const h = await take(BLOCK);
      if (h.every((b) => b === 0)) {
        // Read to the end, so that gzip checks its checksum of the whole archive.
        while (await more()) buffered = Buffer.alloc(0);
        return;
      }
      if (h.toString('ascii', 257, 262) !== 'ustar') throw new TarError('an entry header is not a tar header');
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i];
      if (sum !== parseInt(h.toString('ascii', 148, 156).replace(/\0.*$/s, '').trim(), 8)) {
        throw new TarError('an entry header does not match its checksum');
      }
      const size = readSize(h);
      const type = h.toString('ascii', 156, 157);
      const prefix = readString(h, 345, 155);
      const name = (prefix ? `${prefix}/` : '') + readString(h, 0, 100);
      let remaining = size;
      async function* body(): AsyncGenerator<Buffer> {
        while (remaining > 0) {
          if (buffered.length === 0 && !(await more())) {
            throw new TarError('the archive ends early (it was cut short)');
          }
          const piece = buffered.subarray(0, Math.min(remaining, buffered.length));
          buffered = buffered.subarray(piece.length);
          remaining -= piece.length;
          yield piece;
        }
      }
      if (type === '0' || type === '\0') yield { name, size, body: body() };
      // Whatever the caller did not read (and entries of other types) is skipped.
      for await (const skipped of body()) void skipped;
      await take((BLOCK - (size % BLOCK)) % BLOCK);
    }
  } finally {
    raw.destroy();
  }
}
