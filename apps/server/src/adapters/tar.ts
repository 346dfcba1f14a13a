import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import * as tarStream from 'tar-stream';

/**
 * Gzipped tar archives, written and read with tar-stream (a maintained tar library) over node:zlib,
 * as streams: any `tar` can list or unpack what is written here, and archives GNU tar or bsdtar wrote
 * read back. Backups hold only regular files; an archive naming anything else (a link, a device, a
 * path that leaves the folder it is unpacked into) is refused when read.
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
  const mtime = new Date();
  const pack = tarStream.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(file, { mode: 0o600 }));
  // A failed write (a full disk) ends whatever the loop waits for, rather than leaving it waiting.
  const unlessFailed = <T>(step: Promise<T>): Promise<T> => Promise.race([step, written.then(() => step)]);
  // Its failure is awaited below (or by a step); until then it must not count as unhandled.
  written.catch(() => undefined);
  try {
    let done = 0;
    for (const entry of entries) {
      if (!isSafeName(entry.name))
        throw new TarError(`The name ${entry.name} is not a relative path inside the archive`);
      let sink!: ReturnType<tarStream.Pack['entry']>;
      const entryDone = new Promise<void>((resolve, reject) => {
        sink = pack.entry(
          { name: entry.name, size: entry.size, mode: entry.mode ?? 0o600, mtime, type: 'file' },
          (err) => (err ? reject(err) : resolve()),
        );
      });
      entryDone.catch(() => undefined);
      // The entry's failure reaches its callback above; the stream's own error event would go unheard.
      sink.on('error', () => undefined);
      if (Buffer.isBuffer(entry.data)) {
        sink.end(entry.data);
      } else {
        let read = 0;
        for await (const chunk of createReadStream(entry.data.file, { highWaterMark: 1 << 20 })) {
          read += (chunk as Buffer).length;
          if (read > entry.size) break;
          onBytes(done + read);
          if (!sink.write(chunk as Buffer)) await unlessFailed(once(sink, 'drain'));
        }
        if (read !== entry.size) throw new TarError(`${entry.name} changed its size while it was archived`);
        sink.end(undefined);
      }
      await unlessFailed(entryDone);
      done += entry.size;
      onBytes(done);
    }
    pack.finalize();
  } catch (err) {
    pack.destroy(err as Error);
    await written.catch(() => undefined);
    throw err;
  }
  await written;
}

export interface TarEntry {
  name: string;
  size: number;
  /** The entry's bytes; read them all before asking for the next entry. */
  body: AsyncGenerator<Buffer>;
}

/** Whether an entry's name stays inside the folder it is unpacked into: relative, without `..`. */
function isSafeName(name: string): boolean {
  if (name === '' || name.includes('\0') || name.includes('\\') || path.posix.isAbsolute(name)) return false;
  const parts = name.replace(/\/$/, '').split('/');
  return parts.every((p) => p !== '' && p !== '..') && !/^[A-Za-z]:/.test(name);
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

/** What a failure of zlib or tar-stream means for the person restoring. */
function readProblem(err: unknown): TarError {
  if (err instanceof TarError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'Z_BUF_ERROR' || e.message === 'Unexpected end of data') {
    return new TarError('the archive ends early (it was cut short)');
  }
  if (typeof e.code === 'string' && e.code.startsWith('Z_')) {
    return new TarError(`its compressed data is corrupt (${e.message})`);
  }
  if (/header/i.test(e.message)) return new TarError('an entry header is not a valid tar header');
  return new TarError(`it cannot be read as a tar archive (${e.message})`);
}

const kinds: Partial<Record<tarStream.Header['type'], string>> = {
  symlink: 'a symbolic link',
  link: 'a hard link',
  'block-device': 'a device',
  'character-device': 'a device',
  fifo: 'a named pipe',
};

/**
 * The regular files of a gzipped tar, one after another; folder entries (as GNU tar writes them) are
 * passed over. A cut or damaged archive, and one holding links, devices or names outside the folder
 * it is unpacked into, ends in a TarError that says so; `onCompressedBytes` is told how much of the
 * file was read.
 */
export async function* readTarGz(
  file: string,
  onCompressedBytes: (read: number) => void = () => undefined,
): AsyncGenerator<TarEntry> {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  let compressed = 0;
  raw.on('data', (chunk) => onCompressedBytes((compressed += chunk.length)));
  const extract = tarStream.extract();
  // The library's own errors end the iteration below; this only keeps them from going unhandled.
  const unpacked = pipeline(raw, createGunzip(), extract).catch((err: unknown) => err);
  const entries = extract[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof entries.next>>;
      try {
        next = await entries.next();
      } catch (err) {
        throw readProblem(err);
      }
      if (next.done) break;
      const stream = next.value;
      const { name, size, type, linkname } = stream.header;
      if (!isSafeName(name)) throw new TarError(`it holds an entry named ${name}, outside the folder it unpacks into`);
      if (type !== 'file' && type !== 'contiguous-file' && type !== 'directory') {
        const kind = kinds[type] ?? `an entry of type ${type}`;
        throw new TarError(`it holds ${kind} (${name}${linkname ? ` → ${linkname}` : ''}), which no backup holds`);
      }
      async function* body(): AsyncGenerator<Buffer> {
        try {
          for await (const chunk of stream) yield chunk as Buffer;
        } catch (err) {
          throw readProblem(err);
        }
      }
      const entryBody = body();
      if (type !== 'directory') yield { name: name.replace(/^\.\//, ''), size, body: entryBody };
      // Whatever the caller did not read is skipped.
      for await (const skipped of entryBody) void skipped;
    }
    // The gzip checksum of the whole archive is checked once the last bytes went through.
    const failed = await unpacked;
    if (failed) throw readProblem(failed);
  } finally {
    raw.destroy();
    extract.destroy();
  }
}
