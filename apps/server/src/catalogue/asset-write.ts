// What one imported file becomes: its size as the file itself states it (probe), and the asset's
// columns and values made of its sidecar, its embedded metadata and that probe (assetWriteOf). The
// per-file step of the import (import.service.ts) reads the file and hands them in.
import path from 'node:path';
import type { EmbeddedMetadata } from '../adapters/metadata.ts';
import { probeImage } from '../adapters/media.ts';
import { pdfInfo } from '../adapters/pdf.ts';
import { decodeImageWithFfmpeg, probeAv } from '../adapters/video.ts';
import type { Settings } from '../settings.ts';
import { declaredFields } from '../access/field-audience.ts';
import type { AssetColumns, AssetWrite } from './catalogue.repository.ts';
import { playsInBrowser, type FileType } from './file-types.ts';
import type { Sidecar } from './sidecar.ts';

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

export interface Probed {
  pixel_x: number | null;
  pixel_y: number | null;
  bbox_x: number | null;
  bbox_y: number | null;
  duration: number | null;
  page_count: number | null;
  plays_in_browser?: number;
}

const mm = (px: number | null, dpi: number) => (px === null ? null : Math.round((px / dpi) * MM_PER_INCH * 10) / 10);

/** Reads what the file itself says about its size; throws for a file that cannot be read. */
export async function probe(file: string, type: FileType): Promise<Probed> {
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

/** The asset a file of the import becomes; values from its sidecar before those embedded in the file. */
export function assetWriteOf(
  settings: Settings,
  f: { file: string },
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
  const declared = new Set(declaredFields(settings.file.fields).map((x) => x.field_name));
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
  return { columns, values, accessGroups: sc.access_groups ?? settings.file.catalogue.defaultAccessGroups };
}
