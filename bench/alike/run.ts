// Visual signatures (issue #52): how well the hash distance tells copies of a photo from other photos,
// measured on a labelled set made here from the demo's photos, and what signing costs next to the import.
// Run: npm run alike --workspace bench   (builds the demo media into ~/.cache/vitrine first if missing)
//      options: --bases N (demo photos that get variants, default 12), --timing N (12 MP photos timed, default 20)
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import {
  colourDistance,
  partHashesOf,
  SIMILAR,
  similarDistance,
  similarTo,
  VisualColumn,
} from '@vitrine/search-engine';
import { signaturePixelsOfRaw } from '@vitrine/server/src/adapters/media.ts';
import {
  hashDistance,
  NEAR_COPY_DISTANCE,
  perceptualHash,
  sameAspect,
  signatureOf,
} from '@vitrine/server/src/alike/signature.ts';
import { openServices, type Services } from '@vitrine/server/src/services.ts';
import { loadSettings } from '@vitrine/server/src/settings.ts';

const root = path.resolve(import.meta.dirname, '../..');
const cache = process.env.VITRINE_DEMO_MEDIA ?? path.join(homedir(), '.cache', 'vitrine', 'demo-media');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const BASES = arg('bases', 12);
const TIMED = arg('timing', 20);
const MAX_THRESHOLD = 20;
/** The goal of the issue for both precision and recall. */
const GOAL = 0.95;
/** The catalogue size for which unrelated pairs within a threshold are estimated. */
const CATALOGUE = 100_000;

if (!existsSync(path.join(cache, '.demo-manifest.tsv'))) {
  console.log(`Building the demo media in ${cache} …`);
  execFileSync('bash', [path.join(root, 'scripts/demo-media.sh'), cache], { stdio: 'inherit' });
}

/** A JPEG without its APP1–APP15 segments (EXIF, XMP, ICC, IPTC): the same pixels, no metadata. */
function stripJpegMetadata(jpeg: Buffer): Buffer {
  const parts: Buffer[] = [jpeg.subarray(0, 2)];
  let i = 2;
  while (i + 4 <= jpeg.length && jpeg[i] === 0xff) {
    const marker = jpeg[i + 1] ?? 0;
    if (marker === 0xda) break; // start of scan: the rest is image data
    const len = jpeg.readUInt16BE(i + 2);
    if (!(marker >= 0xe1 && marker <= 0xef)) parts.push(jpeg.subarray(i, i + 2 + len));
    i += 2 + len;
  }
  parts.push(jpeg.subarray(i));
  return Buffer.concat(parts);
}

type Role = 'original' | 'copy' | 'crop' | 'other';
interface Label {
  file: string;
  /** The picture it shows (copies and crops share their original's). */
  scene: string;
  role: Role;
  variant: string;
}

const out = mkdtempSync(path.join(tmpdir(), 'vitrine-alike-'));
const set = path.join(out, 'set');
mkdirSync(set);
const photos = readdirSync(path.join(cache, 'photos'))
  .filter((f) => f.endsWith('.jpg'))
  .sort();
const bases = photos.slice(0, BASES);
const labels: Label[] = [];

console.log(
  `Making the labelled set: ${bases.length} photos with variants, ${photos.length - bases.length} others, the three roses …`,
);
for (const name of photos) {
  const src = path.join(cache, 'photos', name);
  const scene = name.replace(/\.jpg$/, '');
  copyFileSync(src, path.join(set, name));
  if (!bases.includes(name)) {
    labels.push({ file: name, scene, role: 'other', variant: 'original' });
    continue;
  }
  labels.push({ file: name, scene, role: 'original', variant: 'original' });
  const meta = await sharp(src).metadata();
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  const variant = async (v: string, role: Role, file: string, make: () => Promise<unknown>) => {
    await make();
    labels.push({ file, scene, role, variant: v });
  };
  const to = (suffix: string) => path.join(set, `${scene}.${suffix}`);
  await variant('resized 50 %', 'copy', `${scene}.half.jpg`, () =>
    sharp(src)
      .resize(Math.round(w / 2))
      .jpeg()
      .toFile(to('half.jpg')),
  );
  await variant('quality 60', 'copy', `${scene}.q60.jpg`, () => sharp(src).jpeg({ quality: 60 }).toFile(to('q60.jpg')));
  await variant('WebP', 'copy', `${scene}.webp`, () => sharp(src).webp().toFile(to('webp')));
  await variant('PNG', 'copy', `${scene}.png`, () => sharp(src).png({ compressionLevel: 1 }).toFile(to('png')));
  await variant('EXIF stripped', 'copy', `${scene}.noexif.jpg`, async () =>
    writeFileSync(to('noexif.jpg'), stripJpegMetadata(readFileSync(src))),
  );
  const cut = (share: number) => ({ left: Math.round((w * share) / 2), top: Math.round((h * share) / 2) });
  await variant('cropped 3 %', 'copy', `${scene}.crop3.jpg`, () => {
    const c = cut(0.03);
    return sharp(src)
      .extract({ ...c, width: w - 2 * c.left, height: h - 2 * c.top })
      .jpeg({ quality: 90 })
      .toFile(to('crop3.jpg'));
  });
  await variant('brightened 10 %', 'copy', `${scene}.bright.jpg`, () =>
    sharp(src).modulate({ brightness: 1.1 }).jpeg({ quality: 90 }).toFile(to('bright.jpg')),
  );
  // Not copies: a part of the picture, more than 30 % of it cut away (the left 60 %, the lower right 65 %).
  await variant('left 60 %', 'crop', `${scene}.left60.jpg`, () =>
    sharp(src)
      .extract({ left: 0, top: 0, width: Math.round(w * 0.6), height: h })
      .jpeg({ quality: 90 })
      .toFile(to('left60.jpg')),
  );
  await variant('lower right 65 % × 65 %', 'crop', `${scene}.corner65.jpg`, () =>
    sharp(src)
      .extract({
        left: Math.round(w * 0.35),
        top: Math.round(h * 0.35),
        width: w - Math.round(w * 0.35),
        height: h - Math.round(h * 0.35),
      })
      .jpeg({ quality: 90 })
      .toFile(to('corner65.jpg')),
  );
}
const roses = ['yellow_rose.lossy.webp', 'yellow_rose.lossless.webp', 'yellow_rose.lossy-with-alpha.webp'];
for (const [i, r] of roses.entries()) {
  copyFileSync(path.join(cache, 'webp', r), path.join(set, r));
  labels.push({ file: r, scene: 'yellow_rose', role: i === 0 ? 'original' : 'copy', variant: r });
}
writeFileSync(path.join(out, 'labels.json'), JSON.stringify(labels, null, 1));

async function drainJobs(services: Services) {
  const worker = services.jobWorker({ pollMs: 50 });
  await worker.drain();
  await worker.stop();
}

/** The real import of a folder into a new portal; answers the signatures by file name and the seconds. */
async function importInto(folder: string, dataDir: string) {
  mkdirSync(dataDir, { recursive: true });
  const services = await openServices(loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  const started = performance.now();
  const summary = await services.importer().importFolder(folder);
  await drainJobs(services);
  const seconds = (performance.now() - started) / 1000;
  if (summary.failed.length) console.log('failed:', summary.failed);
  const rows = await services.db.kysely
    .selectFrom('asset_signature as s')
    .innerJoin('asset as a', 'a.id', 's.asset_id')
    .select(['a.filename', 's.phash', 's.aspect', 's.colours', 's.parts'])
    .execute();
  const previews = await services.db.kysely
    .selectFrom('derivative as d')
    .innerJoin('asset as a', 'a.id', 'd.asset_id')
    .select(['a.filename', 'd.path', 'd.width', 'd.height'])
    .where('d.kind', '=', 'preview')
    .where('d.page', '=', 0)
    .execute();
  await services.close();
  return { signatures: new Map(rows.map((r) => [r.filename, r])), previews, seconds };
}

console.log(`Importing ${labels.length} files into a throwaway portal …`);
const imported = await importInto(set, path.join(out, 'data'));
const sig = (l: Label) => {
  const s = imported.signatures.get(l.file);
  if (!s) throw new Error(`${l.file} has no signature`);
  return s;
};

interface Pair {
  copy: boolean;
  distance: number;
  aspect: boolean;
  what: string;
}
const pairs: Pair[] = [];
const copyRoles: Role[] = ['original', 'copy'];
for (let i = 0; i < labels.length; i++) {
  for (let j = i + 1; j < labels.length; j++) {
    const a = labels[i];
    const b = labels[j];
    if (!a || !b) continue;
    const copy = a.scene === b.scene && copyRoles.includes(a.role) && copyRoles.includes(b.role);
    const x = sig(a);
    const y = sig(b);
    pairs.push({
      copy,
      distance: hashDistance(x.phash, y.phash),
      aspect: sameAspect(x.aspect, y.aspect),
      what: a.scene === b.scene ? `${a.variant} ~ ${b.variant}` : 'different photos',
    });
  }
}

const measure = (t: number, useAspect: boolean) => {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const p of pairs) {
    const said = p.distance <= t && (!useAspect || p.aspect);
    if (said && p.copy) tp++;
    else if (said) fp++;
    else if (p.copy) fn++;
  }
  return { tp, fp, fn, precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: tp / (tp + fn) };
};

const f3 = (x: number) => x.toFixed(3);
const positives = pairs.filter((p) => p.copy).length;
console.log(
  `\nbench/alike — ${labels.length} pictures, ${pairs.length} pairs, ${positives} of them copies ` +
    `(${bases.length} demo photos × 7 copies + original, 2 crops each, ${photos.length - bases.length} other photos, 3 roses)\n`,
);
console.log(
  '| threshold | precision (hash + aspect) | recall (hash + aspect) | false copies | missed copies | precision (hash only) | recall (hash only) | ' +
    `chance pairs in ${CATALOGUE / 1000}k |`,
);
console.log('|---|---|---|---|---|---|---|---|');
const binomial = (n: number, k: number) => {
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return r;
};
/** Pairs of unrelated pictures within `t` among CATALOGUE, were their 64 bits independent coin tosses. */
const chancePairs = (t: number) => {
  let p = 0;
  for (let k = 0; k <= t; k++) p += binomial(64, k);
  return ((p / 2 ** 64) * CATALOGUE * (CATALOGUE - 1)) / 2;
};
const rows = Array.from({ length: MAX_THRESHOLD + 1 }, (_, t) => ({ t, m: measure(t, true), h: measure(t, false) }));
for (const { t, m, h } of rows)
  console.log(
    `| ${t} | ${f3(m.precision)} | ${f3(m.recall)} | ${m.fp} | ${m.fn} | ${f3(h.precision)} | ${f3(h.recall)} | ${chancePairs(t).toPrecision(2)} |`,
  );
// Rule: the smallest threshold that finds every labelled copy with precision ≥ GOAL (else the
// smallest with both ≥ GOAL). A larger one finds no more copies here, and in a large catalogue
// the unrelated pairs within it grow with the square of its size (last column).
const chosen =
  rows.find((r) => r.m.recall === 1 && r.m.precision >= GOAL)?.t ??
  rows.find((r) => r.m.recall >= GOAL && r.m.precision >= GOAL)?.t;
console.log(
  `\nRule: the smallest threshold that finds every labelled copy with precision ≥ ${GOAL} (hash distance and the same ` +
    `aspect within 5 %): ${chosen ?? 'none'}; the server's NEAR_COPY_DISTANCE is ${NEAR_COPY_DISTANCE}` +
    (chosen === NEAR_COPY_DISTANCE ? '.' : ' — NOT the measured one.'),
);

// The closest non-copies and the farthest copies, by kind of pair.
const byWhat = new Map<string, number[]>();
for (const p of pairs)
  if (p.copy || p.what !== 'different photos' || p.distance <= MAX_THRESHOLD)
    byWhat.set(`${p.copy ? 'copy' : 'not copy'}: ${p.what}`, [
      ...(byWhat.get(`${p.copy ? 'copy' : 'not copy'}: ${p.what}`) ?? []),
      p.distance,
    ]);
console.log('\n| pair | n | min distance | max distance |');
console.log('|---|---|---|---|');
for (const [what, ds] of [...byWhat].sort())
  console.log(`| ${what} | ${ds.length} | ${Math.min(...ds)} | ${Math.max(...ds)} |`);
const others = pairs.filter((p) => p.what === 'different photos').map((p) => p.distance);
console.log(
  `| not copy: different photos (all) | ${others.length} | ${Math.min(...others)} | ${Math.max(...others)} |`,
);

// The roses: one group of near copies at the server's threshold, with nothing else in it.
const roseSigs = roses.map((r) => imported.signatures.get(r));
const near = (x: { phash: string; aspect: number }, y: { phash: string; aspect: number }) =>
  hashDistance(x.phash, y.phash) <= NEAR_COPY_DISTANCE && sameAspect(x.aspect, y.aspect);
const roseDistances = roseSigs.flatMap((x, i) =>
  roseSigs.slice(i + 1).map((y) => (x && y ? hashDistance(x.phash, y.phash) : NaN)),
);
const roseGroup = roseSigs.every((x) => roseSigs.every((y) => x && y && near(x, y)));
const intruders = [...imported.signatures.values()].filter(
  (s) => !roses.includes(s.filename) && roseSigs.some((r) => r && near(r, s)),
);
console.log(
  `\nThe three demo roses: distances ${roseDistances.join(', ')}; one group at ${NEAR_COPY_DISTANCE}: ${roseGroup ? 'yes' : 'NO'}` +
    `; other pictures in it: ${intruders.length === 0 ? 'none' : intruders.map((s) => s.filename).join(', ')}`,
);

// "similar:" (decision 0264): the engine's distance (hash bits + aspect + colours) from each photo
// with variants to every other picture; what it should find are the copies and the crops of the
// same scene, and nothing else within the cut-off.
{
  const col = new VisualColumn();
  labels.forEach((l, d) => {
    const s = sig(l) as { phash: string; aspect: number; colours: string };
    col.set(d, {
      phash: s.phash,
      aspect: Number(s.aspect),
      colours: JSON.parse(s.colours) as [number, number, number, number][],
    });
  });
  const same = (a: Label, b: Label) => a.scene === b.scene;
  const kinds = new Map<string, number[]>();
  const ranked: { origin: number; others: { d: number; distance: number }[] }[] = [];
  labels.forEach((a, x) => {
    if (a.role !== 'original') return;
    const others: { d: number; distance: number }[] = [];
    labels.forEach((b, y) => {
      if (x === y) return;
      const distance = similarDistance(col, x, y);
      others.push({ d: y, distance });
      const kind = !same(a, b) ? 'different photos' : b.role === 'crop' ? 'same scene, crop > 30 %' : 'copy';
      kinds.set(kind, [...(kinds.get(kind) ?? []), distance]);
      // The colour part alone (OKLab units × COLOUR_WEIGHT): whether colours could tell crops from other photos.
      kinds.set(`${kind} (colour part)`, [
        ...(kinds.get(`${kind} (colour part)`) ?? []),
        SIMILAR.colourWeight * colourDistance(col, x, y),
      ]);
    });
    ranked.push({ origin: x, others: others.sort((p, q) => p.distance - q.distance) });
  });
  const quantile = (xs: number[], q: number) => [...xs].sort((p, r) => p - r)[Math.floor(q * (xs.length - 1))] ?? NaN;
  console.log('\n"similar" distance from each original to every other picture (hash bits + aspect + colours):\n');
  console.log('| pair | n | min | 5 % | median | 95 % | max |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [kind, ds] of [...kinds].sort())
    console.log(
      `| ${kind} | ${ds.length} | ${[0, 0.05, 0.5, 0.95, 1].map((q) => quantile(ds, q).toFixed(1)).join(' | ')} |`,
    );
  console.log(
    "\n| cut-off | copies found | crops found | other photos listed (of originals' rows) | first 12 hold every copy and crop |",
  );
  console.log('|---|---|---|---|---|');
  for (const cut of [8, 10, 12, 14, 16, 18, 20, 22, 24, 28, 32]) {
    let copies = 0;
    let copyAll = 0;
    let crops = 0;
    let cropAll = 0;
    let noise = 0;
    let complete = 0;
    for (const { origin, others } of ranked) {
      const o = labels[origin]!;
      const within = others.filter((p) => p.distance <= cut);
      const wanted = others.filter((p) => same(o, labels[p.d]!));
      copyAll += wanted.filter((p) => labels[p.d]!.role !== 'crop').length;
      cropAll += wanted.filter((p) => labels[p.d]!.role === 'crop').length;
      copies += within.filter((p) => same(o, labels[p.d]!) && labels[p.d]!.role !== 'crop').length;
      crops += within.filter((p) => same(o, labels[p.d]!) && labels[p.d]!.role === 'crop').length;
      noise += within.filter((p) => !same(o, labels[p.d]!)).length;
      const first = within.slice(0, 12);
      if (wanted.every((w) => first.includes(w))) complete++;
    }
    console.log(
      `| ${cut}${cut === SIMILAR.cutoff ? ' (SIMILAR.cutoff)' : ''} | ${copies}/${copyAll} | ${crops}/${cropAll} | ${noise} | ${complete}/${ranked.length} |`,
    );
  }

  // "similar:" as the engine answers it (decision 0271): the copies within the cut-off, then the
  // pictures near one of the asked picture's part hashes (stored by the import). Per original its
  // first 12: the copies and crops of its scene are wanted, anything else is noise; and, every
  // picture of the set asked about, how many pictures of other scenes any row lists.
  {
    const partsOf = (l: Label) => partHashesOf((sig(l).parts ?? '').match(/[0-9a-f]{16}/g) ?? []);
    const rowOf = async (x: number) => {
      const found = await similarTo(col, x, () => true, partsOf(labels[x]!));
      return Array.from(found.docs, (d, i) => ({ d, distance: found.distance[i]! }))
        .sort((p, q) => p.distance - q.distance)
        .map((p) => p.d);
    };
    let wantedAll = 0;
    let wantedFound = 0;
    let listed = 0;
    let copiesFirst = 0;
    let cropsFound = 0;
    let cropAll = 0;
    for (const { origin } of ranked) {
      const o = labels[origin]!;
      const first = (await rowOf(origin)).slice(0, 12);
      const wanted = labels.flatMap((l, d) => (d !== origin && same(o, l) ? [d] : []));
      const copies = wanted.filter((d) => labels[d]!.role !== 'crop');
      wantedAll += Math.min(12, wanted.length);
      wantedFound += first.filter((d) => wanted.includes(d)).length;
      listed += first.length;
      cropAll += wanted.length - copies.length;
      cropsFound += first.filter((d) => labels[d]!.role === 'crop' && same(o, labels[d]!)).length;
      if (copies.every((d) => first.indexOf(d) >= 0 && first.indexOf(d) < copies.length)) copiesFirst++;
    }
    let otherPairs = 0;
    let otherListed = 0;
    for (let x = 0; x < labels.length; x++) {
      const row = await rowOf(x);
      otherPairs += labels.filter((l, y) => y !== x && !same(labels[x]!, l)).length;
      otherListed += row.filter((y) => !same(labels[x]!, labels[y]!)).length;
    }
    const precision = listed === 0 ? 1 : wantedFound / listed;
    const recall = wantedFound / wantedAll;
    console.log('\n"similar:" as the engine answers it: copies, then parts (decision 0271)\n');
    console.log(
      "| originals' rows | copies and crops in the first 12 (recall) | of the first 12, of its scene (precision) | " +
        'crops in the first 12 | rows with every copy first | every picture asked: other photos listed (pairs) |',
    );
    console.log('|---|---|---|---|---|---|');
    console.log(
      `| ${ranked.length} | ${wantedFound}/${wantedAll} (${f3(recall)}) | ${wantedFound}/${listed} (${f3(precision)}) | ` +
        `${cropsFound}/${cropAll} | ${copiesFirst}/${ranked.length} | ${otherListed} of ${otherPairs} |`,
    );
    console.log(`\n"similar:" goal (both ≥ ${GOAL}): ${precision >= GOAL && recall >= GOAL ? 'met' : 'NOT met'}.`);

    // The part tier's bits (distance − cutoff − 1) of the originals' crops and of every other-scene
    // picture any row lists, and what a smaller part distance would keep: the engine's is the
    // smallest that keeps every crop (the chance column: unrelated pictures a row would list at a
    // million assets, were hashes independent coin tosses, 45 parts).
    const bitsOf = async (x: number) => {
      const found = await similarTo(col, x, () => true, partsOf(labels[x]!));
      return Array.from(found.docs, (d, i) => ({ d, bits: found.distance[i]! - SIMILAR.cutoff - 1 })).filter(
        (p) => p.bits >= 0,
      );
    };
    const cropBits: number[] = [];
    for (const { origin } of ranked)
      for (const p of await bitsOf(origin))
        if (labels[p.d]!.role === 'crop' && same(labels[origin]!, labels[p.d]!)) cropBits.push(p.bits);
    const otherBits: number[] = [];
    for (let x = 0; x < labels.length; x++)
      for (const p of await bitsOf(x)) if (!same(labels[x]!, labels[p.d]!)) otherBits.push(p.bits);
    const binom = (k: number) => {
      let r = 1;
      for (let i = 0; i < k; i++) r = (r * (64 - i)) / (i + 1);
      return r;
    };
    const chance = (t: number) => {
      let p = 0;
      for (let k = 0; k <= t; k++) p += binom(k);
      return (p / 2 ** 64) * 45 * 1_000_000;
    };
    const spread = (xs: number[]) =>
      xs.length ? `${Math.min(...xs)}–${Math.max(...xs)}, median ${quantile(xs, 0.5)}` : 'none';
    console.log(
      `\nPart bits of the crops: ${spread(cropBits)}; of other-scene pictures listed: ${spread(otherBits)}\n`,
    );
    console.log(
      '| part distance | crops within it | other-scene pairs within it | unrelated a row lists at 1M by chance |',
    );
    console.log('|---|---|---|---|');
    for (const t of [6, 8, 10, 12])
      console.log(
        `| ${t}${t === SIMILAR.partDistance ? ' (SIMILAR.partDistance)' : ''} | ${cropBits.filter((b) => b <= t).length}/${cropAll} | ` +
          `${otherBits.filter((b) => b <= t).length} | ${chance(t).toPrecision(2)} |`,
      );
  }

  // Same-scene crops (issue #52): ways to rank them after the copies, each measured by how many of
  // the originals' crops reach the first 12 and how many other photos the originals' rows list; and,
  // since this set is small, the share of pairs of different photos a setting accepts (every picture
  // of the set asked about), which is what fills rows in a catalogue of CATALOGUE pictures.
  const previewOf = new Map(imported.previews.map((p) => [p.filename, p.path]));
  /** Sub-windows [left, top, width, height] as shares of the picture: generic grids, not the set's crops. */
  const grid = (size: number): [number, number, number, number][] => {
    const at = [0, (1 - size) / 2, 1 - size];
    const out: [number, number, number, number][] = [];
    for (const x of at) for (const y of at) out.push([x, y, size, size]);
    for (const x of at) out.push([x, 0, size, 1]);
    for (const y of at) out.push([0, y, 1, size]);
    return out;
  };
  const families: { name: string; windows: [number, number, number, number][] }[] = [
    { name: '15 windows of 2/3', windows: grid(2 / 3) },
    { name: '30 windows of 2/3 and 4/5', windows: [...grid(2 / 3), ...grid(0.8)] },
    {
      name: '45 windows: 2/3 and strips of every tenth from 1/2 to 9/10',
      windows: [
        ...grid(2 / 3),
        ...[0.5, 0.6, 0.7, 0.8, 0.9].flatMap((size): [number, number, number, number][] =>
          [0, (1 - size) / 2, 1 - size].flatMap((at): [number, number, number, number][] => [
            [at, 0, size, 1],
            [0, at, 1, size],
          ]),
        ),
      ],
    },
  ];
  /**
   * Crops of other shapes than the set's (made from the preview's shrink, so a little coarser than an
   * imported crop): whether a family finds crops it was not drawn for.
   */
  const offGrid: [number, number, number, number][] = [
    [0, 0, 0.55, 1],
    [0.3, 0, 0.7, 1],
    [0, 0, 1, 0.6],
    [0.125, 0.125, 0.75, 0.75],
    [0, 0, 0.6, 0.7],
  ];
  /** A window's hash as the import would make it: from the preview's shrink into 100 px, squeezed to 32 × 32. */
  const windowHashes = async (file: string, windows: [number, number, number, number][]) => {
    const preview = previewOf.get(file);
    if (!preview) throw new Error(`${file} has no preview`);
    const small = await sharp(path.join(out, 'data', 'derivatives', preview))
      .resize(100, 100, { fit: 'inside' })
      .flatten({ background: '#ffffff' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: small.info.width, height: small.info.height, channels: small.info.channels } };
    return Promise.all(
      windows.map(async ([x, y, w, h]) => {
        const left = Math.round(x * small.info.width);
        const top = Math.round(y * small.info.height);
        const grey = await sharp(small.data, raw)
          .extract({
            left,
            top,
            width: Math.max(1, Math.min(small.info.width - left, Math.round(w * small.info.width))),
            height: Math.max(1, Math.min(small.info.height - top, Math.round(h * small.info.height))),
          })
          .resize(32, 32, { fit: 'fill' })
          .greyscale()
          .raw()
          .toBuffer();
        return perceptualHash(new Uint8Array(grey));
      }),
    );
  };
  const wholeHash = labels.map((l) => sig(l).phash);
  const colourPart = (x: number, y: number) => SIMILAR.colourWeight * colourDistance(col, x, y);
  /** Per setting: a second tier's distance of (asked, other), or undefined where it does not list it. */
  const measureTier = (name: string, tier: (x: number, y: number) => number | undefined) => {
    let crops = 0;
    let left = 0;
    let cropAll = 0;
    let noise = 0;
    let noiseFirst = 0;
    let copiesFirst = 0;
    for (const { origin, others } of ranked) {
      const o = labels[origin]!;
      const copies = others.filter((p) => p.distance <= SIMILAR.cutoff);
      const second = others
        .filter((p) => p.distance > SIMILAR.cutoff)
        .map((p) => ({ d: p.d, t: tier(origin, p.d) }))
        .filter((p): p is { d: number; t: number } => p.t !== undefined)
        .sort((p, q) => p.t - q.t);
      const row = [...copies.map((p) => p.d), ...second.map((p) => p.d)];
      const first = row.slice(0, 12);
      const wantedCopies = others.filter((p) => same(o, labels[p.d]!) && labels[p.d]!.role !== 'crop');
      if (wantedCopies.every((w) => row.indexOf(w.d) >= 0 && row.indexOf(w.d) < wantedCopies.length)) copiesFirst++;
      const wantedCrops = others.filter((p) => same(o, labels[p.d]!) && labels[p.d]!.role === 'crop');
      cropAll += wantedCrops.length;
      for (const w of wantedCrops.filter((c) => first.includes(c.d))) {
        crops++;
        if (labels[w.d]!.variant.startsWith('left')) left++;
      }
      noise += row.filter((d) => !same(o, labels[d]!)).length;
      noiseFirst += first.filter((d) => !same(o, labels[d]!)).length;
    }
    // Every picture asked about, against every picture of another scene.
    let pairsAll = 0;
    let accepted = 0;
    labels.forEach((a, x) =>
      labels.forEach((b, y) => {
        if (same(a, b)) return;
        pairsAll++;
        if (similarDistance(col, x, y) <= SIMILAR.cutoff || tier(x, y) !== undefined) accepted++;
      }),
    );
    const rate = accepted / pairsAll;
    console.log(
      `| ${name} | ${crops}/${cropAll} (${left} + ${crops - left}) | ${copiesFirst}/${ranked.length} | ${noiseFirst} | ${noise} | ` +
        `${(rate * 100).toFixed(2)} % | ${(rate * CATALOGUE).toFixed(0)} |`,
    );
  };
  console.log(
    '\nSame-scene crops after the copies: settings of a second tier (the copies tier is the cut-off ' +
      `${SIMILAR.cutoff} above, unchanged)\n`,
  );
  console.log(
    '| second tier | crops in the first 12 (left 60 % + lower right 65 %) | rows with every copy first | other photos in the first 12 ' +
      '(13 rows) | other photos listed (13 rows) | pairs of different photos accepted | other photos a row lists ' +
      `in ${CATALOGUE / 1000}k |`,
  );
  console.log('|---|---|---|---|---|---|---|');
  measureTier('none (today)', () => undefined);
  for (const c of [1, 2, 3, 4, 5]) {
    measureTier(`colour part ≤ ${c}, by colour`, (x, y) => {
      const part = colourPart(x, y);
      return part <= c ? part : undefined;
    });
  }
  for (const family of families) {
    const hashes = await Promise.all(labels.map((l) => windowHashes(l.file, family.windows)));
    // A window of the asked picture against the other's whole hash: the other shows a part of it.
    const nearest = (x: number, y: number) => Math.min(...hashes[x]!.map((h) => hashDistance(h, wholeHash[y]!)));
    const table = labels.map((_, x) => labels.map((__, y) => (x === y ? 64 : nearest(x, y))));
    const dist = (kind: 'crop' | 'other') =>
      ranked.flatMap(({ origin, others }) =>
        others
          .filter((p) =>
            kind === 'crop'
              ? same(labels[origin]!, labels[p.d]!) && labels[p.d]!.role === 'crop'
              : !same(labels[origin]!, labels[p.d]!),
          )
          .map((p) => table[origin]![p.d]!),
      );
    const crops = dist('crop');
    const otherDs = dist('other');
    console.log(
      `| ${family.name}: window hash to whole hash, crops ${Math.min(...crops)}–${Math.max(...crops)} ` +
        `(median ${quantile(crops, 0.5)}), other photos ${Math.min(...otherDs)}–${Math.max(...otherDs)} ` +
        `(5 % ${quantile(otherDs, 0.05)}) | | | | | | |`,
    );
    const offGridDs = await Promise.all(
      ranked.map(async ({ origin }) => {
        const crops = await windowHashes(labels[origin]!.file, offGrid);
        return crops.map((c) => Math.min(...hashes[origin]!.map((h) => hashDistance(h, c))));
      }),
    );
    const flat = offGridDs.flat();
    console.log(
      `| ${family.name}: crops of other shapes (left 55 %, right 70 %, top 60 %, centre 75 %, upper left 60 × 70 %) ` +
        `within 12 of a window: ${flat.filter((d) => d <= 12).length}/${flat.length} (distances ${Math.min(...flat)}–` +
        `${Math.max(...flat)}, median ${quantile(flat, 0.5)}) | | | | | | |`,
    );
    for (const t of [8, 10, 12, 14, 16]) {
      measureTier(`${family.name}, window distance ≤ ${t}`, (x, y) => (table[x]![y]! <= t ? table[x]![y]! : undefined));
      measureTier(`${family.name}, window distance ≤ ${t} and colour part ≤ 4`, (x, y) =>
        table[x]![y]! <= t && colourPart(x, y) <= 4 ? table[x]![y]! : undefined,
      );
    }
  }
}

// Cost of a second tier by parts: one asked picture's part hashes against a million whole hashes
// (the engine's walk: two 32-bit halves a document), timed in this process.
{
  const n = 1_000_000;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  for (let d = 0; d < n; d++) {
    hi[d] = (Math.random() * 2 ** 32) >>> 0;
    lo[d] = (Math.random() * 2 ** 32) >>> 0;
  }
  const pop = (x: number) => {
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    x = (x + (x >>> 4)) & 0x0f0f0f0f;
    return Math.imul(x, 0x01010101) >>> 24;
  };
  console.log('\n| part hashes of the asked picture | walk of 1M whole hashes, median of 9 (ms) |');
  console.log('|---|---|');
  for (const k of [0, 9, 15, 30]) {
    const ph = Uint32Array.from({ length: k + 1 }, () => (Math.random() * 2 ** 32) >>> 0);
    const pl = Uint32Array.from({ length: k + 1 }, () => (Math.random() * 2 ** 32) >>> 0);
    const times: number[] = [];
    let found = 0;
    for (let round = 0; round < 9; round++) {
      const t0 = performance.now();
      for (let d = 0; d < n; d++) {
        const h = hi[d]!;
        const l = lo[d]!;
        let best = 64;
        for (let i = 0; i <= k; i++) {
          const bits = pop((h ^ ph[i]!) >>> 0) + pop((l ^ pl[i]!) >>> 0);
          if (bits < best) best = bits;
        }
        if (best <= 12) found++;
      }
      times.push(performance.now() - t0);
    }
    times.sort((x, y) => x - y);
    // `found` keeps the walk from being optimised away; random hashes lie 32 ± 4 bits apart.
    console.log(
      `| ${k}${k === 0 ? ' (the whole hash only, today)' : ''} | ${times[4]!.toFixed(1)} (${found / 9} within 12) |`,
    );
  }
}

// Cost: signing next to the import of 12 MP photos.
console.log(`\nTiming: ${TIMED} photos of 12 MP (4000 × 3000, demo photos enlarged) …`);
const big = path.join(out, 'big');
mkdirSync(big);
for (let i = 0; i < TIMED; i++) {
  const src = path.join(cache, 'photos', photos[i % photos.length] ?? '');
  await sharp(src)
    .resize(4000, 3000, { fit: 'cover' })
    .jpeg({ quality: 90 })
    .toFile(path.join(big, `big-${i}.jpg`));
}
const timedImport = await importInto(big, path.join(out, 'data-big'));
// The signature's own work at import: from the preview's raw pixels (decoded here untimed, as the
// import has them in memory) the two small squares, then the maths.
const store = path.join(out, 'data-big', 'derivatives');
let signMs = 0;
let mathsMs = 0;
for (const p of timedImport.previews) {
  const { data, info } = await sharp(path.join(store, p.path)).raw().toBuffer({ resolveWithObject: true });
  const t0 = performance.now();
  const px = await signaturePixelsOfRaw(data, info);
  const t1 = performance.now();
  signatureOf(px);
  const t2 = performance.now();
  signMs += t2 - t0;
  mathsMs += t2 - t1;
}
const n = timedImport.previews.length;
const importMs = (timedImport.seconds * 1000) / n;
console.log('\n| per 12 MP photo | ms |');
console.log('|---|---|');
console.log(
  `| import with its derivative jobs (wall time / photos, the import's own lanes) | ${importMs.toFixed(0)} |`,
);
console.log(
  `| signature from the preview's pixels in memory (squares + maths, one at a time) | ${(signMs / n).toFixed(1)} |`,
);
console.log(`| of which the maths (DCT hash, colour clusters) | ${(mathsMs / n).toFixed(1)} |`);
console.log(`| share of the import | ${((signMs / n / importMs) * 100).toFixed(1)} % |`);

rmSync(out, { recursive: true, force: true });
