import { rename, writeFile } from 'node:fs/promises';
import type Sharp from 'sharp';
import type { OutputInfo, Sharp as SharpImage, WebpOptions } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { THUMB_BOX_RATIO, type ThumbWidth } from '@vitrine/contract/paths';

/** sharp (libvips) for images: probing, thumbnails, previews and the ThumbHash placeholder. */
export interface ImageProbe {
  width: number;
  height: number;
  format: string;
  /** Pixels per inch when the file says so. */
  density: number | null;
  pages: number;
}

/** The side of the greyscale square a perceptual hash is taken from (alike/signature.ts). */
export const HASH_SIDE = 32;
/** The side of the colour square dominant colours are taken from. */
export const COLOUR_SIDE = 48;

/** The pixels a visual signature is made of (alike/signature.ts does the maths). */
export interface SignaturePixels {
  /** HASH_SIDE × HASH_SIDE greyscale, row by row. */
  grey: Uint8Array;
  /** COLOUR_SIDE × COLOUR_SIDE sRGB, three bytes a pixel. */
  rgb: Uint8Array;
  /**
   * The whole picture as shrunk into the signature's box (its own aspect), greyscale row by row:
   * the part hashes' windows are cut from it.
   */
  small: { grey: Uint8Array; width: number; height: number };
  /** The picture's own size. */
  width: number;
  height: number;
}

export interface SizedFile {
  width: number;
  height: number;
  bytes: number;
}

export interface ImageDerivativeFiles {
  thumb: SizedFile;
  /** The thumbnail in the small box, for posters drawn small or on screens of low pixel density. */
  thumbSmall: SizedFile;
  preview: SizedFile;
  /** ThumbHash of the picture, base64. */
  placeholder: string;
  /** What its visual signature is made of (alike/signature.ts), from the same decode. */
  signature: SignaturePixels;
}

/**
 * The box a thumbnail of a width fits in. The large one fits the portal's result posters (200–250 px
 * high) at twice the pixel density; the small one posters drawn about 200 px wide.
 */
const thumbBox = (width: ThumbWidth) => ({ width, height: Math.round(width * THUMB_BOX_RATIO) });
/** Thumbnails are made at 78 % quality and effort 2: hundreds per import, seen small. */
const THUMB_WEBP = { quality: 78, effort: 2 } as const;
/** Fits the detail page at twice the pixel density of a large screen's content column. */
export const PREVIEW_BOX = { width: 1600, height: 1600 } as const;

/**
 * sharp, loaded on first use: a process that converts no image (a server answering searches only)
 * does not map libvips, about 20 MB of its resident memory.
 */
let sharpModule: typeof Sharp | undefined;
async function sharpLib(): Promise<typeof Sharp> {
  sharpModule ??= (await import('sharp')).default;
  return sharpModule;
}

const open = async (input: string | Buffer) =>
  (await sharpLib())(input, { failOn: 'error', limitInputPixels: 512_000_000, sequentialRead: true });

/** Reads the header of an image; throws for a file the image library cannot read. */
export async function probeImage(input: string | Buffer): Promise<ImageProbe> {
  const m = await (await open(input)).metadata();
  if (!m.width || !m.height) throw new Error('the image has no size');
  const rotated = (m.orientation ?? 1) >= 5;
  return {
    width: rotated ? m.height : m.width,
    height: rotated ? m.width : m.height,
    format: m.format,
    density: m.density ?? null,
    pages: m.pages ?? 1,
  };
}

async function writeAtomically(target: string, data: Buffer): Promise<void> {
  const tmp = `${target}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, target);
}

/**
 * Makes the preview and the thumbnail (WebP) and the ThumbHash from one decode of the source:
 * the source is shrunk once to preview size (JPEG shrink-on-load does most of that work) and the
 * smaller pictures come from that.
 */
export async function makeImageDerivatives(
  input: string | Buffer,
  out: { thumb: string; thumbSmall: string; preview: string },
): Promise<ImageDerivativeFiles> {
  const { data, info } = await (
    await open(input)
  )
    .rotate()
    .resize(PREVIEW_BOX.width, PREVIEW_BOX.height, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const sharp = await sharpLib();
  // Effort 1 encodes about five times faster than the default at some 20 % more bytes; previews
  // are made for every asset at import, so the time matters more.
  const preview = await sharp(data, raw).webp({ quality: 82, effort: 1 }).toBuffer({ resolveWithObject: true });
  const thumbOf = (width: ThumbWidth) => {
    const box = thumbBox(width);
    return sharp(data, raw)
      .resize(box.width, box.height, { fit: 'inside', withoutEnlargement: true })
      .webp(THUMB_WEBP)
      .toBuffer({ resolveWithObject: true });
  };
  const thumb = await thumbOf(800);
  const thumbSmall = await thumbOf(400);
  const tiny = await sharp(data, raw)
    .resize(100, 100, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const hash = rgbaToThumbHash(tiny.info.width, tiny.info.height, tiny.data);
  // From the same shrink as the ThumbHash: the signature costs only its two small squares.
  const signature = await squaresOf(tiny.data, tiny.info, info);
  await writeAtomically(out.preview, preview.data);
  await writeAtomically(out.thumb, thumb.data);
  await writeAtomically(out.thumbSmall, thumbSmall.data);
  const sized = (made: { data: Buffer; info: OutputInfo }): SizedFile => ({
    width: made.info.width,
    height: made.info.height,
    bytes: made.data.length,
  });
  return {
    preview: sized(preview),
    thumb: sized(thumb),
    thumbSmall: sized(thumbSmall),
    placeholder: Buffer.from(hash).toString('base64'),
    signature,
  };
}

/** The box a picture is shrunk into before its signature's squares are taken (the ThumbHash's too). */
const SIGNATURE_BOX = 100;

/**
 * The small squares a visual signature is made of, from a picture already shrunk into
 * SIGNATURE_BOX: transparent parts count as white (as the portal's posters show them), both squares
 * squeezed to the full picture. `size` is the picture's own size.
 */
async function squaresOf(
  small: Buffer,
  raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 },
  size: { width: number; height: number },
): Promise<SignaturePixels> {
  const flat = (await sharpLib())(small, { raw }).flatten({ background: '#ffffff' });
  const [grey, rgb, smallGrey] = await Promise.all([
    flat.clone().resize(HASH_SIDE, HASH_SIDE, { fit: 'fill' }).greyscale().raw().toBuffer({ resolveWithObject: true }),
    flat
      .clone()
      .resize(COLOUR_SIDE, COLOUR_SIDE, { fit: 'fill' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true }),
    flat.clone().greyscale().raw().toBuffer({ resolveWithObject: true }),
  ]);
  if (grey.info.channels !== 1 || rgb.info.channels !== 3 || smallGrey.info.channels !== 1)
    throw new Error(
      `unexpected channels for a signature: ${grey.info.channels}, ${rgb.info.channels}, ${smallGrey.info.channels}`,
    );
  return {
    grey: new Uint8Array(grey.data),
    rgb: new Uint8Array(rgb.data),
    small: { grey: new Uint8Array(smallGrey.data), width: smallGrey.info.width, height: smallGrey.info.height },
    width: size.width,
    height: size.height,
  };
}

/** A decoded picture shrunk into SIGNATURE_BOX, as raw pixels with an alpha channel. */
const shrunkForSignature = (img: SharpImage) =>
  img.resize(SIGNATURE_BOX, SIGNATURE_BOX, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });

/**
 * The signature's pixels of a picture decoded to raw pixels (a preview's): the shrink into
 * SIGNATURE_BOX, which the import shares with the ThumbHash, and the squares.
 */
export async function signaturePixelsOfRaw(
  data: Buffer,
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 },
): Promise<SignaturePixels> {
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const small = await shrunkForSignature((await sharpLib())(data, raw));
  return squaresOf(small.data, small.info, info);
}

/**
 * The signature's pixels of a stored picture (a derivative made before signatures were): a decode
 * of a small WebP, a few milliseconds. `size` is the picture's own size when known (its preview's).
 */
export async function signaturePixelsOf(
  file: string,
  size?: { width: number; height: number },
): Promise<SignaturePixels> {
  const img = await open(file);
  const m = await img.metadata();
  if (!m.width || !m.height) throw new Error('the picture has no size');
  const small = await shrunkForSignature(img.rotate());
  return squaresOf(small.data, small.info, size ?? { width: m.width, height: m.height });
}

/**
 * A picture as WebP inside `box` (a missing height: any), never larger than it is, turned upright by
 * its EXIF orientation.
 */
async function webpWithin(
  input: string,
  out: string,
  box: { width: number; height?: number },
  webp: WebpOptions,
): Promise<SizedFile> {
  const info = await (
    await open(input)
  )
    .rotate()
    .resize({ ...box, fit: 'inside', withoutEnlargement: true })
    .webp(webp)
    .toFile(out);
  return { width: info.width, height: info.height, bytes: info.size };
}

/**
 * The small thumbnail made from a large one already stored (assets imported before small ones were
 * made): a decode of at most 800 × 500 pixels, a few milliseconds.
 */
export const shrinkThumbnail = (thumb: string, out: string) => webpWithin(thumb, out, thumbBox(400), THUMB_WEBP);

/**
 * A raster image (an uploaded hero image, a logo) as WebP at most `width` pixels wide. Made once per
 * upload and width, so at the slower effort 4 and quality 75: a fifth fewer bytes than quality 80
 * at effort 2 for a 1080 px hero (121 against 152 KB), in the same time.
 */
export const webpAtWidth = (input: string, out: string, width: number) =>
  webpWithin(input, out, { width }, { quality: 75, effort: 4 });

/** A single thumbnail written to `out` (the benchmark compares this with vipsthumbnail). */
export async function makeThumbnail(input: string, out: string, box: number): Promise<void> {
  await (
    await open(input)
  )
    .rotate()
    .resize(box, box, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 80 })
    .toFile(out);
}

/** Encodes raw RGBA pixels (e.g. a rendered 3D view) as PNG. */
export async function rgbaToPng(data: Uint8Array, width: number, height: number): Promise<Buffer> {
  return (await sharpLib())(data, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/** What a conversion set asks of a picture (admin-spec §3 "Convert set"). */
export interface ImageConversion {
  format: 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif';
  maxSize?: number;
  quality?: number;
  colourSpace: 'srgb' | 'cmyk' | 'b-w' | 'keep';
  iccProfile?: string;
  density?: number;
  keepMetadata: boolean;
}

/** Converts a picture for download into `out` (written whole; the caller renames it into place). */
export async function convertImage(input: string | Buffer, out: string, c: ImageConversion): Promise<SizedFile> {
  let img = (await open(input)).rotate();
  if (c.maxSize) img = img.resize(c.maxSize, c.maxSize, { fit: 'inside', withoutEnlargement: true });
  if (c.keepMetadata) img = img.keepMetadata();
  if (c.iccProfile) img = img.withIccProfile(c.iccProfile);
  else if (c.colourSpace === 'cmyk' && (c.format === 'jpeg' || c.format === 'tiff')) img = img.toColourspace('cmyk');
  else if (c.colourSpace === 'b-w') img = img.toColourspace('b-w');
  else if (c.colourSpace === 'srgb') img = img.toColourspace('srgb');
  else img = img.keepIccProfile();
  if (c.density) img = img.withDensity(c.density);
  const quality = c.quality;
  switch (c.format) {
    case 'jpeg':
      img = img.jpeg({ quality: quality ?? 85, mozjpeg: false, chromaSubsampling: '4:2:0' });
      break;
    case 'png':
      img = img.png({ compressionLevel: 6 });
      break;
    case 'webp':
      img = img.webp({ quality: quality ?? 82, effort: 2 });
      break;
    case 'tiff':
      img = img.tiff({ compression: 'lzw', quality: quality ?? 90 });
      break;
    case 'avif':
      img = img.avif({ quality: quality ?? 55, effort: 2 });
      break;
  }
  const info = await img.toFile(out);
  return { width: info.width, height: info.height, bytes: info.size };
}
