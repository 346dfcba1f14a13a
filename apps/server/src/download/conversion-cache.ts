import { createHash } from 'node:crypto';
import { copyFile, statfs } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { convertImage } from '../adapters/media.ts';
import { findEmbeddedTags, privateTags, removeEmbeddedTags, type TagRemoval } from '../adapters/metadata.ts';
import { once } from '../adapters/concurrency-limit.ts';
import { SharedFolderStore, type ByteRange, type MediaStore } from '../adapters/media-store.ts';
import { pdfPagePng } from '../adapters/pdf.ts';
import { convertAv, decodeImageWithFfmpeg } from '../adapters/video.ts';
import { crc32OfFile, crc32OfStream } from '../adapters/zip.ts';
import { Originals, type OriginalBody } from '../derivatives/source-file.ts';
import { clientGone, DomainError, fileMissing, unsupportedMediaType } from '../http/errors.ts';
import type { WorkBudget } from '../jobs/work-budget.ts';
import type { ConversionSet } from '../settings.ts';
import type { ConversionRow, DownloadRepository, DownloadSource } from './download.repository.ts';

/** A file ready for download: the original or a cached conversion. */
export interface DownloadFile {
  /** The original's local file (zips read it by path); undefined for a conversion or an original in a bucket. */
  path?: string;
  /** A conversion's key in the media store; undefined for an original. */
  key?: string;
  /** Reads the file, or a range of it. */
  open: (range?: ByteRange) => Promise<Readable>;
  mime: string;
  bytes: number;
  crc32: number;
  /** The extension the download's name gets ('' keeps the original's). */
  ext: string;
}

const output: Record<ConversionSet['format'], { mime: string; ext: string }> = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  png: { mime: 'image/png', ext: 'png' },
  webp: { mime: 'image/webp', ext: 'webp' },
  tiff: { mime: 'image/tiff', ext: 'tif' },
  avif: { mime: 'image/avif', ext: 'avif' },
  pdf: { mime: 'application/pdf', ext: 'pdf' },
  mp4: { mime: 'video/mp4', ext: 'mp4' },
  m4a: { mime: 'audio/mp4', ext: 'm4a' },
};

/** Formats libvips cannot open; ffmpeg decodes them first. */
const ffmpegImages = new Set(['bmp', 'tga']);

/** Who waits for a conversion. */
export interface ConversionCaller {
  /** The caller has an account: a conversion it starts may take the slots kept for account holders. */
  forAccount?: boolean;
  /**
   * Aborted when the caller went away. A conversion stops (its tool killed, its partial file
   * removed) once every caller waiting for it went away; a caller without a signal never goes.
   */
  signal?: AbortSignal;
  /** Background work (eager sets at import): it waits for a slot as long as it takes. */
  job?: boolean;
}

/** A conversion under way in this process and the callers waiting for it. */
interface Making {
  promise: Promise<DownloadFile>;
  stop: AbortController;
  waiting: number;
}

export interface ConversionCacheOptions {
  /**
   * How long a conversion's claim holds without renewal. It is renewed while the conversion runs, so
   * a live one is never taken over and one whose process died is taken over soon.
   */
  claimLeaseMs?: number;
  /** How often a caller looks whether another process finished the conversion it waits for. */
  pollMs?: number;
  log?: { info(details: object, message: string): void; warn(details: object, message: string): void };
  /** Where conversions are kept; default the folder DATA_DIR/conversions (services.ts `mediaStores`). */
  store?: MediaStore;
  /** Where originals are read; default their local folders only. */
  originals?: Originals;
}

/** A served conversion's `last_used` is written at most this often, so serving is not a write per request. */
const TOUCH_EVERY_MS = 3600_000;
/** Without a configured size: this share of the data folder's file system, and at most CAP bytes. */
const DISK_SHARE = 0.1;
const CAP_BYTES = 20 * 1024 ** 3;
/**
 * How long a finished conversion's row is taken from memory (its file is still looked for each
 * time): a popular conversion costs no query per request.
 */
const RECENT_MS = 10_000;
const RECENT_MAX = 10_000;
/** Conversions removed per read of the least recently used. */
const TRIM_BATCH = 200;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Changes when anything that shapes the output changes, so an edited set makes new files. A set
 * keeping metadata is keyed with the private tags it drops, so a conversion made before they were
 * dropped (or before the list changed) is not served again.
 */
export function conversionKey(set: ConversionSet): string {
  // Whether a set is made ahead of time does not change its files.
  const { title: _title, userGroups: _u, assetGroups: _a, eager: _e, ...shape } = set;
  const dropped = set.keepMetadata ? { dropped: privateTags().tags } : {};
  return createHash('sha256')
    .update(JSON.stringify({ ...shape, ...dropped }))
    .digest('hex')
    .slice(0, 32);
}

/** The cache key of an original cleaned of `removal`'s tags (beside the conversions' keys: `strip-`). */
export function strippedKey(removal: TagRemoval): string {
  return `strip-${createHash('sha256').update(JSON.stringify(removal.tags)).digest('hex').slice(0, 32)}`;
}

/** The extension of an original's name for its cleaned copy (exiftool tells some formats by it). */
function extensionOf(filename: string): string {
  const ext = path.extname(filename).toLowerCase();
  return /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : '';
}

/**
 * Conversions for download, made on demand and cached by (content hash, conversion set) under
 * DATA_DIR/conversions. The work is done once: within a process concurrent callers share one
 * promise; across processes the `conversion` row is claimed by one and the others wait for it.
 * Conversions and checksums of originals take a slot of the work budget first, so a crowd of callers
 * runs at most its pool of converters and the rest hear 429 `busy`.
 */
export class ConversionCache {
  private readonly inFlight = new Map<string, Making>();
  /** Cleaned originals being made by this process (exiftool's work cannot be stopped: none is). */
  private readonly stripping = new Map<string, Promise<DownloadFile>>();
  /** Finished conversions read lately, by `sha256:key`, with when they were read. */
  private readonly recent = new Map<string, { row: ConversionRow; readAt: number }>();
  private readonly checksumsInFlight = new Map<string, Promise<{ bytes: number; crc32: number }>>();
  private readonly store: MediaStore;
  private readonly originals: Originals;
  private readonly claimLeaseMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly repository: DownloadRepository,
    private readonly dataDir: string,
    private readonly budget: WorkBudget,
    private readonly options: ConversionCacheOptions = {},
  ) {
    this.store = options.store ?? new SharedFolderStore(path.join(dataDir, 'conversions'));
    this.originals = options.originals ?? new Originals();
    this.claimLeaseMs = options.claimLeaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 200;
  }

  /** The original (set 0, and PDF passthrough of a PDF) needs no conversion, only its checksum. */
  async original(src: DownloadSource): Promise<DownloadFile> {
    await this.requireSource(src);
    let sum = (await this.repository.checksums([src.sha256])).get(src.sha256);
    if (!sum) sum = await once(this.checksumsInFlight, src.sha256, () => this.checksum(src));
    const file = this.originals.localPath(src);
    return {
      ...(file === undefined ? {} : { path: file }),
      open: async (range) => {
        const body = await this.originals.body(src);
        if (!body) throw fileMissing(src.filename);
        return body.open(range);
      },
      mime: src.mime,
      bytes: sum.bytes,
      crc32: sum.crc32,
      ext: '',
    };
  }

  /** Reads a whole original once to know its CRC-32 (a zip's layout is known before its first byte). */
  private async checksum(src: DownloadSource): Promise<{ bytes: number; crc32: number }> {
    return this.budget.run('checksum', 'request', async () => {
      const body = await this.originals.body(src);
      if (!body) throw fileMissing(src.filename);
      const sum = await crc32OfStream(await body.open());
      await this.repository.addChecksum(src.sha256, sum);
      return sum;
    });
  }

  /** Splits sources into those whose file is in its folder and those whose file went away. */
  async onDisk(sources: readonly DownloadSource[]): Promise<{ present: DownloadSource[]; missing: DownloadSource[] }> {
    const found = await Promise.all(sources.map((src) => this.originals.usable(src)));
    return {
      present: sources.filter((_src, i) => found[i]),
      missing: sources.filter((_src, i) => !found[i]),
    };
  }

  /** Whether the set's output is already there, so no conversion work (and no lock) is needed. */
  async isReady(src: DownloadSource, set: ConversionSet | undefined): Promise<boolean> {
    if (!set || this.passesThrough(src, set)) return true;
    return (await this.lookUp(src.sha256, conversionKey(set))).ready;
  }

  /**
   * The conversion's row and whether its file is there: a finished one from memory when it was read
   * in the last RECENT_MS and its file is still there, otherwise from the database.
   */
  private async lookUp(sha256: string, key: string): Promise<{ row: ConversionRow | undefined; ready: boolean }> {
    const id = `${sha256}:${key}`;
    const known = this.recent.get(id);
    if (known && Date.now() - known.readAt < RECENT_MS && known.row.path && (await this.store.exists(known.row.path))) {
      return { row: known.row, ready: true };
    }
    this.recent.delete(id);
    const row = await this.repository.conversion(sha256, key);
    const ready = row?.status === 'done' && row.path !== null && (await this.store.exists(row.path));
    if (row && ready) {
      if (this.recent.size >= RECENT_MAX) this.recent.clear();
      this.recent.set(id, { row, readAt: Date.now() });
    }
    return { row, ready };
  }

  async file(
    src: DownloadSource,
    set: ConversionSet | undefined,
    caller: ConversionCaller = {},
  ): Promise<DownloadFile> {
    if (!set || this.passesThrough(src, set)) return this.original(src);
    // A finished conversion outlives its source, but the asset is on its way out of the portal.
    await this.requireSource(src);
    const key = conversionKey(set);
    return this.join(`${src.sha256}:${key}`, caller, (stop) => this.obtain(src, set, key, caller, stop));
  }

  /**
   * The conversion `id` under way in this process, or a new one from `start`, for one more caller.
   * Callers of the same conversion share it; when the last one with a signal goes, it is stopped
   * and forgotten, so a caller coming later starts afresh rather than joining a stopping one.
   */
  private join(
    id: string,
    caller: ConversionCaller,
    start: (stop: AbortSignal) => Promise<DownloadFile>,
  ): Promise<DownloadFile> {
    const { signal } = caller;
    if (signal?.aborted) return Promise.reject(clientGone());
    let making = this.inFlight.get(id);
    if (!making) {
      const stop = new AbortController();
      const promise: Promise<DownloadFile> = start(stop.signal).finally(() => {
        if (this.inFlight.get(id)?.promise === promise) this.inFlight.delete(id);
      });
      making = { stop, waiting: 0, promise };
      this.inFlight.set(id, making);
    }
    const m = making;
    m.waiting++;
    if (!signal) return m.promise;
    return new Promise<DownloadFile>((resolve, reject) => {
      const gone = () => {
        reject(clientGone());
        if (--m.waiting > 0) return;
        if (this.inFlight.get(id) === m) this.inFlight.delete(id);
        m.stop.abort(clientGone());
      };
      signal.addEventListener('abort', gone, { once: true });
      m.promise.finally(() => signal.removeEventListener('abort', gone)).then(resolve, reject);
    });
  }

  /** The original as it is now, for a download that sends it; 404 `not_found` naming it when it is missing. */
  async originalBody(src: DownloadSource): Promise<OriginalBody> {
    const body = await this.originals.body(src);
    if (!body) throw fileMissing(src.filename);
    return body;
  }

  private async requireSource(src: DownloadSource): Promise<void> {
    if (!(await this.originals.usable(src))) throw fileMissing(src.filename);
  }

  private passesThrough(src: DownloadSource, set: ConversionSet): boolean {
    return set.format === 'pdf' && src.format === 'pdf';
  }

  private async obtain(
    src: DownloadSource,
    set: ConversionSet,
    key: string,
    caller: ConversionCaller,
    stop: AbortSignal,
  ): Promise<DownloadFile> {
    const { mime, ext } = output[set.format];
    for (;;) {
      if (stop.aborted) throw clientGone();
      const { row, ready } = await this.lookUp(src.sha256, key);
      if (row && ready && row.path && row.bytes !== null && row.crc32 !== null) {
        const now = Date.now();
        if (row.last_used < now - TOUCH_EVERY_MS) {
          await this.repository.touchConversion(src.sha256, key, now);
          row.last_used = now;
        }
        return { key: row.path, open: this.opener(row.path), mime, bytes: row.bytes, crc32: row.crc32, ext };
      }
      // Another process is making it: wait for its file without taking a slot.
      if (row?.status === 'running' && row.claimed_until >= Date.now()) {
        await sleep(this.pollMs);
        continue;
      }
      const retake = row?.status === 'done';
      const made = await this.budget.run(
        'convert',
        caller.job ? 'job' : 'request',
        async () => {
          const claimed = await this.repository.claimConversion(src.sha256, key, Date.now(), this.claimLeaseMs, retake);
          return claimed ? this.convert(src, set, key, stop) : undefined;
        },
        { forAccount: caller.forAccount ?? false, signal: stop },
      );
      if (made) return made;
    }
  }

  private async convert(
    src: DownloadSource,
    set: ConversionSet,
    key: string,
    stop: AbortSignal,
  ): Promise<DownloadFile> {
    const { mime, ext } = output[set.format];
    const rel = path.join(src.sha256.slice(0, 2), src.sha256, `${key}.${ext}`);
    const started = Date.now();
    const renew = setInterval(
      () =>
        void this.repository
          .renewConversion(src.sha256, key, Date.now() + this.claimLeaseMs)
          .catch((err: unknown) =>
            this.options.log?.warn({ error: (err as Error).message }, 'the claim of a conversion could not be renewed'),
          ),
      Math.max(20, Math.floor(this.claimLeaseMs / 3)),
    );
    try {
      // One local file of the original for the tools (a copy, when it is in a bucket).
      const { size, sum } = await this.originals.withLocalCopy(src, (file) =>
        this.store.write([rel], async ([tmp = '']) => {
          const size = await this.make(src, file, set, tmp, stop);
          // An image cannot be stopped half-way; it is not kept for callers who are gone.
          if (stop.aborted) throw clientGone();
          if (set.keepMetadata) await this.dropPrivateTags(src, set, tmp);
          // Summed before it is put in place: an object store's copy is not read back.
          return { size, sum: await crc32OfFile(tmp) };
        }),
      );
      await this.repository.finishConversion(src.sha256, key, { path: rel, mime, ...sum, ...size });
      this.options.log?.info(
        { asset: src.id, set: set.id, bytes: sum.bytes, ms: Date.now() - started },
        'conversion made',
      );
      return { key: rel, open: this.opener(rel), mime, ...sum, ext };
    } catch (err) {
      this.recent.delete(`${src.sha256}:${key}`);
      await this.repository.dropConversion(src.sha256, key);
      if (stop.aborted) {
        this.options.log?.info(
          { asset: src.id, set: set.id, ms: Date.now() - started },
          'conversion stopped: nobody waits for it',
        );
        throw clientGone();
      }
      if (err instanceof DomainError) throw err;
      // The tool's message names server paths and internals: it goes to the log, not to the caller.
      this.options.log?.warn({ asset: src.id, set: set.id, error: (err as Error).message }, 'a conversion failed');
      throw unsupportedMediaType(`${src.filename} could not be converted to ${set.format}.`);
    } finally {
      clearInterval(renew);
    }
  }

  /** Converts the original, a local file, into `tmp`. */
  private async make(
    src: DownloadSource,
    file: string,
    set: ConversionSet,
    tmp: string,
    stop: AbortSignal,
  ): Promise<{ width: number | null; height: number | null }> {
    if (set.format === 'mp4' || set.format === 'm4a') {
      if (src.asset_group !== 'video' && src.asset_group !== 'audio') throw cannotConvert(src, set);
      await convertAv(file, tmp, { format: set.format, maxSize: set.maxSize, keepMetadata: set.keepMetadata }, stop);
      return { width: null, height: null };
    }
    if (set.format === 'pdf') throw cannotConvert(src, set);
    return convertImage(await this.picture(src, file, set), tmp, { ...set, format: set.format });
  }

  /**
   * A derived set never carries what is private for anyone (docs/security.md "Stripped originals"):
   * a set that keeps the original's metadata keeps it without positions, serial numbers, owners and
   * contacts. Every output format of a set is one exiftool writes; should one not be, the
   * conversion fails rather than hand them out.
   */
  private async dropPrivateTags(src: DownloadSource, set: ConversionSet, tmp: string): Promise<void> {
    const { tags } = privateTags();
    if ((await findEmbeddedTags(tmp, tags)).length === 0) return;
    if (!(await removeEmbeddedTags(tmp, tags))) throw cannotConvert(src, set);
  }

  /**
   * The original without the tags `hidden` fields and private data are read from
   * (download.stripPrivateMetadata, for callers without an account): a copy cleaned by exiftool,
   * cached like a conversion by the original's checksum and the removed tags, made in the work
   * budget's pool of conversions. An original carrying none of the tags, or in a format exiftool
   * cannot write, is served as it is; the cache notes that too, so it is read once.
   */
  async withoutPrivateTags(src: DownloadSource, hidden: Iterable<string>): Promise<DownloadFile> {
    await this.requireSource(src);
    const removal = privateTags(hidden);
    const key = strippedKey(removal);
    return once(this.stripping, `${src.sha256}:${key}`, () => this.obtainStripped(src, removal, key));
  }

  /** Whether `withoutPrivateTags` has its answer ready, so no work (and no lock) is needed. */
  async isStrippedReady(src: DownloadSource, hidden: Iterable<string>): Promise<boolean> {
    const { row, ready } = await this.lookUp(src.sha256, strippedKey(privateTags(hidden)));
    return ready || (row?.status === 'done' && row.path === null);
  }

  private async obtainStripped(src: DownloadSource, removal: TagRemoval, key: string): Promise<DownloadFile> {
    for (;;) {
      const { row, ready } = await this.lookUp(src.sha256, key);
      if (row?.status === 'done' && (row.path === null || (ready && row.bytes !== null && row.crc32 !== null))) {
        const now = Date.now();
        if (row.last_used < now - TOUCH_EVERY_MS) {
          await this.repository.touchConversion(src.sha256, key, now);
          row.last_used = now;
        }
        if (row.path === null) return this.original(src);
        return {
          key: row.path,
          open: this.opener(row.path),
          mime: src.mime,
          bytes: row.bytes ?? 0,
          crc32: row.crc32 ?? 0,
          ext: '',
        };
      }
      if (row?.status === 'running' && row.claimed_until >= Date.now()) {
        await sleep(this.pollMs);
        continue;
      }
      const retake = row?.status === 'done';
      const made = await this.budget.run('convert', 'request', async () => {
        const claimed = await this.repository.claimConversion(src.sha256, key, Date.now(), this.claimLeaseMs, retake);
        return claimed ? this.strip(src, removal, key) : undefined;
      });
      // Its checksum is taken outside the slot of the conversions' pool.
      if (made === 'original') return this.original(src);
      if (made) return made;
    }
  }

  /** Makes the cleaned copy; 'original' when the original is served as it is. */
  private async strip(src: DownloadSource, removal: TagRemoval, key: string): Promise<DownloadFile | 'original'> {
    const rel = path.join(src.sha256.slice(0, 2), src.sha256, `${key}${extensionOf(src.filename)}`);
    const renew = setInterval(
      () =>
        void this.repository
          .renewConversion(src.sha256, key, Date.now() + this.claimLeaseMs)
          .catch((err: unknown) =>
            this.options.log?.warn(
              { error: (err as Error).message },
              'the claim of a cleaned original could not be renewed',
            ),
          ),
      Math.max(20, Math.floor(this.claimLeaseMs / 3)),
    );
    try {
      // Read first: most files carry none of the tags, and those are served without a copy.
      const made = await this.originals.withLocalCopy(src, async (file) => {
        if ((await findEmbeddedTags(file, removal.tags)).length === 0) return undefined;
        return this.store
          .write([rel], async ([tmp = '']) => {
            await copyFile(file, tmp);
            // Thrown, so that the copy is not put in place.
            if (!(await removeEmbeddedTags(tmp, removal.tags))) throw new NotWritable();
            return crc32OfFile(tmp);
          })
          .catch((err: unknown) => {
            if (!(err instanceof NotWritable)) throw err;
            this.options.log?.warn(
              { asset: src.id, format: src.format },
              'exiftool cannot write this format: the original is served as it is',
            );
            return undefined;
          });
      });
      if (!made) {
        await this.repository.finishAsOriginal(src.sha256, key);
        return 'original';
      }
      await this.repository.finishConversion(src.sha256, key, {
        path: rel,
        mime: src.mime,
        ...made,
        width: null,
        height: null,
      });
      this.options.log?.info({ asset: src.id, removed: removal.groups, bytes: made.bytes }, 'original cleaned');
      return { key: rel, open: this.opener(rel), mime: src.mime, ...made, ext: '' };
    } catch (err) {
      this.recent.delete(`${src.sha256}:${key}`);
      await this.repository.dropConversion(src.sha256, key);
      if (err instanceof DomainError) throw err;
      this.options.log?.warn({ asset: src.id, error: (err as Error).message }, 'an original could not be cleaned');
      // Not the original instead: it carries what this caller may not have.
      throw unsupportedMediaType(`${src.filename} could not be made ready for download; please ask the portal's team.`);
    } finally {
      clearInterval(renew);
    }
  }

  private opener(key: string): (range?: ByteRange) => Promise<Readable> {
    return async (range) => (await this.store.open(key, range)).stream;
  }

  /** Finished conversions in the cache: files and bytes. */
  async usage(): Promise<{ files: number; bytes: number }> {
    return this.repository.conversionUsage();
  }

  /** The size the cache is trimmed to: the configured one, else a share of the data folder's disk. */
  async limit(maxGB: number | undefined): Promise<number> {
    if (maxGB !== undefined) return Math.floor(maxGB * 1024 ** 3);
    const disk = await statfs(this.dataDir);
    return Math.min(CAP_BYTES, Math.floor(disk.blocks * disk.bsize * DISK_SHARE));
  }

  /**
   * Removes finished conversions, least recently used first, until their bytes are at most
   * `limitBytes` (0: all). Each row goes before its file, so no caller is handed a file that is
   * about to vanish; a conversion that is running, or was served since it was picked, stays.
   */
  async trim(
    limitBytes: number,
    onProgress?: (done: { files: number; bytes: number }, total: { files: number; bytes: number }) => void,
  ): Promise<{ files: number; bytes: number }> {
    const total = await this.usage();
    const removed = { files: 0, bytes: 0 };
    let excess = total.bytes - limitBytes;
    const clearAll = limitBytes <= 0;
    while (excess > 0 || (clearAll && removed.files < total.files)) {
      const batch = await this.repository.leastRecentlyUsed(TRIM_BATCH);
      let progressed = false;
      for (const row of batch) {
        if (excess <= 0 && !clearAll) break;
        if (!(await this.repository.evictConversion(row.sha256, row.cset_key, row.last_used))) continue;
        this.recent.delete(`${row.sha256}:${row.cset_key}`);
        if (row.path) await this.store.remove(row.path);
        progressed = true;
        removed.files++;
        removed.bytes += row.bytes ?? 0;
        excess -= row.bytes ?? 0;
        onProgress?.(removed, total);
      }
      if (!progressed) break;
    }
    return removed;
  }

  /** The picture a set converts from the original's local file: the image itself, or the first page of a document. */
  private async picture(src: DownloadSource, file: string, set: ConversionSet): Promise<string | Buffer> {
    if (src.asset_group === 'document') return pdfPagePng(file, 1, set.maxSize ?? 2480);
    if (src.asset_group !== 'image') throw cannotConvert(src, set);
    return ffmpegImages.has(src.format) ? decodeImageWithFfmpeg(file) : file;
  }
}

/** A copy in a format exiftool cannot write: the original is served as it is. */
class NotWritable extends Error {}

function cannotConvert(src: DownloadSource, set: ConversionSet): DomainError {
  return unsupportedMediaType(`${src.filename} cannot be converted to ${set.format}.`);
}

/** The extension a set's output gets, for download names. */
export function outputOf(set: ConversionSet | undefined): { mime: string; ext: string } | undefined {
  return set ? output[set.format] : undefined;
}
