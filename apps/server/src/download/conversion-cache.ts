import { createHash } from 'node:crypto';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { convertImage } from '../adapters/media.ts';
import { SharedFolderStore, type MediaStore } from '../adapters/media-store.ts';
import { pdfPagePng } from '../adapters/pdf.ts';
import { convertAv, decodeImageWithFfmpeg } from '../adapters/video.ts';
import { crc32OfFile } from '../adapters/zip.ts';
import { DomainError, fileMissing, unsupportedMediaType } from '../http/errors.ts';
import type { ConversionSet } from '../settings.ts';
import type { DownloadRepository, DownloadSource } from './download.repository.ts';

/** A file ready for download: the original or a cached conversion. */
export interface DownloadFile {
  path: string;
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

const LEASE_MS = 10 * 60_000;
const POLL_MS = 200;

/** Changes when anything that shapes the output changes, so an edited set makes new files. */
export function conversionKey(set: ConversionSet): string {
  const { title: _title, userGroups: _u, assetGroups: _a, ...shape } = set;
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 32);
}

/**
 * Conversions for download, made on demand and cached by (content hash, conversion set) under
 * DATA_DIR/conversions. The work is done once: within a process concurrent callers share one
 * promise; across processes the `conversion` row is claimed by one and the others wait for it.
 */
export class ConversionCache {
  private readonly inFlight = new Map<string, Promise<DownloadFile>>();
  private readonly store: MediaStore;

  constructor(
    private readonly repository: DownloadRepository,
    dataDir: string,
  ) {
    this.store = new SharedFolderStore(path.join(dataDir, 'conversions'));
  }

  /** The original (set 0, and PDF passthrough of a PDF) needs no conversion, only its checksum. */
  async original(src: DownloadSource): Promise<DownloadFile> {
    await requireSource(src);
    let sum = (await this.repository.checksums([src.sha256])).get(src.sha256);
    if (!sum) {
      sum = await crc32OfFile(src.source_path);
      await this.repository.addChecksum(src.sha256, sum);
    }
    return { path: src.source_path, mime: src.mime, bytes: sum.bytes, crc32: sum.crc32, ext: '' };
  }

  /** Splits sources into those whose file is in its folder and those whose file went away. */
  async onDisk(sources: readonly DownloadSource[]): Promise<{ present: DownloadSource[]; missing: DownloadSource[] }> {
    const found = await Promise.all(sources.map((src) => hasSource(src)));
    return {
      present: sources.filter((_src, i) => found[i]),
      missing: sources.filter((_src, i) => !found[i]),
    };
  }

  /** Whether the set's output is already there, so no conversion work (and no lock) is needed. */
  async isReady(src: DownloadSource, set: ConversionSet | undefined): Promise<boolean> {
    if (!set || this.passesThrough(src, set)) return true;
    const row = await this.repository.conversion(src.sha256, conversionKey(set));
    return row?.status === 'done' && row.path !== null && (await this.store.exists(row.path));
  }

  async file(src: DownloadSource, set: ConversionSet | undefined): Promise<DownloadFile> {
    if (!set || this.passesThrough(src, set)) return this.original(src);
    // A finished conversion outlives its source, but the asset is on its way out of the portal.
    await requireSource(src);
    const key = conversionKey(set);
    const id = `${src.sha256}:${key}`;
    let work = this.inFlight.get(id);
    if (!work) {
      work = this.obtain(src, set, key).finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, work);
    }
    return work;
  }

  private passesThrough(src: DownloadSource, set: ConversionSet): boolean {
    return set.format === 'pdf' && src.format === 'pdf';
  }

  private async obtain(src: DownloadSource, set: ConversionSet, key: string): Promise<DownloadFile> {
    const { mime, ext } = output[set.format];
    for (;;) {
      const row = await this.repository.conversion(src.sha256, key);
      const ready = row?.status === 'done' && row.path && (await this.store.exists(row.path));
      if (row && ready && row.path && row.bytes !== null && row.crc32 !== null) {
        return { path: this.store.path(row.path), mime, bytes: row.bytes, crc32: row.crc32, ext };
      }
      if (await this.repository.claimConversion(src.sha256, key, Date.now(), LEASE_MS, row?.status === 'done')) {
        return this.convert(src, set, key);
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  private async convert(src: DownloadSource, set: ConversionSet, key: string): Promise<DownloadFile> {
    const { mime, ext } = output[set.format];
    const rel = path.join(src.sha256.slice(0, 2), src.sha256, `${key}.${ext}`);
    try {
      const size = await this.store.write([rel], async ([tmp]) => {
        if (set.format === 'mp4' || set.format === 'm4a') {
          if (src.asset_group !== 'video' && src.asset_group !== 'audio') throw cannotConvert(src, set);
          await convertAv(src.source_path, tmp, {
            format: set.format,
            maxSize: set.maxSize,
            keepMetadata: set.keepMetadata,
          });
          return { width: null, height: null };
        }
        if (set.format === 'pdf') throw cannotConvert(src, set);
        return convertImage(await this.picture(src, set), tmp, { ...set, format: set.format });
      });
      const target = this.store.path(rel);
      const sum = await crc32OfFile(target);
      await this.repository.finishConversion(src.sha256, key, { path: rel, mime, ...sum, ...size });
      return { path: target, mime, ...sum, ext };
    } catch (err) {
      await this.repository.dropConversion(src.sha256, key);
      if (err instanceof DomainError) throw err;
      throw unsupportedMediaType(`${src.filename} could not be converted: ${(err as Error).message}`);
    }
  }

  /** The picture a set converts: the image itself, or the first page of a document. */
  private async picture(src: DownloadSource, set: ConversionSet): Promise<string | Buffer> {
    if (src.asset_group === 'document') return pdfPagePng(src.source_path, 1, set.maxSize ?? 2480);
    if (src.asset_group !== 'image') throw cannotConvert(src, set);
    return ffmpegImages.has(src.format) ? decodeImageWithFfmpeg(src.source_path) : src.source_path;
  }
}

/** Whether the asset's file is still in its folder (until the next import marks the asset gone). */
async function hasSource(src: DownloadSource): Promise<boolean> {
  try {
    await access(src.source_path);
    return true;
  } catch {
    return false;
  }
}

async function requireSource(src: DownloadSource): Promise<void> {
  if (!(await hasSource(src))) throw fileMissing(src.filename);
}

function cannotConvert(src: DownloadSource, set: ConversionSet): DomainError {
  return unsupportedMediaType(`${src.filename} cannot be converted to ${set.format}.`);
}

/** The extension a set's output gets, for download names. */
export function outputOf(set: ConversionSet | undefined): { mime: string; ext: string } | undefined {
  return set ? output[set.format] : undefined;
}
