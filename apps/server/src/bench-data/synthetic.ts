import { assetGroups } from '@vitrine/contract/fields';
import type { NewAsset } from '../catalogue/new-asset.ts';

/**
 * A synthetic catalogue for benchmarks: metadata only, deterministic for a seed. Keywords follow a
 * Zipf distribution over a few thousand made-up words (so a handful are very common and most are
 * rare), ~30 categories, ~500 creators, 10 years of import dates, file sizes 10 KB–500 MB.
 */
const KEYWORD_COUNT = 3000;
const CATEGORY_COUNT = 30;
const CREATOR_COUNT = 500;
export const COLLECTION_COUNT = 20;
const YEARS = 10;
const DAY = 86_400_000;
const BENCH_EPOCH = Date.UTC(2016, 0, 1);

const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'be', 'da', 'fu', 'go', 'hi', 'ju', 'pe', 'so'];
const firstNames = ['Anna', 'Ben', 'Chloé', 'David', 'Eva', 'Felix', 'Greta', 'Hugo', 'Ines', 'Jonas'];
const lastNames = ['Müller', 'Smith', 'Dubois', 'Rossi', 'Novak', 'Jensen', 'García', 'Kowalski', 'Berg', 'Weber'];
const formats = {
  image: ['jpg', 'png', 'tif'],
  video: ['mp4', 'mov'],
  document: ['pdf'],
  '3d': ['glb'],
  audio: ['mp3', 'wav'],
};

/** The i-th made-up word: three or four syllables, unique per i. */
function syntheticWord(i: number): string {
  let n = i + syllables.length * syllables.length;
  let out = '';
  while (n > 0) {
    out += syllables[n % syllables.length];
    n = Math.floor(n / syllables.length);
  }
  return out;
}

export function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    // xorshift32: fast, good enough for synthetic data
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4_294_967_296;
  };
}

/** Cumulative Zipf weights (s = 1) for drawing keyword ranks. */
function zipfTable(n: number): Float64Array {
  const table = new Float64Array(n);
  let sum = 0;
  for (let k = 1; k <= n; k++) table[k - 1] = sum += 1 / k;
  for (let k = 0; k < n; k++) table[k] = table[k]! / sum;
  return table;
}

/** A synthetic visual signature (asset_signature's columns): as a picture's would be, made up. */
export interface SyntheticSignature {
  phash: string;
  /** [[L, a, b, share], …] as stored. */
  colours: string;
  aspect: number;
  /** Part hashes as stored (db/signature-parts.ts): originals of near copies have them, others none. */
  parts: string | null;
}

/** Part hashes an original of a near copy has (as the import makes them: alike/signature.ts PART_WINDOWS). */
const PART_COUNT = 45;

/** A 32-bit integer hash (lowbias32): neighbouring inputs give unrelated outputs. */
function mixed(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Every this many assets, one is a near copy of the asset before it (similar: finds something). */
const COPY_EVERY = 10;
/** The aspects of a copy and its original (theirs, not their synthetic sizes', which differ). */
const aspects = [1.5, 4 / 3, 1, 2 / 3, 16 / 9];

export class SyntheticCatalogue {
  private readonly rnd: () => number;
  private readonly zipf = zipfTable(KEYWORD_COUNT);
  readonly keywords = Array.from({ length: KEYWORD_COUNT }, (_, i) => syntheticWord(i));
  readonly categories = Array.from({ length: CATEGORY_COUNT }, (_, i) => `Category ${syntheticWord(i * 7 + 5)}`);
  readonly creators = Array.from(
    { length: CREATOR_COUNT },
    (_, i) =>
      `${firstNames[i % firstNames.length]} ${lastNames[Math.floor(i / firstNames.length) % lastNames.length]} ${i}`,
  );

  constructor(seed = 42) {
    this.rnd = random(seed);
  }

  private keywordRank(): number {
    const u = this.rnd();
    let lo = 0;
    let hi = this.zipf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.zipf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The visual signature of asset number `i` of an asset with these pixel sizes (none for sounds and
   * models): random 64 bits, one to four dominant OKLab colours, the aspect of its size; every
   * COPY_EVERY-th a near copy of the one before (a few bits and a little colour apart, the same
   * aspect). Made from `i` alone, so the rest of the catalogue is the same with or without signatures.
   */
  signature(i: number, width: number | null, height: number | null): SyntheticSignature {
    const copy = i > 0 && i % COPY_EVERY === 0;
    const original = (i + 1) % COPY_EVERY === 0;
    const r = random(((copy ? i - 1 : i) + 1) * 2654435761);
    const word = () => Math.floor(r() * 0x10000_0000);
    let hi = word();
    let lo = word();
    const n = 1 + Math.floor(r() * 4);
    const shares = Array.from({ length: n }, () => 0.2 + r());
    const total = shares.reduce((x, y) => x + y, 0);
    const round3 = (x: number) => Math.round(x * 1000) / 1000;
    const colours = shares
      .map((s) => [round3(0.2 + r() * 0.75), round3((r() - 0.5) * 0.5), round3((r() - 0.5) * 0.5), round3(s / total)])
      .sort((x, y) => y[3]! - x[3]!);
    if (copy) {
      const flips = random(i);
      for (let k = 0; k < 3; k++) {
        const bit = Math.floor(flips() * 64);
        if (bit < 32) hi ^= 1 << bit;
        else lo ^= 1 << (bit - 32);
      }
      for (const c of colours) c[0] = round3(Math.min(1, c[0]! + 0.02));
    }
    const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
    // An original's part hashes: random, but for one that lies 5 bits from the asset after its copy
    // (that asset shows a part of it), so similar:'s second tier finds something. Drawn by a
    // multiplying hash, not by the xorshift streams the other hashes come from: those are linear in
    // their seeds, so their draws lie closer to one another than coin tosses would.
    let parts: string | null = null;
    if (original) {
      const crop = this.signature(i + 2, null, null).phash;
      const flipped = (BigInt(`0x${crop}`) ^ 0b1_0010_0100_1000_0001n).toString(16).padStart(16, '0');
      const draw = (k: number) => hex(mixed(i * 2 * PART_COUNT + k));
      parts = flipped + Array.from({ length: PART_COUNT - 1 }, (_, k) => draw(2 * k) + draw(2 * k + 1)).join('');
    }
    return {
      phash: hex(hi) + hex(lo),
      parts,
      colours: JSON.stringify(colours),
      // A copy keeps its original's aspect, whatever size the synthetic asset says it has.
      aspect: copy || original || !width || !height ? aspects[Math.floor(r() * aspects.length)]! : width / height,
    };
  }

  /** One asset; `collections` are the ids an asset may belong to. */
  next(i: number, collections: readonly number[]): NewAsset {
    const r = this.rnd;
    const kw = new Set<string>();
    const count = 2 + Math.floor(r() * 3);
    for (let k = 0; k < count; k++) kw.add(this.keywords[this.keywordRank()]!);
    const words = [...kw];
    const g = r();
    const group = g < 0.7 ? 'image' : g < 0.8 ? 'video' : g < 0.95 ? 'document' : g < 0.97 ? '3d' : 'audio';
    const format = formats[group][Math.floor(r() * formats[group].length)]!;
    const impDate = BENCH_EPOCH + Math.floor(r() * YEARS * 365 * DAY);
    const a = r();
    const access = a < 0.8 ? ['public', 'users'] : a < 0.95 ? ['users'] : ['admins'];
    const image = group === 'image' || group === 'video';
    return {
      source_path: `/bench/${i}.${format}`,
      filename: `${words[0]}_${i}.${format}`,
      sha256: i.toString(16).padStart(64, '0'),
      file_size: Math.round(10_000 * Math.pow(50_000, r())),
      mime: `${group === 'document' ? 'application' : group === '3d' ? 'model' : group}/${format}`,
      format,
      asset_group: assetGroups.includes(group) ? group : 'image',
      created: impDate - Math.floor(r() * 365 * DAY),
      imp_date: impDate,
      pixel_x: image ? 800 + Math.floor(r() * 5200) : null,
      pixel_y: image ? 600 + Math.floor(r() * 3400) : null,
      rating: r() < 0.3 ? null : 1 + Math.floor(r() * 5),
      color_code: r() < 0.6 ? 0 : 1 + Math.floor(r() * 7),
      obj_dload_cnt: Math.floor(Math.pow(r(), 4) * 1000),
      access,
      collections: collections.length > 0 && r() < 0.05 ? [collections[Math.floor(r() * collections.length)]!] : [],
      values: {
        title: { en: `${words.join(' ')} ${i}` },
        keywords: { en: words },
        category: { en: this.categories[Math.floor(r() * r() * CATEGORY_COUNT)]! },
        creator: this.creators[Math.floor(r() * CREATOR_COUNT)]!,
      },
    };
  }
}
