import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { crc32 as zlibCrc32 } from 'node:zlib';

/**
 * The zip format, written here rather than by a library, because downloads need what zip libraries
 * do not give: the whole layout (and so `Content-Length`) is known before the first byte, the same
 * entries always give the same bytes, and any byte range can be produced without producing what
 * comes before it. Entries are stored, not deflated (media are compressed already), named in UTF-8,
 * and switch to zip64 where a size or offset does not fit 32 bits.
 */
export interface ZipEntry {
  /** The name inside the zip; the caller makes it safe and unique. */
  name: string;
  /** The local file the entry's bytes come from; with `open`, only what the errors call it. */
  path: string;
  /** Reads bytes of the entry from elsewhere (an object of the media store) instead of `path`. */
  open?: (range: { start: number; end: number }) => Promise<Readable>;
  size: number;
  crc32: number;
  modified: Date;
}

type Source = Pick<ZipEntry, 'path' | 'open'>;
type Segment = { offset: number; length: number } & ({ data: Buffer } | Source);

export interface ZipPlan {
  size: number;
  segments: Segment[];
}

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const UTF8_NAMES = 0x0800;
const UNIX_FILE = (0o100644 << 16) >>> 0;

/** MS-DOS date and time, read as UTC so the bytes do not depend on the server's time zone. */
function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.min(Math.max(d.getUTCFullYear(), 1980), 2107);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

function zip64Extra(values: number[]): Buffer {
  if (!values.length) return Buffer.alloc(0);
  const b = Buffer.alloc(4 + 8 * values.length);
  b.writeUInt16LE(0x0001, 0);
  b.writeUInt16LE(8 * values.length, 2);
  values.forEach((v, i) => b.writeBigUInt64LE(BigInt(v), 4 + 8 * i));
  return b;
}

/**
 * A local file header (before the entry's bytes) or its central directory record (which adds where
 * the local header starts): the same fields, the central record with a few of its own around them.
 */
function header(kind: 'local' | 'central', e: ZipEntry, name: Buffer, offset: number): Buffer {
  const central = kind === 'central';
  const bigSize = e.size >= MAX32;
  const bigOffset = central && offset >= MAX32;
  const extra = zip64Extra([...(bigSize ? [e.size, e.size] : []), ...(bigOffset ? [offset] : [])]);
  const version = bigSize || bigOffset ? 45 : 20;
  const { time, date } = dosDateTime(e.modified);
  const h = Buffer.alloc(central ? 46 : 30);
  let at = 0;
  const u16 = (v: number) => (at = h.writeUInt16LE(v, at));
  const u32 = (v: number) => (at = h.writeUInt32LE(v, at));
  u32(central ? 0x02014b50 : 0x04034b50);
  if (central) u16((3 << 8) | version); // made by: Unix
  u16(version);
  u16(UTF8_NAMES);
  u16(0); // stored
  u16(time);
  u16(date);
  u32(e.crc32 >>> 0);
  u32(bigSize ? MAX32 : e.size);
  u32(bigSize ? MAX32 : e.size);
  u16(name.length);
  u16(extra.length);
  if (central) {
    u16(0); // comment
    u16(0); // disk
    u16(0); // internal attributes
    u32(UNIX_FILE);
    u32(bigOffset ? MAX32 : offset);
  }
  return Buffer.concat([h, name, extra]);
}

function endRecords(count: number, cdOffset: number, cdSize: number): Buffer {
  const big = count >= MAX16 || cdOffset >= MAX32 || cdSize >= MAX32;
  const parts: Buffer[] = [];
  if (big) {
    const z = Buffer.alloc(56);
    z.writeUInt32LE(0x06064b50, 0);
    z.writeBigUInt64LE(44n, 4);
    z.writeUInt16LE((3 << 8) | 45, 12);
    z.writeUInt16LE(45, 14);
    z.writeUInt32LE(0, 16);
    z.writeUInt32LE(0, 20);
    z.writeBigUInt64LE(BigInt(count), 24);
    z.writeBigUInt64LE(BigInt(count), 32);
    z.writeBigUInt64LE(BigInt(cdSize), 40);
    z.writeBigUInt64LE(BigInt(cdOffset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeUInt32LE(0, 4);
    locator.writeBigUInt64LE(BigInt(cdOffset + cdSize), 8);
    locator.writeUInt32LE(1, 16);
    parts.push(z, locator);
  }
  const e = Buffer.alloc(22);
  e.writeUInt32LE(0x06054b50, 0);
  e.writeUInt16LE(big ? MAX16 : count, 8);
  e.writeUInt16LE(big ? MAX16 : count, 10);
  e.writeUInt32LE(big ? MAX32 : cdSize, 12);
  e.writeUInt32LE(big ? MAX32 : cdOffset, 16);
  parts.push(e);
  return Buffer.concat(parts);
}

/** The byte layout of a zip of `entries`, in their order: headers as bytes, contents as file ranges. */
export function planZip(entries: readonly ZipEntry[]): ZipPlan {
  const segments: Segment[] = [];
  let offset = 0;
  const push = (s: { data: Buffer } | (Source & { length: number })) => {
    const length = 'data' in s ? s.data.length : s.length;
    if (length > 0) segments.push({ ...s, offset, length });
    offset += length;
  };
  const central: Buffer[] = [];
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const start = offset;
    push({ data: header('local', e, name, start) });
    push({ path: e.path, ...(e.open ? { open: e.open } : {}), length: e.size });
    central.push(header('central', e, name, start));
  }
  const cdOffset = offset;
  const cd = Buffer.concat(central);
  push({ data: cd });
  push({ data: endRecords(entries.length, cdOffset, cd.length) });
  return { size: offset, segments };
}

/** The size of the blocks a zip's file bytes are read into, and how many one zip being sent holds. */
const BLOCK_BYTES = 1024 * 1024;
const BLOCKS = 4;

/**
 * Writes bytes `start`…`end` (inclusive) of the planned zip into `out` (an HTTP response) as the
 * client reads them, and resolves once the last one is handed to `out` (`out` is not ended).
 *
 * File bytes go through a few blocks that are read into again once `out` has called back for them:
 * with a fresh buffer for every MiB sent (its pages faulted in anew each time) the server spent
 * about half as much CPU per byte again, and under load several times as much. So `out` must be
 * done with a chunk when it calls back (sockets, and Writables that consume or copy in `_write`,
 * are). The blocks in flight are the backpressure: at most BLOCKS × BLOCK_BYTES of file bytes wait
 * in memory per zip. Rejects when a file cannot be read, has shrunk since it was planned, or `out`
 * fails or closes first.
 */
export async function writeZip(plan: ZipPlan, out: Writable, start = 0, end = plan.size - 1): Promise<void> {
  const free: Buffer[] = [];
  let made = 0;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const settle = (err?: Error | null) => {
    if (err && !failure) failure = err;
    wake?.();
  };
  const closed = () => settle(new Error('the client went away'));
  out.once('close', closed);
  out.once('error', settle);
  const block = async (): Promise<Buffer> => {
    for (;;) {
      if (failure) throw failure;
      const b = free.pop() ?? (made < BLOCKS ? (made++, Buffer.allocUnsafeSlow(BLOCK_BYTES)) : undefined);
      if (b) return b;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  try {
    for (const s of plan.segments) {
      const from = Math.max(start, s.offset) - s.offset;
      const to = Math.min(end, s.offset + s.length - 1) - s.offset;
      if (from > to) continue;
      if (failure) throw failure;
      if ('data' in s) {
        out.write(s.data.subarray(from, to + 1), settle);
        continue;
      }
      if (s.open) {
        await copyStream(await s.open({ start: from, end: to }), out, to - from + 1, s.path, () => failure);
        continue;
      }
      const file = await open(s.path, 'r');
      try {
        for (let at = from; at <= to;) {
          const b = await block();
          const { bytesRead } = await file.read(b, 0, Math.min(b.length, to - at + 1), at);
          // A file that shrank since it was planned would shift every later byte: stop rather than lie.
          if (bytesRead === 0) throw new Error(`${s.path} changed while it was being zipped`);
          at += bytesRead;
          out.write(bytesRead === b.length ? b : b.subarray(0, bytesRead), (err) => {
            free.push(b);
            settle(err);
          });
        }
      } finally {
        await file.close();
      }
    }
    if (failure) throw failure;
  } finally {
    out.off('close', closed);
    out.off('error', settle);
  }
}

/**
 * Writes a stream of `length` bytes into `out`, waiting for `out` to drain when it asks to; rejects
 * when the stream ends short or fails, or `failed` names a failure of `out`.
 */
async function copyStream(
  stream: Readable,
  out: Writable,
  length: number,
  what: string,
  failed: () => Error | undefined,
): Promise<void> {
  let copied = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const failure = failed();
      if (failure) throw failure;
      const part = chunk.length > length - copied ? chunk.subarray(0, length - copied) : chunk;
      copied += part.length;
      if (!out.write(part)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            out.off('drain', done);
            out.off('close', done);
            resolve();
          };
          out.once('drain', done);
          out.once('close', done);
        });
      }
      if (copied >= length) break;
    }
  } finally {
    stream.destroy();
  }
  if (copied < length) throw new Error(`${what} changed while it was being zipped`);
  const failure = failed();
  if (failure) throw failure;
}

/** CRC-32 and size of a file, read once in large chunks (zip entries need both before streaming). */
export async function crc32OfFile(path: string): Promise<{ crc32: number; bytes: number }> {
  return crc32OfStream(createReadStream(path, { highWaterMark: 4 * 1024 * 1024 }));
}

/** CRC-32 and size of what a stream reads (an original in a bucket). */
export async function crc32OfStream(stream: AsyncIterable<unknown>): Promise<{ crc32: number; bytes: number }> {
  let crc = 0;
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    crc = zlibCrc32(chunk, crc);
    bytes += chunk.length;
  }
  return { crc32: crc >>> 0, bytes };
}
