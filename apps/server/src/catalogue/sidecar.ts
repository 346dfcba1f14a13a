import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { oneOrByLanguage } from '@vitrine/contract/formats';

/**
 * Metadata written beside the media: `<file>.json` for one file, or a folder manifest
 * (`manifest.json` or `manifest.csv`) with one entry per file of the folder. Sidecar values win over
 * a folder manifest, which wins over the metadata embedded in the file.
 *
 * Text fields take a plain string (no language) or one value per content language `{en, de}`.
 */
const localized = oneOrByLanguage(z.string(), 'a text');
const localizedList = oneOrByLanguage(z.array(z.string()), 'a list of texts');
const scalar = z.union([z.string(), z.number(), z.boolean()]);

const sidecarSchema = z
  .object({
    title: localized,
    description: localized,
    keywords: localizedList,
    category: localized,
    creator: z.string(),
    copyright: z.string(),
    license: z.string(),
    camera_make: z.string(),
    camera_model: z.string(),
    rating: z.number().int().min(0).max(5),
    color_code: z.number().int().min(0).max(7),
    created: z.union([z.iso.datetime({ offset: true, local: true }), z.iso.date()]),
    gps: z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) }),
    collections: z.array(z.string().min(1)),
    access_groups: z.array(z.string().min(1)),
    /** Fields the settings declare (`fields`), by field name. */
    fields: z.record(z.string(), z.union([scalar, z.array(scalar)])),
  })
  .partial()
  .strict();
export type Sidecar = z.infer<typeof sidecarSchema>;

export class SidecarError extends Error {}

function describe(file: string, error: z.ZodError): string {
  return `${file}: ${error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`;
}

function parseSidecar(file: string, data: unknown): Sidecar {
  const r = sidecarSchema.safeParse(data);
  if (!r.success) throw new SidecarError(describe(file, r.error));
  return r.data;
}

/** Reads a small text file by the name the import gives it (a local path, or an object's `s3://` name). */
export type ReadText = (file: string) => Promise<string>;
const readLocalText: ReadText = (file) => readFile(file, 'utf8');

export async function readSidecar(file: string, read: ReadText = readLocalText): Promise<Sidecar> {
  let data: unknown;
  try {
    data = JSON.parse(await read(file));
  } catch (err) {
    throw new SidecarError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  return parseSidecar(file, data);
}

/** Splits one CSV line (RFC 4180 quoting). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      if (row.some((c) => c !== '')) rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  row.push(cell);
  if (row.some((c) => c !== '')) rows.push(row);
  return rows;
}

/**
 * A CSV manifest: a `file` column and one column per field; `title.de` style columns for a
 * language, `;` between the values of a list (keywords, collections, access_groups).
 */
function csvEntries(file: string, text: string): Record<string, unknown> {
  const [header, ...rows] = csvRows(text);
  if (!header?.includes('file'))
    throw new SidecarError(`${file}: the first line must name the columns, one of them "file"`);
  const lists = new Set(['keywords', 'collections', 'access_groups']);
  const numbers = new Set(['rating', 'color_code']);
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    const entry: Record<string, unknown> = {};
    let name = '';
    header.forEach((col, i) => {
      const value = (row[i] ?? '').trim();
      if (col === 'file') return void (name = value);
      if (value === '') return;
      const [field = '', lang] = col.split('.');
      const parsed = lists.has(field)
        ? value
            .split(';')
            .map((v) => v.trim())
            .filter(Boolean)
        : numbers.has(field)
          ? Number(value)
          : value;
      if (field === 'lat' || field === 'lon') {
        const gps = (entry.gps ?? {}) as Record<string, number>;
        gps[field] = Number(value);
        entry.gps = gps;
      } else if (lang) {
        entry[field] = { ...(entry[field] as Record<string, unknown> | undefined), [lang]: parsed };
      } else if (sidecarSchema.shape[field as keyof typeof sidecarSchema.shape]) {
        entry[field] = parsed;
      } else {
        entry.fields = { ...(entry.fields as Record<string, unknown> | undefined), [field]: parsed };
      }
    });
    if (name) out[name] = entry;
  }
  return out;
}

export const MANIFEST_NAMES = ['manifest.json', 'manifest.csv'];

/** A folder's manifest (`file` is one of MANIFEST_NAMES in it): entries by file name (relative to the folder). */
export async function readManifest(file: string, read: ReadText = readLocalText): Promise<Map<string, Sidecar>> {
  const text = await read(file);
  let entries: unknown;
  if (file.endsWith('.csv')) entries = csvEntries(file, text);
  else {
    try {
      entries = JSON.parse(text);
    } catch (err) {
      throw new SidecarError(`${file}: not valid JSON (${(err as Error).message})`);
    }
  }
  if (Array.isArray(entries)) {
    entries = Object.fromEntries(
      entries.map((e: unknown) => {
        const { file: f, ...rest } = (e ?? {}) as { file?: unknown };
        if (typeof f !== 'string') throw new SidecarError(`${file}: every entry needs a "file"`);
        return [f, rest];
      }),
    );
  }
  if (typeof entries !== 'object' || entries === null) throw new SidecarError(`${file}: expected an object or a list`);
  const out = new Map<string, Sidecar>();
  for (const [f, e] of Object.entries(entries)) out.set(f, parseSidecar(`${file} (${f})`, e));
  return out;
}
