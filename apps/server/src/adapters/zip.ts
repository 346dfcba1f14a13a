import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
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
  /** The file the entry's bytes come from. */
  path: string;
  size: number;
  crc32: number;
  modified: Date;
}

type Segment = { offset: number; length: number } & ({ data: Buffer } | { path: string });

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

function localHeader(e: ZipEntry, name: Buffer, big: boolean): Buffer {
  const extra = zip64Extra(big ? [e.size, e.size] : []);
  const { time, date } = dosDateTime(e.modified);
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(big ? 45 : 20, 4);
  h.writeUInt16LE(UTF8_NAMES, 6);
  h.writeUInt16LE(0, 8); // stored
  h.writeUInt16LE(time, 10);
  h.writeUInt16LE(date, 12);
  h.writeUInt32LE(e.crc32 >>> 0, 14);
  h.writeUInt32LE(big ? MAX32 : e.size, 18);
  h.writeUInt32LE(big ? MAX32 : e.size, 22);
  h.writeUInt16LE(name.length, 26);
  h.writeUInt16LE(extra.length, 28);
  return Buffer.concat([h, name, extra]);
}

function centralHeader(e: ZipEntry, name: Buffer, offset: number): Buffer {
  const bigSize = e.size >= MAX32;
  const bigOffset = offset >= MAX32;
  const extra = zip64Extra([...(bigSize ? [e.size, e.size] : []), ...(bigOffset ? [offset] : [])]);
  const version = bigSize || bigOffset ? 45 : 20;
  const { time, date } = dosDateTime(e.modified);
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE((3 << 8) | version, 4); // made by: Unix
  h.writeUInt16LE(version, 6);
  h.writeUInt16LE(UTF8_NAMES, 8);
  h.writeUInt16LE(0, 10);
  h.writeUInt16LE(time, 12);
  h.writeUInt16LE(date, 14);
  h.writeUInt32LE(e.crc32 >>> 0, 16);
  h.writeUInt32LE(bigSize ? MAX32 : e.size, 20);
  h.writeUInt32LE(bigSize ? MAX32 : e.size, 24);
  h.writeUInt16LE(name.length, 28);
  h.writeUInt16LE(extra.length, 30);
  h.writeUInt16LE(0, 32); // comment
  h.writeUInt16LE(0, 34); // disk
  h.writeUInt16LE(0, 36); // internal attributes
  h.writeUInt32LE(UNIX_FILE, 38);
  h.writeUInt32LE(bigOffset ? MAX32 : offset, 42);
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
  const push = (s: { data: Buffer } | { path: string; length: number }) => {
    const length = 'data' in s ? s.data.length : s.length;
    if (length > 0) segments.push({ ...s, offset, length });
    offset += length;
  };
  const central: Buffer[] = [];
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const start = offset;
    push({ data: localHeader(e, name, e.size >= MAX32) });
    push({ path: e.path, length: e.size });
    central.push(centralHeader(e, name, start));
  }
  const cdOffset = offset;
  const cd = Buffer.concat(central);
  push({ data: cd });
  push({ data: endRecords(entries.length, cdOffset, cd.length) });
  return { size: offset, segments };
}

async function* bytesOf(plan: ZipPlan, start: number, end: number): AsyncGenerator<Buffer> {
  for (const s of plan.segments) {
    const from = Math.max(start, s.offset);
    const to = Math.min(end, s.offset + s.length - 1);
    if (from > to) continue;
    if ('data' in s) {
      yield s.data.subarray(from - s.offset, to - s.offset + 1);
      continue;
    }
    const stream = createReadStream(s.path, {
      start: from - s.offset,
      end: to - s.offset,
      highWaterMark: 1024 * 1024,
    });
    let read = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      read += chunk.length;
      yield chunk;
    }
    // A file that shrank since it was planned would shift every later byte: stop rather than lie.
    if (read !== to - from + 1) throw new Error(`${s.path} changed while it was being zipped`);
  }
}

/** Bytes `start`…`end` (inclusive) of the planned zip, read from the files as the client reads. */
export function zipStream(plan: ZipPlan, start = 0, end = plan.size - 1): Readable {
  return Readable.from(bytesOf(plan, start, end), { objectMode: false, highWaterMark: 1024 * 1024 });
}

/** CRC-32 and size of a file, read once in large chunks (zip entries need both before streaming). */
export async function crc32OfFile(path: string): Promise<{ crc32: number; bytes: number }> {
  let crc = 0;
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 }) as AsyncIterable<Buffer>) {
    crc = zlibCrc32(chunk, crc);
    bytes += chunk.length;
  }
  return { crc32: crc >>> 0, bytes };
}
