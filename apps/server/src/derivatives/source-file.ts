import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isSafeKey, readFileRange, type ByteRange, type MediaStore } from '../adapters/media-store.ts';

interface Log {
  warn(obj: object, msg: string): void;
}

let log: Log = { warn: () => undefined };

/** Where refusals of files outside their import folder are logged (the services' log). */
export function logSourceRefusalsTo(target: Log): void {
  log = target;
}

/** What names an asset's original: its source path and the folder or bucket prefix it was imported from. */
export interface OriginalSource {
  id: number;
  source_path: string;
  import_root: string | null;
}

/** Source paths of originals kept in a bucket of an object store: `s3://<bucket>/<key>`. */
export const BUCKET_SCHEME = 's3://';

/** The bucket and key of an `s3://bucket/key` source path; undefined for a local path. */
export function bucketLocation(sourcePath: string): { bucket: string; key: string } | undefined {
  if (!sourcePath.startsWith(BUCKET_SCHEME)) return undefined;
  const rest = sourcePath.slice(BUCKET_SCHEME.length);
  const slash = rest.indexOf('/');
  return slash <= 0 ? { bucket: rest, key: '' } : { bucket: rest.slice(0, slash), key: rest.slice(slash + 1) };
}

/** The source path of the object `key` in `bucket`. */
export const bucketSourcePath = (bucket: string, key: string) => `${BUCKET_SCHEME}${bucket}/${key}`;

/**
 * Whether an asset's file may be served or converted: it is still there and, followed through any
 * symlinks, still inside the folder it was imported from. A file replaced by a symlink to somewhere
 * else (or a folder swapped for one) counts as missing, and the refusal is logged; so does a file
 * that became a folder. Assets imported
 * before import folders were kept have their file's own folder as the root: the file itself may
 * not lead elsewhere.
 */
export async function sourceFileUsable(src: OriginalSource): Promise<boolean> {
  const [real, root] = await Promise.all([
    realpath(src.source_path).catch(() => undefined),
    src.import_root ?? realpath(path.dirname(src.source_path)).catch(() => undefined),
  ]);
  if (real === undefined || root === undefined) return false;
  if (
    !(await stat(real).then(
      (st) => st.isFile(),
      () => false,
    ))
  )
    return false;
  if (real.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) return true;
  log.warn(
    { assetId: src.id, sourcePath: src.source_path, resolvedTo: real, importRoot: root },
    "an asset's file leads outside its import folder; it is treated as missing",
  );
  return false;
}

/** An original's bytes to send or read: its size now, and a stream of it or of a range of it. */
export interface OriginalBody {
  size: number;
  open(range?: ByteRange): Promise<Readable>;
}

/**
 * The originals of assets, wherever they were imported from: a local folder (the source path is the
 * file's) or a bucket prefix of an object store (`s3://bucket/key`, read through the store of that
 * bucket, never staged whole in memory). Readers stream them (`body`); tools that need a file by name
 * (exiftool, sharp, ffmpeg, pdftoppm) borrow one with `withLocalCopy`: a local original is its own
 * file, one in a bucket is downloaded into a temporary file removed afterwards.
 */
export class Originals {
  constructor(
    /** The store of a bucket's objects under a prefix ('' or ending in '/'); none: originals in buckets are missing. */
    private readonly bucketStore?: (bucket: string, prefix: string) => MediaStore,
  ) {}

  /** The store of the objects under `prefix` ('' or ending in '/') of a bucket; undefined without an object store. */
  bucket(name: string, prefix = ''): MediaStore | undefined {
    return this.bucketStore?.(name, prefix);
  }

  /** The store and key of an original kept in a bucket; undefined for a local one. */
  private inBucket(src: OriginalSource): { store: MediaStore; key: string } | undefined {
    const at = bucketLocation(src.source_path);
    if (!at) return undefined;
    // An object the import did not take (or a row written by hand) names no usable key.
    if (!this.bucketStore || !isSafeKey(at.key) || !src.source_path.startsWith(src.import_root ?? BUCKET_SCHEME)) {
      return { store: missingStore, key: at.key };
    }
    return { store: this.bucketStore(at.bucket, ''), key: at.key };
  }

  /** Whether the original may be served or converted: there, and inside what it was imported from. */
  async usable(src: OriginalSource): Promise<boolean> {
    const object = this.inBucket(src);
    if (!object) return sourceFileUsable(src);
    return (await object.store.stat(object.key)) !== undefined;
  }

  /** The original's local file, when it has one (zips read those by position); undefined in a bucket. */
  localPath(src: OriginalSource): string | undefined {
    return bucketLocation(src.source_path) ? undefined : src.source_path;
  }

  /** The original as it is now; undefined when it is missing. */
  async body(src: OriginalSource): Promise<OriginalBody | undefined> {
    const object = this.inBucket(src);
    if (!object) {
      const info = await stat(src.source_path).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      return { size: info.size, open: async (range) => readFileRange(src.source_path, info.size, range) };
    }
    const { store, key } = object;
    const info = await store.stat(key);
    return info && { size: info.size, open: async (range) => (await store.open(key, range)).stream };
  }

  /** Runs `use` with a local file of the original (its own, or a temporary copy removed afterwards). */
  async withLocalCopy<T>(src: OriginalSource, use: (file: string) => Promise<T>): Promise<T> {
    const object = this.inBucket(src);
    return object ? object.store.withLocalCopy(object.key, use) : use(src.source_path);
  }
}

/** Stands in for the bucket of an original that cannot be reached: nothing is there. */
const missingStore: MediaStore = {
  exists: async () => false,
  stat: async () => undefined,
  open: () => Promise.reject(new Error('the original is not in a bucket this portal reaches')),
  withLocalCopy: () => Promise.reject(new Error('the original is not in a bucket this portal reaches')),
  write: () => Promise.reject(new Error('originals are not written')),
  remove: async () => undefined,
  list: async () => [],
  walk: async () => [],
};
