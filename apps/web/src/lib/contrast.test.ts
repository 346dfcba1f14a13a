import { describe, expect, it } from 'vitest';
import { defaultThemes } from '@vitrine/contract/config-defaults';
import type { ThemeConfig } from '@vitrine/contract/global-config';
import { buildTheme } from './theme.ts';
import { STAR_COLOURS } from '../features/search/FacetSidebar.tsx';

/** WCAG 2.2 relative luminance of an sRGB colour (#rrggbb or rgba(r, g, b, a) over `under`). */
function channels(colour: string, under?: [number, number, number]): [number, number, number] {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (hex) return [1, 2, 3].map((i) => parseInt(hex[i]!, 16)) as [number, number, number];
  const rgba = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)$/.exec(colour);
  if (!rgba) throw new Error(`not a colour: ${colour}`);
  const a = rgba[4] === undefined ? 1 : Number(rgba[4]);
  const base = under ?? [255, 255, 255];
  return [1, 2, 3].map((i, k) => Number(rgba[i]) * a + base[k]! * (1 - a)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrastRatio(fg: string, bg: string): number {
  const back = channels(bg);
  const [x, y] = [luminance(channels(fg, back)), luminance(back)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

const light = defaultThemes.find((th) => th.key === 'light') as ThemeConfig;
const dark = defaultThemes.find((th) => th.key === 'dark') as ThemeConfig;

describe('default themes meet WCAG 2.2 AA contrast (portal-spec §9 "Default themes")', () => {
  it('computes contrast ratios as WCAG defines them', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('rgba(0, 0, 0, 0.5)', '#ffffff')).toBeCloseTo(contrastRatio('#808080', '#ffffff'), 1);
  });

  for (const theme of [light, dark]) {
    it(`${theme.key}: every text colour on its background reaches 4.5:1, the primary orange included`, () => {
      const c = theme.appearance;
      const built = buildTheme(theme);
      const pairs: [string, string, string][] = [
        ['on_primary on primary', c.on_primary, c.primary],
        ['on_secondary on secondary', c.on_secondary, c.secondary],
        ['on_background on background', c.on_background, c.background],
        ['on_surface on surface', c.on_surface, c.surface],
        ['popup text', c.popup_on_background, c.popup_background],
        ['navigation text', c.on_navigation, c.navigation],
        // Text buttons and links are written in the primary colour on the page and on cards.
        ['primary on background', c.primary, c.background],
        ['primary on surface', c.primary, c.surface],
        ['primary on popups', c.primary, c.popup_background],
        ['secondary text on surface', built.palette.text.secondary, c.surface],
        ['secondary text on background', built.palette.text.secondary, c.background],
      ];
      const failing = pairs
        .map(([name, fg, bg]) => ({ name, ratio: contrastRatio(fg, bg) }))
        .filter((p) => p.ratio < 4.5)
        .map((p) => `${p.name}: ${p.ratio.toFixed(2)}`);
      expect(failing).toEqual([]);
    });

    it(`${theme.key}: filled and empty rating stars reach 3:1 on the page and on cards (WCAG 1.4.11)`, () => {
      const palette = buildTheme(theme).palette as unknown as Record<string, Record<string, string>>;
      const colour = (key: string) => {
        const [group = '', shade = ''] = key.split('.');
        return palette[group]?.[shade] ?? '';
      };
      for (const key of Object.values(STAR_COLOURS)) {
        for (const bg of [theme.appearance.background, theme.appearance.surface]) {
          expect(contrastRatio(colour(key), bg), `${key} on ${bg}`).toBeGreaterThanOrEqual(3);
        }
      }
    });

    it(`${theme.key}: the primary is orange`, () => {
      const [r, g, b] = channels(theme.appearance.primary);
      expect(r).toBeGreaterThan(g);
      expect(g).toBeGreaterThan(b);
      expect(r - b).toBeGreaterThan(120);
    });
  }
});
