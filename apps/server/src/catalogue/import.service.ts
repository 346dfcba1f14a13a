import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { readEmbeddedMetadata, type EmbeddedMetadata } from '../adapters/metadata.ts';
import { probeImage } from '../adapters/media.ts';
import { pdfInfo } from '../adapters/pdf.ts';
import { decodeImageWithFfmpeg, probeAv } from '../adapters/video.ts';
import type { Settings } from '../settings.ts';
import { writeBatchSize } from '../db/serve-lock.ts';
import type { AssetColumns, AssetWrite, CatalogueRepository } from './catalogue.repository.ts';
import {
  captionFormatOf,
  captionTarget,
  CaptionFileError,
  readCaption,
  type CaptionSidecar,
  type CaptionTrack,
} from './caption-file.ts';
import { fileTypeOf, isCompanionFile, playsInBrowser, type FileType } from './file-types.ts';
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
const MM_PER_INCH = 25.4;
/** The resolution assumed when an image does not state one (the usual default of image software). */
const DEFAULT_DPI = 72;
const labelColours: Record<string, number> = {
  red: 1,
  orange: 2,
  yellow: 3,
  green: 4,
  blue: 5,
  purple: 6,
  grey: 7,
  gray: 7,
};

interface Found {
  file: string;
  folder: string;
  /** Caption files beside a video, named after it. */
  captions: CaptionSidecar[];
}

interface Probed {
  pixel_x: number | null;
  pixel_y: number | null;
  bbox_x: number | null;
  bbox_y: number | null;
  duration: number | null;
  page_count: number | null;
  plays_in_browser?: number;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const mm = (px: number | null, dpi: number) => (px === null ? null : Math.round((px / dpi) * MM_PER_INCH * 10) / 10);

/** Reads what the file itself says about its size; throws for a file that cannot be read. */
async function probe(file: string, type: FileType): Promise<Probed> {
  const none: Probed = { pixel_x: null, pixel_y: null, bbox_x: null, bbox_y: null, duration: null, page_count: null };
  switch (type.group) {
    case 'image': {
      const img = await probeImage(file).catch(async (err: unknown) => {
        // BMP, TGA and some TIFF layouts: ffmpeg reads them where libvips does not.
        if (type.format === 'svg') throw err;
        return probeImage(await decodeImageWithFfmpeg(file)).catch(() => Promise.reject(err as Error));
      });
      const dpi = img.density ?? DEFAULT_DPI;
      return {
        ...none,
        pixel_x: img.width,
        pixel_y: img.height,
        bbox_x: mm(img.width, dpi),
        bbox_y: mm(img.height, dpi),
      };
    }
    case 'video':
    case 'audio': {
      const av = await probeAv(file);
      if (type.group === 'video' && !av.hasVideo) throw new Error('the file has no video stream');
      return {
        ...none,
        pixel_x: av.width,
        pixel_y: av.height,
        duration: av.duration,
        plays_in_browser: type.group === 'video' && playsInBrowser(type, av) ? 1 : 0,
      };
    }
    case 'document': {
      const pdf = await pdfInfo(file);
      const ptToMm = (pt: number | null) => (pt === null ? null : Math.round((pt / 72) * MM_PER_INCH * 10) / 10);
      return { ...none, page_count: pdf.pages, bbox_x: ptToMm(pdf.widthPt), bbox_y: ptToMm(pdf.heightPt) };
    }
    case '3d':
      return none;
  }
}

/** `{en: 'x'}` or `'x'` → rows per language ('' when the value has no language). */
function localizedRows(field: string, v: Sidecar['title'] | Sidecar['keywords'] | undefined) {
  if (v === undefined) return undefined;
  const rows: { field: string; lang: string; value: string }[] = [];
  const push = (lang: string, x: string | string[]) => {
    for (const value of Array.isArray(x) ? x : [x]) if (value.trim()) rows.push({ field, lang, value: value.trim() });
  };
  if (typeof v === 'string' || Array.isArray(v)) push('', v);
  else for (const [lang, x] of Object.entries<string | string[]>(v)) push(lang, x);
  return rows;
}

function titleFromName(file: string): string {
  return path.basename(file, path.extname(file)).replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * `vitrine import <folder>`: catalogues every supported file under a folder with its embedded and
 * sidecar metadata. An operator's tool (run from a shell on the server), so it has no caller to check.
 * Each file is written in its own transaction; a file that cannot be read is reported and skipped.
 */
export class ImportService {
  private collections = new Map<string, number>();

  constructor(
    private readonly repo: CatalogueRepository,
    private readonly settings: Settings,
  ) {}

  /** The files to catalogue under `folder`; caption files go with their video (or to `warnings`). */
  private async walk(folder: string, out: Found[], warnings: string[], root: string): Promise<void> {
    const entries = await readdir(folder, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    const names = new Set(entries.map((e) => e.name));
    const videos = new Map<string, Found[]>();
    const captionNames: string[] = [];
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(folder, e.name);
      if (e.isDirectory()) await this.walk(full, out, warnings, root);
      else if (e.isFile()) {
        if (MANIFEST_NAMES.includes(e.name)) continue;
        if (e.name.endsWith('.json') && names.has(e.name.slice(0, -5))) continue;
        if (isCompanionFile(e.name)) continue;
        if (captionFormatOf(e.name)) {
          captionNames.push(e.name);
          continue;
        }
        const found: Found = { file: full, folder, captions: [] };
        if (fileTypeOf(e.name)?.group === 'video') {
          const stem = e.name.slice(0, -path.extname(e.name).length);
          videos.set(stem, [...(videos.get(stem) ?? []), found]);
        }
        out.push(found);
      }
    }
    for (const name of captionNames) {
      const format = captionFormatOf(name);
      const target = captionTarget(name, videos);
      if (!format || !target) {
        warnings.push(`${path.relative(root, path.join(folder, name))}: a caption file named after no video beside it`);
        continue;
      }
      for (const video of target.videos)
        video.captions.push({ file: path.join(folder, name), format, lang: target.lang });
    }
  }

  /**
   * The caption tracks of a video as its caption files are now; a file that cannot be used is left
   * out with its reason in `warnings`.
   */
  private async captionsOf(f: Found, warnings: string[], root: string): Promise<CaptionTrack[]> {
    const tracks: CaptionTrack[] = [];
    for (const sidecar of f.captions) {
      try {
        tracks.push(await readCaption(sidecar, this.settings.file.catalogue.defaultLanguage));
      } catch (err) {
        const reason = err instanceof CaptionFileError ? err.message : `cannot be read (${(err as Error).message})`;
        warnings.push(`${path.relative(root, sidecar.file)}: caption left out: ${reason}`);
      }
    }
    return tracks;
  }

  private async collectionFor(root: string, folder: string): Promise<number> {
    const base = path.dirname(root);
    const rel = path.relative(base, folder).split(path.sep).join('/');
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

  private toWrite(
    f: Found,
    type: FileType,
    info: { sha: string; size: number; mtime: number; fingerprint: string; root: string },
    probed: Probed,
    embedded: EmbeddedMetadata | null,
    sc: Sidecar,
    warnings: string[],
  ): Omit<AssetWrite, 'collectionIds'> {
    const e = embedded;
    const values: AssetWrite['values'] = [];
    const add = (
      field: string,
      sidecarRows: AssetWrite['values'] | undefined,
      fallback: string | string[] | null | undefined,
    ) => {
      if (sidecarRows) return void values.push(...sidecarRows);
      for (const v of fallback === null || fallback === undefined
        ? []
        : Array.isArray(fallback)
          ? fallback
          : [fallback]) {
        values.push({ field, lang: '', value: v });
      }
    };
    add('title', localizedRows('title', sc.title), e?.title ?? titleFromName(f.file));
    add('description', localizedRows('description', sc.description), e?.description);
    add('keywords', localizedRows('keywords', sc.keywords), e?.keywords);
    add('category', localizedRows('category', sc.category), null);
    add('creator', undefined, sc.creator ?? e?.creator);
    add('copyright', undefined, sc.copyright ?? e?.copyright);
    add('license', undefined, sc.license ?? e?.license);
    add('camera_make', undefined, sc.camera_make ?? e?.cameraMake);
    add('camera_model', undefined, sc.camera_model ?? e?.cameraModel);
    const declared = new Set(this.settings.file.fields.map((x) => x.field_name));
    for (const [field, v] of Object.entries(sc.fields ?? {})) {
      if (!declared.has(field)) {
        warnings.push(`${f.file}: field "${field}" is not declared in the settings (fields) and was left out`);
        continue;
      }
      add(field, undefined, (Array.isArray(v) ? v : [v]).map(String));
    }
    const rating = sc.rating ?? e?.rating ?? null;
    const createdIso = sc.created ? Date.parse(sc.created) : null;
    const columns: AssetColumns = {
      source_path: f.file,
      import_root: info.root,
      filename: path.basename(f.file),
      sha256: info.sha,
      fingerprint: info.fingerprint,
      file_size: info.size,
      mime: type.mime,
      format: type.format,
      asset_group: type.group,
      created: createdIso ?? e?.created ?? info.mtime,
      ...probed,
      page_count: probed.page_count ?? (e?.pageCount ? Math.round(e.pageCount) : null),
      duration: probed.duration ?? e?.duration ?? null,
      color_code: sc.color_code ?? labelColours[(e?.label ?? '').toLowerCase()] ?? 0,
      rating: rating !== null && rating >= 1 ? Math.min(5, Math.round(rating)) : null,
      gps_lat: sc.gps?.lat ?? e?.gps?.lat ?? null,
      gps_lon: sc.gps?.lon ?? e?.gps?.lon ?? null,
      metadata: JSON.stringify({ embedded: e?.raw ?? {}, sidecar: sc }),
    };
    return { columns, values, accessGroups: sc.access_groups ?? this.settings.file.catalogue.defaultAccessGroups };
  }

  async importFolder(folder: string, onProgress?: (p: ImportProgress) => void): Promise<ImportSummary> {
    const started = performance.now();
    const root = path.resolve(folder);
    const rootStat = await stat(root).catch(() => undefined);
    if (!rootStat?.isDirectory()) throw new ImportInputError(`${root} is not a folder`);
    const summary: ImportSummary = {
      files: 0,
      bytes: 0,
      imported: 0,
      updated: 0,
      unchanged: 0,
      gone: 0,
      failed: [],
      warnings: [],
      seconds: 0,
    };
    // Files are served only while they stay inside the folder as it is now (docs/security.md).
    const importRoot = await realpath(root);
    const found: Found[] = [];
    await this.walk(root, found, summary.warnings, root);
    const known = new Map((await this.repo.assetsUnder(root + path.sep)).map((a) => [a.source_path, a]));
    const manifests = new Map<string, Promise<Map<string, Sidecar>>>();
    const manifestOf = (dir: string) => {
      let m = manifests.get(dir);
      if (!m) {
        m = (async () => {
          const merged = new Map<string, Sidecar>();
          for (const name of MANIFEST_NAMES) {
            if (!existsSync(path.join(dir, name))) continue;
            for (const [k, v] of await readManifest(dir, name)) merged.set(k, { ...merged.get(k), ...v });
          }
          return merged;
        })();
        manifests.set(dir, m);
      }
      return m;
    };

    let done = 0;
    const one = async (f: Found) => {
      const rel = path.relative(root, f.file);
      try {
        const type = fileTypeOf(f.file);
        if (!type) throw new Error(`not a supported file type (${path.extname(f.file) || 'no extension'})`);
        const st = await stat(f.file);
        summary.files++;
        summary.bytes += st.size;
        const sidecarFile = `${f.file}.json`;
        const manifest = await manifestOf(f.folder);
        const sc: Sidecar = {
          ...manifest.get(path.basename(f.file)),
          ...(existsSync(sidecarFile) ? await readSidecar(sidecarFile) : {}),
        };
        const sha = await sha256Of(f.file);
        const fingerprint = createHash('sha256')
          .update(JSON.stringify([IMPORT_VERSION, sha, sc, this.settings.file.catalogue.defaultAccessGroups]))
          .digest('hex');
        const before = known.get(f.file);
        const same = before?.fingerprint === fingerprint && before.import_root === importRoot;
        // Captions are kept apart from the asset: a changed caption file does not make the video again.
        const captions = type.group === 'video' ? await this.captionsOf(f, summary.warnings, root) : [];
        if (before && before.status === 'active' && same) {
          await this.repo.saveCaptions(before.id, captions);
          summary.unchanged++;
          return;
        }
        const probed = await probe(f.file, type).catch((err: unknown) => {
          throw new Error(`the file cannot be read as ${type.format.toUpperCase()}: ${(err as Error).message}`);
        });
        const embedded = await readEmbeddedMetadata(f.file).catch((err: unknown) => {
          summary.warnings.push(`${rel}: embedded metadata could not be read (${(err as Error).message})`);
          return null;
        });
        const write = this.toWrite(
          f,
          type,
          { sha, size: st.size, mtime: Math.round(st.mtimeMs), fingerprint, root: importRoot },
          probed,
          embedded,
          sc,
          summary.warnings,
        );
        const collectionIds = [await this.collectionFor(root, f.folder)];
        for (const name of sc.collections ?? []) collectionIds.push(await this.namedCollection(name));
        const saved = await this.repo.saveAsset({ ...write, collectionIds, captions });
        if (saved.created) summary.imported++;
        else summary.updated++;
      } catch (err) {
        const reason = err instanceof SidecarError ? `sidecar metadata: ${err.message}` : (err as Error).message;
        summary.failed.push({ file: rel, reason });
      } finally {
        onProgress?.({ done: ++done, total: found.length, file: rel });
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
