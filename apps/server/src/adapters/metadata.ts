import { ExifTool } from 'exiftool-vendored';
import { registerHelper, unregisterHelper } from './process.ts';

/**
 * exiftool (exiftool-vendored, system perl) for embedded EXIF, IPTC and XMP. Values are reduced
 * here to plain JSON, with dates as epoch milliseconds, so the rest of the code never sees
 * exiftool's types. exiftool runs as a child process that stays: see `endHelpers()` (process.ts).
 */
export interface EmbeddedMetadata {
  title: string | null;
  description: string | null;
  keywords: string[];
  creator: string | null;
  copyright: string | null;
  license: string | null;
  rating: number | null;
  /** The XMP colour label (Adobe: Red, Yellow, Green, Blue, Purple). */
  label: string | null;
  created: number | null;
  gps: { lat: number; lon: number } | null;
  cameraMake: string | null;
  cameraModel: string | null;
  pageCount: number | null;
  duration: number | null;
  mime: string | null;
  /** Every tag exiftool reported, JSON-safe. */
  raw: Record<string, JsonValue>;
}

/**
 * The exiftool child process: started at the first use and registered as a long-lived helper, ended
 * by `endMetadataReader()` or `endHelpers()`; a later use starts a new one.
 */
let running: ExifTool | undefined;
function exiftool(): ExifTool {
  if (!running) {
    running = new ExifTool();
    registerHelper('exiftool', endMetadataReader);
  }
  return running;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

interface HasMillis {
  toMillis(): number;
}
const hasMillis = (v: unknown): v is HasMillis =>
  typeof v === 'object' && v !== null && typeof (v as Partial<HasMillis>).toMillis === 'function';

function toJson(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (hasMillis(v)) {
    const ms = v.toMillis();
    return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
  }
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const [k, x] of Object.entries(v)) out[k] = toJson(x);
    return out;
  }
  return null;
}

const text = (v: unknown): string | null => {
  if (Array.isArray(v)) return v.length ? text(v.join(', ')) : null;
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' ? null : t;
};
const list = (v: unknown): string[] => {
  if (Array.isArray(v)) return v.flatMap(list);
  const t = text(v);
  return t ? [t] : [];
};
const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number.parseFloat(v) : NaN;
  return Number.isFinite(n) ? n : null;
};
const millis = (v: unknown): number | null => {
  if (hasMillis(v)) {
    const ms = v.toMillis();
    return Number.isFinite(ms) ? ms : null;
  }
  if (typeof v === 'string') {
    const ms = Date.parse(v);
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
};
const first = <T>(tags: Record<string, unknown>, names: string[], read: (v: unknown) => T | null): T | null => {
  for (const n of names) {
    const v = read(tags[n]);
    if (v !== null) return v;
  }
  return null;
};

export async function readEmbeddedMetadata(file: string): Promise<EmbeddedMetadata> {
  const tags = (await exiftool().read(file)) as unknown as Record<string, unknown>;
  const keywords = [...new Set([...list(tags.Subject), ...list(tags.Keywords)])];
  const lat = num(tags.GPSLatitude);
  const lon = num(tags.GPSLongitude);
  const raw: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(tags)) {
    if (/^(SourceFile|Directory|File(Access|InodeChange|Permissions)|errors|warnings)/.test(k)) continue;
    raw[k] = toJson(v);
  }
  return {
    title: first(tags, ['Title', 'ObjectName', 'Headline'], text),
    description: first(tags, ['Description', 'Caption-Abstract', 'ImageDescription'], text),
    keywords,
    creator: first(tags, ['Creator', 'By-line', 'Artist', 'Author'], text),
    copyright: first(tags, ['Rights', 'CopyrightNotice', 'Copyright'], text),
    license: first(tags, ['License', 'UsageTerms', 'WebStatement'], text),
    rating: first(tags, ['Rating'], num),
    label: first(tags, ['Label'], text),
    created: first(
      tags,
      ['DateTimeOriginal', 'CreateDate', 'DateCreated', 'DigitalCreationDate', 'CreationDate'],
      millis,
    ),
    gps: lat !== null && lon !== null && !(lat === 0 && lon === 0) ? { lat, lon } : null,
    cameraMake: first(tags, ['Make'], text),
    cameraModel: first(tags, ['Model'], text),
    pageCount: first(tags, ['PageCount'], num),
    duration: first(tags, ['Duration'], num),
    mime: first(tags, ['MIMEType'], text),
    raw,
  };
}

/**
 * Writes EXIF/IPTC/XMP tags into a file in place (tools and test fixtures). Tag names may carry
 * their group (`IPTC:Keywords`, `XMP-dc:Title`), as on exiftool's command line.
 */
export async function writeEmbeddedMetadata(
  file: string,
  tags: Record<string, string | number | string[]>,
): Promise<void> {
  await exiftool().write(file, tags, { writeArgs: ['-overwrite_original'] });
}

/** Ends the exiftool child process, if one runs. */
async function endMetadataReader(): Promise<void> {
  const tool = running;
  running = undefined;
  unregisterHelper('exiftool');
  await tool?.end();
}
