/**
 * A snapshot of the in-memory facet index in one binary file in DATA_DIR, so a process starts from
 * it in seconds instead of reading every asset from the database. The file holds the index's typed
 * arrays as they are in memory, behind a JSON header with the catalogue generation (change
 * sequence) it reflects, the catalogue it belongs to, the fields it was made with and a checksum.
 * A process loads it and catches up from its generation through the change log; a snapshot of
 * another catalogue, other fields, a generation ahead of the catalogue or a damaged file is not
 * used. Writers write a file of their own and rename it over the old one, so several processes may
 * write and read it at the same time: a reader sees a whole old or a whole new snapshot.
 */
import { createHash, randomBytes } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { FacetIndex, type FacetIndexParts } from './facet-index/facet-index.ts';
import type { Numbers } from './facet-index/value-columns.ts';

const MAGIC = 'VTRIDX01';
const FORMAT = 6;
/** Magic (8 bytes), header length (4), reserved (4), SHA-1 of the data (20), padding (4). */
const PREFIX_BYTES = 40;
/** Sections are copied, hashed and written in pieces of this many bytes. */
const PIECE = 8 * 1024 * 1024;

/** The fields an index was made with: a snapshot is only used by an index of the same fields. */
export interface SnapshotShape {
  coded: readonly string[];
  numeric: readonly string[];
  strings: readonly string[];
  sort: readonly string[];
  /** The fields whose words the full-text index held (FieldRegistry.textSignature). */
  text: string;
}

/** What a snapshot says about the catalogue it was taken of. */
export interface SnapshotMeta {
  /** The catalogue's identity (catalogue_state.instance): another database's snapshot is not used. */
  instance: string;
  /** The last catalogue change the index holds. */
  generation: number;
  /** Content languages the index has columns for. */
  languages: string[];
  /** Content languages seen on the catalogue's values. */
  catalogueLanguages: string[];
}

type ArrayKind = 'i32' | 'u32' | 'u16' | 'u8' | 'f32' | 'f64';
type Section = { name: string; kind: ArrayKind; offset: number; length: number };

interface Header extends SnapshotMeta {
  format: number;
  shape: SnapshotShape;
  size: number;
  groups: [string, number][];
  dictionaries: Record<string, readonly string[]>;
  sections: Section[];
  /** The frequent words whose postings the snapshot holds, if it holds any. */
  words?: string[];
  dataBytes: number;
}

export type SnapshotRead =
  | { status: 'missing' }
  | { status: 'unusable'; reason: string }
  | { status: 'loaded'; index: FacetIndex; meta: SnapshotMeta; bytes: number };

const kindOf = (a: ArrayBufferView): ArrayKind =>
  a instanceof Int32Array
    ? 'i32'
    : a instanceof Uint32Array
      ? 'u32'
      : a instanceof Uint16Array
        ? 'u16'
        : a instanceof Uint8Array
          ? 'u8'
          : a instanceof Float32Array
            ? 'f32'
            : 'f64';

const align8 = (n: number): number => (n + 7) & ~7;

/**
 * Writes the index to `file` (through a temporary file renamed over it) and answers the bytes
 * written. Assets may change while it writes: the snapshot then holds some changes after its
 * generation, which the catch-up of whoever loads it applies again (applying a change twice is
 * harmless). The checksum covers the bytes as written.
 */
export async function writeSnapshot(
  file: string,
  index: FacetIndex,
  shape: SnapshotShape,
  meta: SnapshotMeta,
): Promise<number> {
  const parts = index.parts();
  const arrays: [string, ArrayBufferView][] = [
    ['ids', parts.ids],
    ['active', parts.active],
    ...parts.masks.map((m, i): [string, ArrayBufferView] => [`mask ${i}`, m]),
    ...[...parts.codes].flatMap(([f, c]): [string, ArrayBufferView][] => [
      [`offsets ${f}`, c.offsets],
      [`codes ${f}`, c.codes],
    ]),
    ...[...parts.numbers].map(([f, data]): [string, ArrayBufferView] => [`number ${f}`, data]),
    ...[...parts.orders].map(([f, order]): [string, ArrayBufferView] => [`order ${f}`, order]),
    ...[...(parts.words ?? [])].flatMap(([w, p]): [string, ArrayBufferView][] => [
      [`word ${w}`, p.all],
      [`title word ${w}`, p.title],
    ]),
    ...[...parts.strings].flatMap(([f, c]): [string, ArrayBufferView][] => [
      [`text offsets ${f}`, c.offsets],
      [`text ${f}`, c.bytes],
    ]),
    ['visual hi', parts.visual.hi],
    ['visual lo', parts.visual.lo],
    ['visual colours', parts.visual.colours],
    ['visual aspect', parts.visual.aspect],
  ];
  const sections: Section[] = [];
  let offset = 0;
  for (const [name, a] of arrays) {
    sections.push({ name, kind: kindOf(a), offset, length: (a as Int32Array).length });
    offset += align8(a.byteLength);
  }
  const header: Header = {
    format: FORMAT,
    ...meta,
    shape,
    size: parts.size,
    groups: parts.groups,
    dictionaries: Object.fromEntries([...parts.codes].map(([f, c]) => [f, c.values])),
    sections,
    words: parts.words ? [...parts.words.keys()] : undefined,
    dataBytes: offset,
  };
  const json = Buffer.from(JSON.stringify(header));
  const start = align8(PREFIX_BYTES + json.length);
  const head = Buffer.alloc(start);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(json.length, 8);
  json.copy(head, PREFIX_BYTES);
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'w');
  try {
    await handle.write(head, 0, head.length, 0);
    const hash = createHash('sha1');
    const piece = Buffer.alloc(PIECE);
    let at = start;
    for (const [, a] of arrays) {
      const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      const total = align8(a.byteLength);
      for (let done = 0; done < total; done += PIECE) {
        const n = Math.min(PIECE, total - done);
        piece.fill(0, 0, n);
        piece.set(bytes.subarray(done, Math.min(done + n, bytes.length)));
        hash.update(piece.subarray(0, n));
        await handle.write(piece, 0, n, at);
        at += n;
      }
    }
    await handle.write(hash.digest(), 0, 20, 16);
    await handle.close();
    await rename(temp, file);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw err;
  }
  return start + offset;
}

/** Reads a snapshot made with the same fields; says why when it cannot be used. */
export async function readSnapshot(
  file: string,
  /** The fields an index with columns for these content languages has. */
  shapeFor: (languages: readonly string[]) => SnapshotShape,
): Promise<SnapshotRead> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    return { status: 'unusable', reason: (err as Error).message };
  }
  try {
    const { size: bytes } = await handle.stat();
    return { status: 'loaded', ...(await parse(handle, bytes, shapeFor)), bytes };
  } catch (err) {
    return { status: 'unusable', reason: (err as Error).message };
  } finally {
    await handle.close();
  }
}

/** Fills `into` from the file at `position`, a piece at a time; a file that ends first is truncated. */
async function readFully(handle: FileHandle, into: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < into.length;) {
    const n = Math.min(PIECE, into.length - done);
    const { bytesRead } = await handle.read(into, done, n, position + done);
    if (bytesRead === 0) throw new Error('truncated or overlong');
    done += bytesRead;
  }
}

const arrayOf = {
  i32: Int32Array,
  u32: Uint32Array,
  u16: Uint16Array,
  u8: Uint8Array,
  f32: Float32Array,
  f64: Float64Array,
} as const;

/**
 * Reads the header, then each section into a typed array of its own, hashing the bytes as they come:
 * at ten million assets the file is over 2 GiB, more than one read of a whole file may hold.
 */
async function parse(
  handle: FileHandle,
  fileBytes: number,
  shapeFor: (languages: readonly string[]) => SnapshotShape,
): Promise<{ index: FacetIndex; meta: SnapshotMeta }> {
  const prefix = Buffer.alloc(PREFIX_BYTES);
  if (fileBytes < PREFIX_BYTES) throw new Error('not a snapshot');
  await readFully(handle, prefix, 0);
  if (prefix.toString('latin1', 0, 8) !== MAGIC) throw new Error('not a snapshot');
  const jsonBytes = prefix.readUInt32LE(8);
  if (PREFIX_BYTES + jsonBytes > fileBytes) throw new Error('truncated header');
  const json = Buffer.alloc(jsonBytes);
  await readFully(handle, json, PREFIX_BYTES);
  const header = JSON.parse(json.toString('utf8')) as Header;
  if (header.format !== FORMAT) throw new Error(`format ${header.format}, not ${FORMAT}`);
  const shape = shapeFor(header.languages);
  if (JSON.stringify(header.shape) !== JSON.stringify(shape)) throw new Error('made with other fields');
  const start = align8(PREFIX_BYTES + jsonBytes);
  if (start + header.dataBytes !== fileBytes) throw new Error('truncated or overlong');
  const hash = createHash('sha1');
  const arrays = new Map<
    string,
    Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Uint8Array<ArrayBuffer> | Numbers
  >();
  // The sections lie in order, each at an 8-byte boundary; the checksum covers them with their padding.
  let at = 0;
  const hashed = async (bytes: Uint8Array) => {
    await readFully(handle, bytes, start + at);
    // A piece at a time: one hash update takes less than 2 GiB.
    for (let i = 0; i < bytes.length; i += PIECE) hash.update(bytes.subarray(i, i + PIECE));
    at += bytes.length;
  };
  for (const s of header.sections) {
    if (s.offset < at || s.offset - at >= 8) throw new Error(`section '${s.name}' is misplaced`);
    await hashed(new Uint8Array(s.offset - at));
    const kind = arrayOf[s.kind];
    if (s.offset + s.length * kind.BYTES_PER_ELEMENT > header.dataBytes) throw new Error('truncated or overlong');
    const a = new kind(s.length);
    await hashed(new Uint8Array(a.buffer));
    arrays.set(s.name, a);
  }
  if (header.dataBytes - at >= 8) throw new Error('truncated or overlong');
  await hashed(new Uint8Array(header.dataBytes - at));
  if (!hash.digest().equals(prefix.subarray(16, 36))) throw new Error('checksum mismatch');
  const get = <T>(name: string, length?: number): T => {
    const a = arrays.get(name);
    if (!a || (length !== undefined && a.length !== length)) throw new Error(`section '${name}' is missing or wrong`);
    return a as T;
  };
  const size = header.size;
  const parts: FacetIndexParts = {
    size,
    ids: get('ids', size),
    active: get('active', size),
    groups: header.groups,
    masks: header.sections.filter((s) => s.name.startsWith('mask ')).map((s) => get(s.name, size)),
    codes: new Map(
      shape.coded.map((f) => {
        // A column without values keeps the offsets [0] only; a single-valued one none, and one code
        // per document.
        const offsets = get<Int32Array<ArrayBuffer>>(`offsets ${f}`);
        if (offsets.length !== size + 1 && offsets.length > 1) throw new Error(`offsets of '${f}' are wrong`);
        const codeCount = offsets.length === 0 ? size : offsets.length === 1 ? 0 : offsets[size];
        const codes = get<Int32Array<ArrayBuffer>>(`codes ${f}`, codeCount);
        const values = header.dictionaries[f] ?? [];
        return [f, { values, offsets, codes }];
      }),
    ),
    numbers: new Map(
      shape.numeric.map((f) => {
        // A column ends after its last value (none at all: empty).
        const data = get<Numbers>(`number ${f}`);
        if (data.length > size) throw new Error(`numbers of '${f}' are wrong`);
        return [f, data];
      }),
    ),
    strings: new Map(
      shape.strings.map((f) => {
        const offsets = get<Int32Array<ArrayBuffer>>(`text offsets ${f}`, size + 1);
        return [f, { offsets, bytes: get<Uint8Array<ArrayBuffer>>(`text ${f}`, offsets[size]) }];
      }),
    ),
    orders: new Map(
      shape.sort
        .filter((f) => arrays.has(`order ${f}`))
        .map((f) => [f, get<Int32Array<ArrayBuffer>>(`order ${f}`, size)]),
    ),
    visual: {
      hi: get<Uint32Array<ArrayBuffer>>('visual hi'),
      lo: get<Uint32Array<ArrayBuffer>>('visual lo'),
      colours: get<Uint8Array<ArrayBuffer>>('visual colours'),
      aspect: get<Uint16Array<ArrayBuffer>>('visual aspect'),
    },
  };
  if (header.words) {
    parts.words = new Map(
      header.words.map((w) => [
        w,
        { all: get<Int32Array<ArrayBuffer>>(`word ${w}`), title: get<Int32Array<ArrayBuffer>>(`title word ${w}`) },
      ]),
    );
  }
  const index = FacetIndex.fromParts(parts, shape.coded, shape.numeric, shape.strings, shape.sort);
  const { instance, generation, languages, catalogueLanguages } = header;
  return { index, meta: { instance, generation, languages, catalogueLanguages } };
}
