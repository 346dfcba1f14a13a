import { randomBytes } from 'node:crypto';
import { copyFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
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
const first = <T>(
  tags: Record<string, unknown>,
  names: readonly string[],
  read: (v: unknown) => T | null,
): T | null => {
  for (const n of names) {
    const v = read(tags[n]);
    if (v !== null) return v;
  }
  return null;
};

/**
 * The embedded tags each index field is read from, first found first: the reader takes its values
 * from them, and `privateTags` removes them from a copy for callers who may not see the field.
 */
export const fieldTags = {
  title: ['Title', 'ObjectName', 'Headline'],
  description: ['Description', 'Caption-Abstract', 'ImageDescription'],
  keywords: ['Subject', 'Keywords'],
  creator: ['Creator', 'By-line', 'Artist', 'Author'],
  copyright: ['Rights', 'CopyrightNotice', 'Copyright'],
  license: ['License', 'UsageTerms', 'WebStatement'],
  rating: ['Rating'],
  color_code: ['Label'],
  created: ['DateTimeOriginal', 'CreateDate', 'DateCreated', 'DigitalCreationDate', 'CreationDate'],
  gps_lat: ['GPSLatitude'],
  gps_lon: ['GPSLongitude'],
  camera_make: ['Make'],
  camera_model: ['Model'],
} as const satisfies Record<string, readonly string[]>;

export async function readEmbeddedMetadata(file: string): Promise<EmbeddedMetadata> {
  const tags = (await exiftool().read(file)) as unknown as Record<string, unknown>;
  const keywords = [...new Set(fieldTags.keywords.flatMap((name) => list(tags[name])))];
  const lat = num(tags.GPSLatitude);
  const lon = num(tags.GPSLongitude);
  const raw: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(tags)) {
    if (/^(SourceFile|Directory|File(Access|InodeChange|Permissions)|errors|warnings)/.test(k)) continue;
    raw[k] = toJson(v);
  }
  return {
    title: first(tags, fieldTags.title, text),
    description: first(tags, fieldTags.description, text),
    keywords,
    creator: first(tags, fieldTags.creator, text),
    copyright: first(tags, fieldTags.copyright, text),
    license: first(tags, fieldTags.license, text),
    rating: first(tags, fieldTags.rating, num),
    label: first(tags, fieldTags.color_code, text),
    created: first(tags, fieldTags.created, millis),
    gps: lat !== null && lon !== null && !(lat === 0 && lon === 0) ? { lat, lon } : null,
    cameraMake: first(tags, fieldTags.camera_make, text),
    cameraModel: first(tags, fieldTags.camera_model, text),
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

/**
 * Tags nobody without an account is given, whichever fields they may see (docs/security.md
 * "Stripped originals"): positions (the EXIF GPS directory, XMP exif:GPS* and IPTC locations'
 * coordinates, QuickTime's GPSCoordinates and the MP4 location ffmpeg writes), serial numbers of
 * bodies, lenses and sensors (maker notes' included), and owners' and contacts' details (EXIF/XMP
 * OwnerName, Canon's OwnerName, IPTC Core's creator contact info, IIM Contact). Names as exiftool
 * writes them: `*` matches any part of a name.
 */
const ALWAYS_PRIVATE = {
  // exiftool cannot remove the direction (GPSLatitudeRef, …) that some programs write into the XMP
  // exif namespace by its name, so that namespace goes whole (the EXIF directory keeps the camera's
  // values for everyone).
  gps: ['GPS:all', '*GPS*', 'XMP-exif:all', 'LocationInformation'],
  serial: ['*Serial*'],
  owner: ['*OwnerName', 'XMP-iptcCore:Creator*', 'IPTC:Contact'],
} as const;

/** What a copy of a file is cleaned of: named groups (for the cache's key and the log) and their tags. */
export interface TagRemoval {
  groups: string[];
  tags: string[];
}

/**
 * The tags removed for a caller: the always private ones, and those the importer reads `hidden`
 * fields from (a restricted creator takes Artist, XMP-dc:Creator and IPTC By-line with it).
 */
export function privateTags(hidden: Iterable<string> = []): TagRemoval {
  const groups = new Map<string, readonly string[]>(Object.entries(ALWAYS_PRIVATE));
  for (const field of hidden) {
    const tags = (fieldTags as Record<string, readonly string[] | undefined>)[field];
    if (tags) groups.set(`field:${field}`, tags);
  }
  const names = [...groups.keys()].sort();
  return { groups: names, tags: [...new Set(names.flatMap((g) => groups.get(g) ?? []))] };
}

/** Which of `tags` a file carries (group-qualified names, e.g. `GPS:GPSLatitude`); none for a format exiftool does not know. */
export async function findEmbeddedTags(file: string, tags: readonly string[]): Promise<string[]> {
  const found = await exiftool().readRaw(file, {
    // Every group's copy (-a), no composite tags made up from others (-e), named with their group.
    readArgs: ['-a', '-e', '-G1', ...tags.map((t) => `-${t}`)],
    useMWG: false,
    ignoreMinorErrors: true,
  });
  return Object.keys(found).filter((k) => k.includes(':') && !/^(ExifTool|File|System):/.test(k));
}

/**
 * Removes `tags` from a file in place (a copy: never an imported original). Only the metadata
 * blocks are rewritten; the picture's or the stream's bytes are left as they are. Answers false,
 * leaving the file as it was, for a format exiftool cannot write; throws when the writing fails.
 */
export async function removeEmbeddedTags(file: string, tags: readonly string[]): Promise<boolean> {
  try {
    await exiftool().write(
      file,
      {},
      { writeArgs: [...tags.map((t) => `-${t}=`), '-overwrite_original'], useMWG: false, ignoreMinorErrors: true },
    );
    return true;
  } catch (err) {
    // exiftool: "Writing of BMP files is not yet supported", "Writing of this type of file is not supported".
    if (/Writing of .+ not (yet )?supported/i.test((err as Error).message)) return false;
    throw err;
  }
}

/**
 * What an XMP sidecar says of an asset's fields. Texts of lang-alt tags (title, description,
 * copyright) by language, '' for x-default; keywords are dc:subject (a bag, no languages).
 */
export interface XmpFields {
  title: Record<string, string>;
  description: Record<string, string>;
  keywords: string[];
  creator: string | null;
  copyright: string | null;
  /** ISO 8601 (XMP-photoshop:DateCreated). */
  created: string | null;
}

/** The tag each field of an XMP sidecar is written to. */
const xmpTags = {
  title: 'XMP-dc:Title',
  description: 'XMP-dc:Description',
  keywords: 'XMP-dc:Subject',
  creator: 'XMP-dc:Creator',
  copyright: 'XMP-dc:Rights',
  created: 'XMP-photoshop:DateCreated',
} as const satisfies Record<keyof XmpFields, string>;

/** An empty XMP packet: exiftool edits an XMP file, it does not make one from nothing. */
const EMPTY_XMP =
  "<?xpacket begin='\ufeff' id='W5M0MpCehiHzreSzNTczkc9d'?>\n<x:xmpmeta xmlns:x='adobe:ns:meta/'>\n</x:xmpmeta>\n<?xpacket end='w'?>\n";

const LANGUAGE = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

/** exiftool's argument file has one argument a line: with -E, line breaks and markup go as entities. */
const escaped = (v: string) =>
  v
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#xd;')
    .replace(/\n/g, '&#xa;');

const isoToExif = (iso: string) => {
  const d = new Date(Date.parse(iso));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getUTCFullYear(), 4)}:${pad(d.getUTCMonth() + 1)}:${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}+00:00`;
};

/**
 * Writes fields into the XMP sidecar `target` (`photo.jpg.xmp`), keeping whatever else it holds (a
 * Lightroom's develop settings): each field named in `fields` is replaced whole, all its languages;
 * null removes it. The file is written under a hidden temporary name beside it and renamed, so a
 * reader never sees half a sidecar; nothing else in the folder is touched.
 */
export async function writeXmpSidecar(
  target: string,
  fields: { [K in keyof XmpFields]?: XmpFields[K] | null },
): Promise<void> {
  const args: string[] = ['-E'];
  const put = (tag: string, value: string) => args.push(`-${tag}=${escaped(value)}`);
  for (const [field, tag] of Object.entries(xmpTags) as [keyof XmpFields, string][]) {
    if (!(field in fields)) continue;
    const value = fields[field];
    args.push(`-${tag}=`);
    if (value === null || value === undefined) continue;
    if (typeof value === 'string') put(tag, field === 'created' ? isoToExif(value) : value);
    else if (Array.isArray(value)) for (const v of value) put(tag, v);
    else
      for (const [lang, v] of Object.entries(value)) {
        if (lang !== '' && !LANGUAGE.test(lang)) continue;
        put(lang === '' ? tag : `${tag}-${lang}`, v);
      }
  }
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.xmp`);
  try {
    const existing = await stat(target).catch(() => undefined);
    if (existing) await copyFile(target, temp);
    else await writeFile(temp, EMPTY_XMP);
    await exiftool().write(temp, {}, { writeArgs: [...args, '-overwrite_original'], useMWG: false });
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}

/** The fields an XMP sidecar holds (those `writeXmpSidecar` writes, as Lightroom and Bridge write them). */
export async function readXmpSidecar(file: string): Promise<XmpFields> {
  const tags = (await exiftool().read(file, { useMWG: false })) as unknown as Record<string, unknown>;
  const byLanguage = (name: string) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(tags)) {
      const lang = k === name ? '' : k.startsWith(`${name}-`) ? k.slice(name.length + 1) : undefined;
      const t = text(v);
      if (lang !== undefined && t !== null) out[lang] = t;
    }
    return out;
  };
  const created = millis(tags.DateCreated);
  return {
    title: byLanguage('Title'),
    description: byLanguage('Description'),
    keywords: [...new Set(list(tags.Subject))],
    creator: text(tags.Creator),
    copyright: text(tags.Rights),
    created: created === null ? null : new Date(created).toISOString(),
  };
}

/** Ends the exiftool child process, if one runs. */
async function endMetadataReader(): Promise<void> {
  const tool = running;
  running = undefined;
  unregisterHelper('exiftool');
  await tool?.end();
}
