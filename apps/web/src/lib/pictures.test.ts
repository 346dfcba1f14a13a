import { describe, expect, it } from 'vitest';
import { pixelSize } from './pictures.ts';

describe('portal-spec §3 "Asset" "pixel_x, pixel_y (non-zero values override width and height)"', () => {
  it.each([
    ['pixel sizes win over width and height', { pixel_x: 4000, pixel_y: 3000, width: 400, height: 300 }, 4000, 3000],
    ['a zero pixel size leaves width and height', { pixel_x: 0, pixel_y: 0, width: 400, height: 300 }, 400, 300],
    ['each side on its own', { pixel_x: 4000, pixel_y: 0, width: 400, height: 300 }, 4000, 300],
    ['pixel sizes alone', { pixel_x: 1920, pixel_y: 1080 }, 1920, 1080],
  ])('%s', (_, doc, width, height) => {
    expect(pixelSize(doc)).toEqual({ width, height });
  });

  it('knows no size when a side is missing or zero everywhere', () => {
    expect(pixelSize({ pixel_x: 0, pixel_y: 1080, width: 0 })).toBeUndefined();
    expect(pixelSize({})).toBeUndefined();
  });
});
