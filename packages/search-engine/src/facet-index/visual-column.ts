/**
 * Visual signatures per document (issue #52): the 64-bit perceptual hash as two 32-bit halves, up
 * to VISUAL_COLOURS dominant colours in OKLab with their shares as bytes, and the aspect as a
 * 16-bit logarithm — 26 bytes a document, so a million signatures take 26 MB (the issue allows
 * 40). Like NumberColumn, the arrays end after the last document with a signature.
 */

// `!` on array reads (noUncheckedIndexedAccess): loops and array sizes bound every index; checks would cost here.

/** Dominant colours kept per document: the largest shares; the rest of a picture's is dropped. */
export const VISUAL_COLOURS = 4;
/** Bytes per colour: L, a, b, share. */
const COLOUR_BYTES = 4;

/** One document's signature as the host hands it in (the hash as 16 hexadecimal digits). */
export interface VisualSignature {
  phash: string;
  /** [L, a, b, share] in OKLab, the largest share first. */
  colours: readonly (readonly [number, number, number, number])[];
  /** Width over height. */
  aspect: number;
}

/** The arrays of a VisualColumn as a snapshot keeps them. */
export interface VisualColumnParts {
  hi: Uint32Array<ArrayBuffer>;
  lo: Uint32Array<ArrayBuffer>;
  colours: Uint8Array<ArrayBuffer>;
  /** 0: no signature. */
  aspect: Uint16Array<ArrayBuffer>;
}

// OKLab L lies in 0–1, a and b within ±0.5 for every sRGB colour: one byte each is 1/255 apart.
const toByte = (x: number): number => Math.max(0, Math.min(255, Math.round(x * 255)));
export const lByte = (l: number): number => toByte(l);
export const abByte = (ab: number): number => toByte(ab + 0.5);
export const lOf = (byte: number): number => byte / 255;
export const abOf = (byte: number): number => byte / 255 - 0.5;

/** ln(aspect) in ±4 (1:54 either way) in 16 bits, 0 kept for "no signature". */
const ASPECT_SCALE = 8191;
export const aspectCode = (aspect: number): number =>
  Math.max(1, Math.min(65535, Math.round((Math.log(aspect > 0 ? aspect : 1) + 4) * ASPECT_SCALE) + 1));
export const lnAspectOf = (code: number): number => (code - 1) / ASPECT_SCALE - 4;

export class VisualColumn {
  hi = new Uint32Array(0);
  lo = new Uint32Array(0);
  colours = new Uint8Array(0);
  aspect = new Uint16Array(0);

  /** Documents below this may have a signature. */
  get length(): number {
    return this.aspect.length;
  }

  has(doc: number): boolean {
    return doc < this.aspect.length && this.aspect[doc] !== 0;
  }

  set(doc: number, sig: VisualSignature | null | undefined): void {
    if (!sig) {
      if (doc < this.aspect.length) this.clear(doc);
      return;
    }
    if (doc >= this.aspect.length) this.grow(doc + 1);
    const hex = sig.phash.padStart(16, '0');
    this.hi[doc] = Number.parseInt(hex.slice(0, 8), 16) >>> 0;
    this.lo[doc] = Number.parseInt(hex.slice(8, 16), 16) >>> 0;
    const at = doc * VISUAL_COLOURS * COLOUR_BYTES;
    this.colours.fill(0, at, at + VISUAL_COLOURS * COLOUR_BYTES);
    const kept = [...sig.colours].sort((x, y) => y[3] - x[3]).slice(0, VISUAL_COLOURS);
    kept.forEach(([l, a, b, share], i) => {
      const k = at + i * COLOUR_BYTES;
      this.colours[k] = lByte(l);
      this.colours[k + 1] = abByte(a);
      this.colours[k + 2] = abByte(b);
      // A colour that is there keeps a share of at least 1/255 (0 marks an empty slot).
      this.colours[k + 3] = Math.max(1, toByte(share));
    });
    this.aspect[doc] = aspectCode(sig.aspect);
  }

  private clear(doc: number): void {
    this.hi[doc] = 0;
    this.lo[doc] = 0;
    this.colours.fill(0, doc * VISUAL_COLOURS * COLOUR_BYTES, (doc + 1) * VISUAL_COLOURS * COLOUR_BYTES);
    this.aspect[doc] = 0;
  }

  private grow(min: number): void {
    // A quarter more, not double: read from a snapshot the arrays are exactly full, and the next new
    // asset would otherwise take a million documents' signatures from 26 MB to 52 (the bound is 40).
    const cap = Math.max(min, Math.ceil(this.aspect.length * 1.25), 1024);
    const hi = new Uint32Array(cap);
    hi.set(this.hi);
    const lo = new Uint32Array(cap);
    lo.set(this.lo);
    const colours = new Uint8Array(cap * VISUAL_COLOURS * COLOUR_BYTES);
    colours.set(this.colours);
    const aspect = new Uint16Array(cap);
    aspect.set(this.aspect);
    Object.assign(this, { hi, lo, colours, aspect });
  }

  /** Bytes the arrays hold (the memory budget). */
  get bytes(): number {
    return this.hi.byteLength + this.lo.byteLength + this.colours.byteLength + this.aspect.byteLength;
  }

  /** The arrays up to `size` documents, not copied. */
  parts(size: number): VisualColumnParts {
    const n = Math.min(size, this.aspect.length);
    return {
      hi: this.hi.subarray(0, n),
      lo: this.lo.subarray(0, n),
      colours: this.colours.subarray(0, n * VISUAL_COLOURS * COLOUR_BYTES),
      aspect: this.aspect.subarray(0, n),
    };
  }

  static fromParts(parts: VisualColumnParts): VisualColumn {
    const n = parts.aspect.length;
    if (parts.hi.length !== n || parts.lo.length !== n || parts.colours.length !== n * VISUAL_COLOURS * COLOUR_BYTES) {
      throw new Error('the visual signatures are of different lengths');
    }
    const col = new VisualColumn();
    Object.assign(col, parts);
    return col;
  }
}

/** Bits set in a 32-bit number. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
