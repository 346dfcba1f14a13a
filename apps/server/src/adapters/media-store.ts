import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/** One scratch path per key: a tuple of keys gives a tuple of paths. */
export type ScratchPaths<K extends readonly string[]> = { -readonly [I in keyof K]: string };

/**
 * Where made files live (derivatives, conversions): one interface, so a store other than a folder
 * can take its place. Keys are relative paths ('ab/abcd…/thumb.webp'). Files are made once and then
 * only read; a key's file appears whole or not at all, so a process on another machine never reads a
 * half-written file. docs/scale-out.md "Media store" says how to share the folder between machines.
 */
export interface MediaStore {
  /** The local path to read a key's file from (sharp, ffmpeg and file streaming read paths). */
  path(key: string): string;
  exists(key: string): Promise<boolean>;
  /**
   * Makes the files of `keys` at once: `make` writes each to the scratch path it is given, and when it
   * succeeds they are put in place (each atomically). When it fails, nothing appears. `scratch` has
   * one path per key, in the order of `keys`.
   */
  write<const K extends readonly string[], T>(keys: K, make: (scratch: ScratchPaths<K>) => Promise<T>): Promise<T>;
  remove(key: string): Promise<void>;
}

/**
 * The media store on a folder: local, or a shared mount (NFS, SMB, a cluster file system) that every
 * process sees at the same path. Scratch files sit next to their target (a rename within one folder is
 * atomic, also on NFS) and are named after host, process and a random part, so processes on different
 * machines with the same process id never write into one file.
 */
export class SharedFolderStore implements MediaStore {
  constructor(readonly root: string) {}

  path(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`media key outside the store: ${key}`);
    return file;
  }

  async exists(key: string): Promise<boolean> {
    return existsSync(this.path(key));
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
}
