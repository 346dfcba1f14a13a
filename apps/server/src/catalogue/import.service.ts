import { createHash } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isSafeKey, SharedFolderStore, type MediaStore, type WalkedFile } from '../adapters/media-store.ts';
import { objectStoreProblem } from '../adapters/s3-store.ts';
import { bucketLocation, bucketSourcePath, Originals } from '../derivatives/source-file.ts';
import { readEmbeddedMetadata, readXmpSidecar } from '../adapters/metadata.ts';
import type { Settings } from '../settings.ts';
import { writeBatchSize } from '../db/serve-lock.ts';
import type { CatalogueRepository, KnownAsset } from './catalogue.repository.ts';
import { assetWriteOf, probe } from './asset-write.ts';
import {
  captionFormatOf,
  captionTarget,
  CaptionFileError,
  readCaption,
  type CaptionSidecar,
  type CaptionTrack,
} from './caption-file.ts';
import { fileTypeOf, isCompanionFile, unsupportedTypeReason } from './file-types.ts';
import { MANIFEST_NAMES, readManifest, readSidecar, SidecarError, type Sidecar } from './sidecar.ts';

export interface ImportSummary {
  /** Files looked at (assets and unsupported files; companions and metadata files not counted). */
  files: number;
  bytes: number;
  imported: number;
  updated: number;
  unchanged: number;
  gone: number;
  failed: { file: string; reason: string }[];
  warnings: string[];
  seconds: number;
}

export interface ImportProgress {
  done: number;
  total: number;
  file: string;
}

/** The folder to import cannot be used (the command says so and stops). */
export class ImportInputError extends Error {}

/** Bumped when the import changes how it reads files, so that a re-import updates every asset. */
const IMPORT_VERSION = '1';

interface Found {
  /** Its source path. */
  file: string;
  /** Its key in the tree's store. */
  key: string;
  /** The source path of its folder, and the folder's key ('' for the top). */
  folder: string;
  folderKey: string;
  size: number;
  modified: Date;
  /** The names of the files in its folder. */
  names: ReadonlySet<string>;
  /** Caption files beside a video, named after it. */
  captions: CaptionSidecar[];
}

/** What the files of one import run share. */
interface Run {
  summary: ImportSummary;
  /** The assets already catalogued under the tree, by source path. */
  known: Map<string, KnownAsset>;
  /** The manifest sidecars of a file's folder. */
  manifestOf: (f: Found) => Promise<Map<string, Sidecar>>;
  read: { text: (file: string) => Promise<string> };
}

const emptySummary = (): ImportSummary => ({
  files: 0,
  bytes: 0,
  imported: 0,
  updated: 0,
  unchanged: 0,
  gone: 0,
  failed: [],
  warnings: [],
  seconds: 0,
});

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Where an import reads: a local folder, or a prefix of a bucket of an object store. Its files are
 * the keys of `store`; an asset's source path is `root`, `sep` and its key.
 */
interface ImportTree {
  /** Source paths begin with it: '/srv/media' or 's3://bucket/prefix'. */
  root: string;
  sep: string;
  /** What assets keep as the root their file must stay in (a folder's real path). */
  importRoot: string;
  /** The top collection's name: the folder's, or the prefix's last part (else the bucket's). */
  name: string;
  store: MediaStore;
}

/** A tree's files in depth-first order of their names, as a folder listing sorted per folder gives them. */
function byPath(a: WalkedFile, b: WalkedFile): number {
  const x = a.key.split('/');
  const y = b.key.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const c = (x[i] ?? '').localeCompare(y[i] ?? '');
    if (c !== 0) return c;
  }
  return x.length - y.length;
}

/** `s3://bucket/prefix` → bucket and prefix (without slashes at its ends); undefined for any other source. */
export function bucketSource(source: string): { bucket: string; prefix: string } | undefined {
  const at = bucketLocation(source);
  if (!at) return undefined;
  return { bucket: at.bucket, prefix: at.key.replace(/^\/+|\/+$/g, '') };
}

/**
 * `vitrine import <folder>` and `vitrine import s3://bucket/prefix`: catalogues every supported file
 * under a folder or bucket prefix with its embedded and sidecar metadata. Originals imported from a
 * bucket stay there (their source path is `s3://bucket/key`); the tools that read them get a
 * temporary local copy. An operator's tool (run from a shell on the server), so it has no caller
 * to check. Each file is written in its own transaction; a file that cannot be read is reported and
 * skipped.
 */
export class ImportService {
  private collections = new Map<string, number>();

  constructor(
    private readonly repo: CatalogueRepository,
    private readonly settings: Settings,
    /** Where originals are read: their folders, and the buckets (`s3://…`) they are imported from. */
    private readonly originals = new Originals(),
  ) {}

  /** The files to catalogue in a tree; caption files go with their video (or to `warnings`). */
  private async walk(tree: ImportTree, warnings: string[]): Promise<Found[]> {
    const files = (await tree.store.walk(''))
      // Hidden files and folders are skipped.
      .filter((f) => !f.key.split('/').some((part) => part.startsWith('.')))
      .sort(byPath);
    const byFolder = new Map<string, WalkedFile[]>();
    for (const f of files) {
      const folder = f.key.includes('/') ? f.key.slice(0, f.key.lastIndexOf('/')) : '';
      byFolder.set(folder, [...(byFolder.get(folder) ?? []), f]);
    }
    const out: Found[] = [];
    for (const [folderKey, entries] of byFolder) {
      const folder = folderKey === '' ? tree.root : `${tree.root}${tree.sep}${folderKey.split('/').join(tree.sep)}`;
      const baseName = (f: WalkedFile) => f.key.slice(f.key.lastIndexOf('/') + 1);
      const names = new Set(entries.map(baseName));
      const videos = new Map<string, Found[]>();
      const captions: WalkedFile[] = [];
      for (const e of entries) {
        const name = baseName(e);
        if (MANIFEST_NAMES.includes(name)) continue;
        if (name.endsWith('.json') && names.has(name.slice(0, -5))) continue;
        // XMP files are metadata (`photo.jpg.xmp` is read with its file), never assets.
        if (path.extname(name).toLowerCase() === '.xmp') continue;
        if (isCompanionFile(name)) continue;
        if (captionFormatOf(name)) {
          captions.push(e);
          continue;
        }
        const found: Found = {
          file: `${folder}${tree.sep}${name}`,
          key: e.key,
          folder,
          folderKey,
          size: e.size,
          modified: e.modified,
          names,
          captions: [],
        };
        if (fileTypeOf(name)?.group === 'video') {
          const stem = name.slice(0, -path.extname(name).length);
          videos.set(stem, [...(videos.get(stem) ?? []), found]);
        }
        out.push(found);
      }
      for (const c of captions) {
        const name = baseName(c);
        const format = captionFormatOf(name);
        const target = captionTarget(name, videos);
        if (!format || !target) {
          warnings.push(`${c.key}: a caption file named after no video beside it`);
          continue;
        }
        for (const video of target.videos)
          video.captions.push({ file: `${folder}${tree.sep}${name}`, format, lang: target.lang });
      }
    }
    // Depth-first, as a folder is read: a folder's files and subfolders in the order of their names.
    return out.sort((a, b) => byPath({ key: a.key } as WalkedFile, { key: b.key } as WalkedFile));
  }

  /** The key of a file of a tree by its source path. */
  private keyOf(tree: ImportTree, file: string): string {
    return file
      .slice(tree.root.length + tree.sep.length)
      .split(tree.sep)
      .join('/');
  }

  /** Reads small files of a tree (sidecars, manifests, captions) by their source paths. */
  private reader(tree: ImportTree) {
    const bytes = async (file: string) => {
      const { stream } = await tree.store.open(this.keyOf(tree, file));
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    return {
      text: async (file: string) => (await bytes(file)).toString('utf8'),
      captions: {
        size: async (file: string) => (await tree.store.stat(this.keyOf(tree, file)))?.size ?? 0,
        bytes,
      },
    };
  }

  /**
   * The caption tracks of a video as its caption files are now; a file that cannot be used is left
   * out with its reason in `warnings`.
   */
  private async captionsOf(f: Found, warnings: string[], tree: ImportTree): Promise<CaptionTrack[]> {
    const tracks: CaptionTrack[] = [];
    for (const sidecar of f.captions) {
      try {
        tracks.push(
          await readCaption(sidecar, this.settings.file.catalogue.defaultLanguage, this.reader(tree).captions),
        );
      } catch (err) {
        const reason = err instanceof CaptionFileError ? err.message : `cannot be read (${(err as Error).message})`;
        warnings.push(`${this.keyOf(tree, sidecar.file)}: caption left out: ${reason}`);
      }
    }
    return tracks;
  }

  /** The collection of a folder of the tree (by its key, '' for the top) and those above it. */
  private async collectionFor(tree: ImportTree, folderKey: string): Promise<number> {
    const rel = folderKey === '' ? tree.name : `${tree.name}/${folderKey}`;
    let parent: number | null = null;
    let acc = '';
    for (const part of rel.split('/')) {
      acc = acc ? `${acc}/${part}` : part;
      let id = this.collections.get(acc);
      if (id === undefined) {
        id = await this.repo.ensureCollection(acc, part, parent);
        this.collections.set(acc, id);
      }
      parent = id;
    }
    return parent ?? 0;
  }

  /** Collections named in sidecars have a path of their own kind (`#name`), apart from folders. */
  private async namedCollection(name: string): Promise<number> {
    const key = `#${name}`;
    let id = this.collections.get(key);
    if (id === undefined) {
      id = await this.repo.ensureCollection(key, name, null);
      this.collections.set(key, id);
    }
    return id;
  }

  /**
   * `photo.jpg.xmp` beside a file (written back by the portal's editors, or by Lightroom or Bridge),
   * as sidecar values: below the JSON sidecar, above the folder's manifest and the embedded
   * metadata. Texts keep their languages ('' for XMP's x-default).
   */
  private async xmpSidecar(tree: ImportTree, key: string): Promise<Sidecar> {
    const x = await tree.store.withLocalCopy(key, readXmpSidecar).catch((err: unknown) => {
      throw new SidecarError(`${key}: not a readable XMP file (${(err as Error).message})`);
    });
    const out: Sidecar = {};
    if (Object.keys(x.title).length > 0) out.title = x.title;
    if (Object.keys(x.description).length > 0) out.description = x.description;
    if (x.keywords.length > 0) out.keywords = x.keywords;
    if (x.creator !== null) out.creator = x.creator;
    if (x.copyright !== null) out.copyright = x.copyright;
    if (x.created !== null) out.created = x.created;
    return out;
  }

  /**
   * Catalogues one file of a tree: sidecars, checksum, what the file says of itself, the asset's
   * write with its derivative jobs. Every way a file arrives (a folder, a bucket, an upload) goes
   * through here. `collections` names where the asset goes instead of its folder's collection; it
   * is asked only once the file was read, so a file that cannot be read leaves no collection
   * behind. Answers the asset's id, or undefined when the file failed (its reason in `failed`).
   */
  private async importFound(
    tree: ImportTree,
    f: Found,
    run: Run,
    collections?: () => Promise<number[]>,
  ): Promise<number | undefined> {
    const { summary, known, manifestOf, read } = run;
    const rel = f.key.split('/').join(path.sep);
    try {
      const type = fileTypeOf(f.file);
      if (!type) throw new Error(unsupportedTypeReason(f.file));
      if (!isSafeKey(f.key)) throw new Error('the name has empty, . or .. parts');
      summary.files++;
      summary.bytes += f.size;
      const name = path.basename(f.file);
      const manifest = await manifestOf(f);
      const sc: Sidecar = {
        ...manifest.get(name),
        ...(f.names.has(`${name}.xmp`) ? await this.xmpSidecar(tree, `${f.key}.xmp`) : {}),
        ...(f.names.has(`${name}.json`) ? await readSidecar(`${f.file}.json`, read.text) : {}),
      };
      const sha = await sha256Of((await tree.store.open(f.key)).stream);
      const fingerprint = createHash('sha256')
        .update(JSON.stringify([IMPORT_VERSION, sha, sc, this.settings.file.catalogue.defaultAccessGroups]))
        .digest('hex');
      const before = known.get(f.file);
      const same = before?.fingerprint === fingerprint && before.import_root === tree.importRoot;
      // Captions are kept apart from the asset: a changed caption file does not make the video again.
      const captions = type.group === 'video' ? await this.captionsOf(f, summary.warnings, tree) : [];
      // A binned asset's unchanged file is as unchanged as an active one's: it stays in the bin.
      if (before && (before.status === 'active' || before.status === 'bin') && same) {
        await this.repo.saveCaptions(before.id, captions);
        summary.unchanged++;
        return before.id;
      }
      // The tools read a local file: the folder's own, or a temporary copy of the object.
      const { probed, embedded } = await tree.store.withLocalCopy(f.key, async (file) => ({
        probed: await probe(file, type).catch((err: unknown) => {
          throw new Error(`the file cannot be read as ${type.format.toUpperCase()}: ${(err as Error).message}`);
        }),
        embedded: await readEmbeddedMetadata(file).catch((err: unknown) => {
          summary.warnings.push(`${rel}: embedded metadata could not be read (${(err as Error).message})`);
          return null;
        }),
      }));
      const write = assetWriteOf(
        this.settings,
        f,
        type,
        { sha, size: f.size, mtime: Math.round(f.modified.getTime()), fingerprint, root: tree.importRoot },
        probed,
        embedded,
        sc,
        summary.warnings,
      );
      const collectionIds = collections ? await collections() : [await this.collectionFor(tree, f.folderKey)];
      for (const name of sc.collections ?? []) collectionIds.push(await this.namedCollection(name));
      const saved = await this.repo.saveAsset({ ...write, collectionIds, captions });
      if (saved.created) summary.imported++;
      else summary.updated++;
      return saved.id;
    } catch (err) {
      const reason = err instanceof SidecarError ? `sidecar metadata: ${err.message}` : (err as Error).message;
      summary.failed.push({ file: rel, reason });
      return undefined;
    }
  }

  /**
   * Imports one file that arrived on its own (an upload) through the same step as each file of a
   * tree; its folder (or the bucket prefix it lies under) is the root it must stay in. `source` is
   * a local path or `s3://bucket/key`. Answers the asset's id, or the reason the file was refused
   * (the one `vitrine import` prints for it).
   */
  async importFile(
    source: string,
    collections: () => Promise<number[]>,
  ): Promise<{ id: number; warnings: string[] } | { reason: string }> {
    const at = bucketLocation(source);
    let tree: ImportTree;
    if (at) {
      const slash = at.key.lastIndexOf('/');
      const prefix = slash < 0 ? '' : at.key.slice(0, slash);
      const store = this.originals.bucket(at.bucket, prefix === '' ? '' : `${prefix}/`);
      if (!store) throw new ImportInputError(`${source}: this Vitrine reaches no object store`);
      const root = bucketSourcePath(at.bucket, prefix).replace(/\/$/, '');
      tree = { root, sep: '/', importRoot: root, name: path.posix.basename(prefix), store };
    } else {
      const root = path.dirname(path.resolve(source));
      const store = new SharedFolderStore(root, { writes: false });
      tree = { root, sep: path.sep, importRoot: await realpath(root), name: path.basename(root), store };
    }
    const name = at ? path.posix.basename(at.key) : path.basename(source);
    const info = await tree.store.stat(name);
    if (!info) throw new ImportInputError(`${source} is not there`);
    const f: Found = {
      file: `${tree.root}${tree.sep}${name}`,
      key: name,
      folder: tree.root,
      folderKey: '',
      size: info.size,
      modified: info.modified,
      names: new Set([name]),
      captions: [],
    };
    const summary = emptySummary();
    const known = new Map((await this.repo.assetsUnder(tree.root + tree.sep)).map((a) => [a.source_path, a]));
    const run: Run = { summary, known, manifestOf: async () => new Map(), read: this.reader(tree) };
    const id = await this.importFound(tree, f, run, collections);
    return id === undefined
      ? { reason: summary.failed[0]?.reason ?? 'the file could not be imported' }
      : { id, warnings: summary.warnings };
  }

  /** Imports a folder, or a bucket prefix named `s3://bucket/prefix`. */
  async importFrom(source: string, onProgress?: (p: ImportProgress) => void): Promise<ImportSummary> {
    const inBucket = bucketSource(source);
    return inBucket ? this.importBucket(inBucket, onProgress) : this.importFolder(source, onProgress);
  }

  async importFolder(folder: string, onProgress?: (p: ImportProgress) => void): Promise<ImportSummary> {
    const root = path.resolve(folder);
    const rootStat = await stat(root).catch(() => undefined);
    if (!rootStat?.isDirectory()) throw new ImportInputError(`${root} is not a folder`);
    // Files are served only while they stay inside the folder as it is now (docs/security.md).
    const importRoot = await realpath(root);
    const store = new SharedFolderStore(root, { writes: false });
    return this.importTree({ root, sep: path.sep, importRoot, name: path.basename(root), store }, onProgress);
  }

  /**
   * Imports the objects under a prefix of a bucket (S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE and
   * the credentials of the settings reach it); they stay in the bucket.
   */
  private async importBucket(
    at: { bucket: string; prefix: string },
    onProgress?: (p: ImportProgress) => void,
  ): Promise<ImportSummary> {
    const root = bucketSourcePath(at.bucket, at.prefix).replace(/\/$/, '');
    if (!at.bucket) throw new ImportInputError(`${root} names no bucket (s3://bucket/prefix)`);
    if (at.prefix !== '' && !isSafeKey(at.prefix))
      throw new ImportInputError(`${root}: the prefix must not hold empty, . or .. parts`);
    const store = this.originals.bucket(at.bucket, at.prefix === '' ? '' : `${at.prefix}/`);
    if (!store) throw new ImportInputError(`${root}: this Vitrine reaches no object store`);
    const name = at.prefix === '' ? at.bucket : at.prefix.slice(at.prefix.lastIndexOf('/') + 1);
    // The service's answer to a first listing says whether the bucket is there and may be read.
    await store.list('').catch((err: unknown) => {
      const problem = objectStoreProblem(err, at.bucket);
      throw problem ? new ImportInputError(`${root}: ${problem}`) : err;
    });
    return this.importTree({ root, sep: '/', importRoot: root, name, store }, onProgress);
  }

  private async importTree(tree: ImportTree, onProgress?: (p: ImportProgress) => void): Promise<ImportSummary> {
    const started = performance.now();
    const { root } = tree;
    const summary = emptySummary();
    const found = await this.walk(tree, summary.warnings);
    const known = new Map((await this.repo.assetsUnder(root + tree.sep)).map((a) => [a.source_path, a]));
    const read = this.reader(tree);
    const manifests = new Map<string, Promise<Map<string, Sidecar>>>();
    const manifestOf = (f: Found) => {
      let m = manifests.get(f.folder);
      if (!m) {
        m = (async () => {
          const merged = new Map<string, Sidecar>();
          for (const name of MANIFEST_NAMES) {
            if (!f.names.has(name)) continue;
            for (const [k, v] of await readManifest(`${f.folder}${tree.sep}${name}`, read.text))
              merged.set(k, { ...merged.get(k), ...v });
          }
          return merged;
        })();
        manifests.set(f.folder, m);
      }
      return m;
    };

    let done = 0;
    const run: Run = { summary, known, manifestOf, read };
    const one = async (f: Found) => {
      try {
        await this.importFound(tree, f, run);
      } finally {
        onProgress?.({ done: ++done, total: found.length, file: f.key.split('/').join(path.sep) });
      }
    };

    let next = 0;
    const lanes = Math.max(1, Math.min(availableParallelism(), 4));
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < found.length) {
          const f = found[next++];
          if (f) await one(f);
        }
      }),
    );

    const seen = new Set(found.map((f) => f.file));
    const gone = [...known.values()].filter((a) => a.status === 'active' && !seen.has(a.source_path)).map((a) => a.id);
    // Few per transaction while a server serves the SQLite database (db/serve-lock.ts).
    await this.repo.markGone(gone, { batch: await writeBatchSize(this.settings.database) });
    summary.gone = gone.length;
    summary.failed.sort((a, b) => a.file.localeCompare(b.file));
    summary.seconds = (performance.now() - started) / 1000;
    return summary;
  }
}
