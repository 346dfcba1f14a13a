/**
 * OKLab, the perceptual colour space of the visual signatures (issue #52, decision 0262): the server
 * writes the dominant colours of a picture in it, the search engine compares a searched colour with
 * them. Björn Ottosson's matrices, shared so that both sides measure the same space.
 */

/** An sRGB channel (0–255) as linear light (0–1). */
export function linearChannel(c: number): number {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

/** Linear-light RGB (0–1 each) → OKLab [L, a, b]. */
export function oklabOfLinear(lr: number, lg: number, lb: number): [number, number, number] {
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}
