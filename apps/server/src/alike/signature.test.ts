import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeScene, variantOf } from '../../test/media-fixtures.ts';
import { signaturePixelsOf } from '../adapters/media.ts';
import {
  dominantColours,
  hashDistance,
  oklab,
  PART_WINDOWS,
  perceptualHash,
  signatureOf,
  windowPixels,
  type Signature,
} from './signature.ts';

describe('hash distance', () => {
  it('counts the differing bits of two 64-bit hashes', () => {
    expect(hashDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(hashDistance('ffffffffffffffff', '0000000000000000')).toBe(64);
    expect(hashDistance('8000000000000001', '0000000000000000')).toBe(2);
    expect(hashDistance('00000000000000f0', '000000000000000f')).toBe(8);
  });
});

describe('perceptual hash', () => {
  it('sets about half of its 64 bits (the median splits the low frequencies) and ignores brightness', () => {
    const grey = new Uint8Array(32 * 32);
    for (let i = 0; i < grey.length; i++) grey[i] = ((i % 32) * 5 + Math.floor(i / 32) * 3) % 200;
    const h = perceptualHash(grey);
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    const ones = BigInt(`0x${h}`).toString(2).replace(/0/g, '').length;
    expect(ones).toBe(32);
    const brighter = grey.map((v) => v + 40);
    expect(hashDistance(perceptualHash(brighter), h)).toBe(0);
  });

  it('refuses a square of the wrong size', () => {
    expect(() => perceptualHash(new Uint8Array(10))).toThrow(/1024 grey pixels/);
  });
});

describe('part windows', () => {
  it('squeezes a window of a picture to the hash square by the share of each pixel it covers', () => {
    // 64 × 48, the left half black, the right white: the left 50 % strip is black, the right white,
    // and a window across the border averages both.
    const grey = new Uint8Array(64 * 48);
    for (let i = 0; i < grey.length; i++) grey[i] = i % 64 < 32 ? 0 : 200;
    expect(new Set(windowPixels(grey, 64, 48, [0, 0, 0.5, 1]))).toEqual(new Set([0]));
    expect(new Set(windowPixels(grey, 64, 48, [0.5, 0, 0.5, 1]))).toEqual(new Set([200]));
    const across = windowPixels(grey, 64, 48, [0.25, 0, 0.5, 1]);
    expect(across.length).toBe(32 * 32);
    expect(across[0]).toBe(0);
    expect(across[31]).toBe(200);
    expect(across.reduce((s, v) => s + v, 0) / across.length).toBeCloseTo(100, 0);
  });

  it('covers the corners, edges and centre at two thirds and strips of a half to nine tenths', () => {
    expect(PART_WINDOWS).toHaveLength(45);
    for (const [x, y, w, h] of PART_WINDOWS) {
      expect(x + w).toBeLessThanOrEqual(1 + 1e-9);
      expect(y + h).toBeLessThanOrEqual(1 + 1e-9);
      expect(w * h).toBeGreaterThanOrEqual(0.44);
    }
    const has = (want: number[]) => PART_WINDOWS.some((w) => w.every((v, i) => Math.abs(v - want[i]!) < 1e-9));
    expect(has([0, 0, 0.6, 1])).toBe(true);
    expect(has([1 / 3, 1 / 3, 2 / 3, 2 / 3])).toBe(true);
    expect(has([0, 0.25, 1, 0.5])).toBe(true);
  });
});

describe('dominant colours', () => {
  it('finds the two colours of a half-red, half-blue picture with their shares, the same each time', () => {
    const rgb = new Uint8Array(48 * 48 * 3);
    for (let i = 0; i < 48 * 48; i++) {
      const red = i < 48 * 48 * 0.6;
      rgb.set(red ? [255, 0, 0] : [0, 0, 255], i * 3);
    }
    const colours = dominantColours(rgb);
    expect(colours).toEqual(dominantColours(rgb));
    expect(colours).toHaveLength(2);
    // OKLab's published values of sRGB red and blue.
    expect(oklab(255, 0, 0).map((x) => Math.round(x * 1000) / 1000)).toEqual([0.628, 0.225, 0.126]);
    expect(colours[0]).toMatchObject({ l: 0.628, a: 0.225, b: 0.126, share: 0.6 });
    expect(colours[1]).toMatchObject({ l: 0.452, a: -0.032, b: -0.312, share: 0.4 });
  });

  it('keeps at most five, largest share first, the shares adding up to one', () => {
    const rgb = new Uint8Array(48 * 48 * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 7919) % 256;
    const colours = dominantColours(rgb);
    expect(colours).toHaveLength(5);
    expect(colours.map((c) => c.share)).toEqual([...colours.map((c) => c.share)].sort((x, y) => y - x));
    expect(colours.reduce((s, c) => s + c.share, 0)).toBeCloseTo(1, 2);
  });
});

/** Real pictures made and changed by sharp, signed as the import signs its previews. */
describe('signatures of real pictures', () => {
  let dir = '';
  const sign = async (file: string) => signatureOf(await signaturePixelsOf(file));
  let original: Signature;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-signature-'));
    original = await sign(await makeScene(path.join(dir, 'a.jpg'), { seed: 1 }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the same picture the same signature', async () => {
    const again = await sign(path.join(dir, 'a.jpg'));
    expect(again).toEqual(original);
    expect(original.aspect).toBe(1.5);
    expect(original.colours.length).toBeGreaterThan(1);
  });

  it('finds a resized, recompressed or converted copy close, and a different photo far', async () => {
    const a = path.join(dir, 'a.jpg');
    const half = await variantOf(a, path.join(dir, 'half.jpg'), { width: 600, format: 'jpeg', quality: 60 });
    const png = await variantOf(a, path.join(dir, 'a.png'), { format: 'png' });
    const brighter = await variantOf(a, path.join(dir, 'brighter.webp'), { format: 'webp', brightness: 1.08 });
    for (const copy of [half, png, brighter]) {
      expect(hashDistance((await sign(copy)).phash, original.phash)).toBeLessThanOrEqual(6);
    }
    for (const seed of [2, 3, 4]) {
      const other = await sign(await makeScene(path.join(dir, `other-${seed}.jpg`), { seed }));
      expect(hashDistance(other.phash, original.phash)).toBeGreaterThanOrEqual(16);
    }
  });

  it('makes part hashes a crop of more than 30 % lies near, and other photos do not (decision 0271)', async () => {
    expect(original.parts).toHaveLength(PART_WINDOWS.length);
    expect(original.version).toBe(2);
    const nearest = (hash: string) => Math.min(...original.parts.map((p) => hashDistance(p, hash)));
    const a = path.join(dir, 'a.jpg');
    for (const left of [0.6, 0.7]) {
      const crop = await sign(await variantOf(a, path.join(dir, `left-${left}.jpg`), { format: 'jpeg', left }));
      // Too far from the whole picture to be a copy, near one of its parts.
      expect(hashDistance(crop.phash, original.phash)).toBeGreaterThan(8);
      expect(nearest(crop.phash)).toBeLessThanOrEqual(10);
    }
    for (const seed of [2, 3, 4]) {
      const other = await sign(path.join(dir, `other-${seed}.jpg`));
      expect(nearest(other.phash)).toBeGreaterThan(10);
    }
  });
});
