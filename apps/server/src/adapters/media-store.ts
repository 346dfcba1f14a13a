import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';

const READ_BLOCK_BYTES = 512 * 1024;

/** Bytes `start`…`end` of a file, both included. */
export interface ByteRange {
  start: number;
  end: number;
}

/** What a store knows of a file without reading it. */
export interface StoredFileInfo {
  size: number;
  modified: Date;
}

/** A file of a store found by `walk`: its key and what the store knows of it. */
export interface WalkedFile extends StoredFileInfo {
  key: string;
}

/** One scratch path per key: a tuple of keys gives a tuple of paths. */
export type ScratchPaths<K extends readonly string[]> = { -readonly [I in keyof K]: string };

/**
 * Where made files live (derivatives, conversions, uploads): a folder (`SharedFolderStore`) or an
 * S3-compatible object store (`S3Store`). Keys are relative paths ('ab/abcd…/thumb.webp'). Files are
 * made once and then only read; a key's file appears whole or not at all, so a process on another
 * machine never reads a half-written file. Readers stream, never ask for a path: a tool that must
 * read a file by name (sharp, ffmpeg) borrows one with `withLocalCopy`. docs/scale-out.md "Media
 * store" says how to share a folder between machines, and README "Object storage" the other way.
 */
export interface MediaStore {
  exists(key: string): Promise<boolean>;
  /** Size and date of a key's file; undefined when there is none. */
  stat(key: string): Promise<StoredFileInfo | undefined>;
  /** A key's file, or a range of it, as a stream; `size` is the whole file's. Rejects when there is none. */
  open(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number }>;
  /**
   * Runs `use` with a local file of the key's contents (the folder store's own file; an object store's
   * downloaded into a temporary file, removed when `use` settles). `use` only reads it.
   */
  withLocalCopy<T>(key: string, use: (file: string) => Promise<T>): Promise<T>;
  /**
   * Makes the files of `keys` at once: `make` writes each to the local scratch path it is given (its
   * extension that of the key), and when it succeeds they are put in place (each atomically). When
   * `make` or putting them in place fails, none of them appears. `scratch` has one path per key, in
   * the order of `keys`.
   */
  write<const K extends readonly string[], T>(keys: K, make: (scratch: ScratchPaths<K>) => Promise<T>): Promise<T>;
  remove(key: string): Promise<void>;
  /** The names of the files directly in a folder of keys ('' for the top). */
  list(folder: string): Promise<string[]>;
  /** Every file below a folder of keys ('' for the top), at any depth, with its key (`/`-separated), sorted by key. */
  walk(folder: string): Promise<WalkedFile[]>;
  /**
   * Only stores that can hand out their own URLs (an object store): a URL that answers a key's file,
   * ranges included, for `seconds`, with these headers. Calls within one window get the same URL.
   */
  presign?(key: string, seconds: number, answer: { type: string; cacheControl: string }): Promise<string>;
}

/** A local file of `size` bytes, or a range of it, as a stream. */
export function readFileRange(file: string, size: number, range?: ByteRange): Readable {
  const { start, end } = range ?? { start: 0, end: size - 1 };
  // Blocks of up to 512 KiB: a read and a socket write per block, not per 64 KiB (Node's default).
  const highWaterMark = Math.min(READ_BLOCK_BYTES, Math.max(1, end - start + 1));
  return createReadStream(file, { start, end: Math.max(start, end), highWaterMark });
}

/** Whether a key stays inside the store: relative, without `..` or empty segments. */
export function isSafeKey(key: string): boolean {
  const parts = key.split(/[/\\]/);
  return key.length > 0 && !path.isAbsolute(key) && parts.every((p) => p !== '' && p !== '.' && p !== '..');
}

/**
 * The media store on a folder: local, or a shared mount (NFS, SMB, a cluster file system) that every
 * process sees at the same path. Scratch files sit next to their target (a rename within one folder is
 * atomic, also on NFS) and are named after host, process and a random part, so processes on different
 * machines with the same process id never write into one file.
 */
export class SharedFolderStore implements MediaStore {
  constructor(
    readonly root: string,
    /** false: a folder this store only reads (originals), where no name is taken for a write's scratch file. */
    private readonly options: { writes: boolean } = { writes: true },
  ) {}

  /** The local path of a key's file (this store's own; callers outside it use `withLocalCopy`). */
  path(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`media key outside the store: ${key}`);
    return file;
  }

  async exists(key: string): Promise<boolean> {
    return existsSync(this.path(key));
  }

  async stat(key: string): Promise<StoredFileInfo | undefined> {
    const info = await stat(this.path(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
      throw err;
    });
    return info?.isFile() ? { size: info.size, modified: info.mtime } : undefined;
  }

  async open(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number }> {
    const file = this.path(key);
    const { size } = await stat(file);
    return { stream: readFileRange(file, size, range), size };
  }

  async withLocalCopy<T>(key: string, use: (file: string) => Promise<T>): Promise<T> {
    return use(this.path(key));
  }

  async write<const K extends readonly string[], T>(
    keys: K,
    make: (scratch: ScratchPaths<K>) => Promise<T>,
  ): Promise<T> {
    const targets = keys.map((k) => this.path(k));
    const tag = `${hostname()}.${process.pid}.${randomBytes(4).toString('hex')}`;
    // The extension stays last: the libraries pick the output format from it.
    const scratch = targets.map((t) => {
      const ext = path.extname(t);
      return `${t.slice(0, t.length - ext.length)}.${tag}.tmp${ext}`;
    });
    await Promise.all(targets.map((t) => mkdir(path.dirname(t), { recursive: true })));
    try {
      const made = await make(scratch as ScratchPaths<K>);
      for (let i = 0; i < targets.length; i++) await rename(scratch[i]!, targets[i]!);
      return made;
    } finally {
      await Promise.all(scratch.map((s) => rm(s, { force: true })));
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async list(folder: string): Promise<string[]> {
    const dir = folder === '' ? this.root : this.path(folder);
    const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    // Scratch files of writes under way are no files yet.
    return entries.filter((e) => e.isFile() && !this.isScratch(e.name)).map((e) => e.name);
  }

  async walk(folder: string): Promise<WalkedFile[]> {
    const found: WalkedFile[] = [];
    const visit = async (rel: string) => {
      const dir = rel === '' ? this.root : this.path(rel);
      const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [];
        throw err;
      });
      for (const e of entries) {
        const key = rel === '' ? e.name : `${rel}/${e.name}`;
        if (e.isDirectory()) await visit(key);
        else if (e.isFile() && !this.isScratch(e.name)) {
          const info = await this.stat(key);
          if (info) found.push({ key, ...info });
        }
      }
    };
    await visit(folder);
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Scratch files of writes under way (`write`) are no files yet. */
  private isScratch(name: string): boolean {
    return this.options.writes && /\.tmp(\.[^.]*)?$/.test(name);
  }
}
