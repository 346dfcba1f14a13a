import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Small real media files made for tests: images by sharp, clips by ffmpeg's test sources, PDFs
 * written by hand. Metadata is written into them with the exiftool adapter by the tests themselves.
 */
export async function makeImage(
  file: string,
  options: {
    width?: number;
    height?: number;
    density?: number;
    format?: 'jpeg' | 'png' | 'tiff' | 'webp';
    depth16?: boolean;
  } = {},
): Promise<string> {
  mkdirSync(path.dirname(file), { recursive: true });
  const { width = 640, height = 480, format = 'jpeg' } = options;
  const gradient = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      gradient[i] = (x * 255) / width;
      gradient[i + 1] = (y * 255) / height;
      gradient[i + 2] = 128;
    }
  }
  let img = sharp(gradient, { raw: { width, height, channels: 3 } });
  if (options.density) img = img.withMetadata({ density: options.density });
  if (options.depth16) img = img.toColourspace('rgb16');
  await img.toFormat(format).toFile(file);
  return file;
}

/** A picture's decoded pixels, to tell whether two files show the same picture whatever their metadata. */
export async function decodedPixels(file: string | Buffer): Promise<Buffer> {
  return sharp(file).raw().toBuffer();
}

export function makeClip(
  file: string,
  options: { seconds?: number; video?: boolean; audio?: boolean; size?: string; frequency?: number } = {},
): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const { seconds = 2, video = true, audio = true, size = '320x240', frequency = 440 } = options;
  const args = ['-nostdin', '-loglevel', 'error', '-y'];
  if (video) args.push('-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25:duration=${seconds}`);
  if (audio) args.push('-f', 'lavfi', '-i', `sine=frequency=${frequency}:duration=${seconds}`);
  const mp4 = file.endsWith('.mp4');
  if (video && mp4) args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p');
  else if (video) args.push('-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '200k');
  if (audio) args.push('-c:a', file.endsWith('.wav') ? 'pcm_s16le' : mp4 ? 'aac' : 'libopus');
  execFileSync('ffmpeg', [...args, file]);
  return file;
}

/** A valid PDF with one page per text, each 300 × 200 pt. */
export function makePdf(file: string, pages: string[]): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const objs = ['<< /Type /Catalog /Pages 2 0 R >>'];
  const kids = pages.map((_, i) => `${3 + i * 2} 0 R`).join(' ');
  objs.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  pages.forEach((text, i) => {
    const stream = `BT /F1 24 Tf 40 100 Td (${text}) Tj ET`;
    objs.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents ${4 + i * 2} 0 R ` +
        '/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>',
    );
    objs.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  writeFileSync(file, out, 'latin1');
  return file;
}

/** An ASCII STL tetrahedron. */
export function makeStl(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const v = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  const faces = [
    [0, 2, 1],
    [0, 1, 3],
    [0, 3, 2],
    [1, 2, 3],
  ];
  const body = faces
    .map(
      (f) =>
        `facet normal 0 0 0\nouter loop\n${f.map((i) => `vertex ${v[i]?.join(' ')}`).join('\n')}\nendloop\nendfacet`,
    )
    .join('\n');
  writeFileSync(file, `solid t\n${body}\nendsolid t\n`);
  return file;
}

/**
 * A binary STL of `triangles` large triangles, each spanning the model's whole width, so that
 * drawing it is slow for its size (every triangle covers much of the picture).
 */
export function makeBigTriangleStl(file: string, triangles: number): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const buf = Buffer.alloc(84 + triangles * 50);
  buf.writeUInt32LE(triangles, 80);
  for (let i = 0; i < triangles; i++) {
    const z = i / triangles;
    const corners = [-1, -1, z, 1, -1, z, 0, 1, -z];
    corners.forEach((v, k) => buf.writeFloatLE(v, 84 + i * 50 + 12 + k * 4));
  }
  writeFileSync(file, buf);
  return file;
}

/**
 * A photo-like picture of its own per seed (coloured shapes on a gradient, with grain), so that
 * visual signatures of different scenes differ as different photos do; made by sharp from SVG.
 */
export async function makeScene(
  file: string,
  options: { seed: number; width?: number; height?: number; format?: 'jpeg' | 'png' | 'webp' } = { seed: 1 },
): Promise<string> {
  mkdirSync(path.dirname(file), { recursive: true });
  const { seed, width = 1200, height = 800, format = 'jpeg' } = options;
  let state = seed * 2654435761;
  const rand = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const colour = () => `rgb(${Math.floor(rand() * 256)},${Math.floor(rand() * 256)},${Math.floor(rand() * 256)})`;
  const shapes: string[] = [];
  for (let i = 0; i < 14; i++) {
    const x = Math.round(rand() * width);
    const y = Math.round(rand() * height);
    const r = Math.round((0.05 + rand() * 0.2) * Math.min(width, height));
    shapes.push(
      rand() < 0.5
        ? `<circle cx="${x}" cy="${y}" r="${r}" fill="${colour()}"/>`
        : `<rect x="${x - r}" y="${y - r}" width="${2 * r}" height="${Math.round(r * (0.5 + rand()))}" fill="${colour()}"/>`,
    );
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="${rand().toFixed(2)}" y2="1">` +
    `<stop offset="0" stop-color="${colour()}"/><stop offset="1" stop-color="${colour()}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#g)"/>${shapes.join('')}</svg>`;
  const grain = Buffer.alloc(width * height);
  for (let i = 0; i < grain.length; i++) grain[i] = Math.floor(rand() * 24);
  const base = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  for (let i = 0; i < base.length; i++) base[i] = Math.min(255, (base[i] ?? 0) + (grain[Math.floor(i / 3)] ?? 0));
  await sharp(base, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toFile(file);
  return file;
}

/** A changed copy of a picture: narrower, re-encoded, brightened, or only its left part (`left`: the share kept). */
export async function variantOf(
  src: string,
  out: string,
  change: { width?: number; format: 'jpeg' | 'png' | 'webp'; quality?: number; brightness?: number; left?: number },
): Promise<string> {
  let img = sharp(src);
  if (change.left) {
    const m = await img.metadata();
    img = img.extract({ left: 0, top: 0, width: Math.round((m.width ?? 0) * change.left), height: m.height ?? 0 });
  }
  if (change.width) img = img.resize(change.width);
  if (change.brightness) img = img.modulate({ brightness: change.brightness });
  await img.toFormat(change.format, change.quality ? { quality: change.quality } : {}).toFile(out);
  return out;
}

/** A picture of one colour with a patch of another covering `patch` of its width and height (colour search). */
export async function makeFlat(file: string, colour: string, patchColour: string, patch: number): Promise<string> {
  const w = 800;
  const h = 600;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="${colour}"/>` +
    `<rect x="40" y="40" width="${Math.round(w * patch)}" height="${Math.round(h * patch)}" fill="${patchColour}"/></svg>`;
  mkdirSync(path.dirname(file), { recursive: true });
  await sharp(Buffer.from(svg)).png().toFile(file);
  return file;
}
