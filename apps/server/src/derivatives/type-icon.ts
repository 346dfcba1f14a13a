import { escapeMarkup } from '@vitrine/contract/markup';

/**
 * A clear picture for an asset that has no picture of its own yet (or cannot have one): the kind of
 * asset as a symbol and its format as text. Served in place of a missing derivative so the portal
 * never shows a broken image.
 */
const glyphs: Record<string, string> = {
  image: '<rect x="-60" y="-45" width="120" height="90" rx="8"/><path d="M-50 35 L-15 -5 L10 20 L25 5 L50 35 Z"/>',
  video: '<rect x="-60" y="-45" width="120" height="90" rx="8"/><path d="M-15 -25 L25 0 L-15 25 Z"/>',
  document: '<path d="M-40 -55 H20 L45 -30 V55 H-40 Z"/><path d="M-25 -15 H30 M-25 5 H30 M-25 25 H15"/>',
  '3d': '<path d="M0 -55 L50 -28 V28 L0 55 L-50 28 V-28 Z"/><path d="M-50 -28 L0 0 L50 -28 M0 0 V55"/>',
  audio: '<path d="M-20 -40 V25 M-20 25 a15 12 0 1 1 -1 0 M-20 -40 L40 -52 V13 M40 13 a15 12 0 1 1 -1 0"/>',
  other: '<path d="M-40 -55 H20 L45 -30 V55 H-40 Z"/>',
};

export function typeIconSvg(assetGroup: string, format: string, width = 800, height = 500): string {
  const glyph = glyphs[assetGroup] ?? glyphs.other;
  const label = escapeMarkup(format.toUpperCase().slice(0, 12));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeMarkup(assetGroup)} ${label}">
<rect width="100%" height="100%" fill="#eef1f5"/>
<g transform="translate(${width / 2} ${height / 2 - 30})" fill="none" stroke="#5b6b7f" stroke-width="8" stroke-linejoin="round" stroke-linecap="round">${glyph}</g>
<text x="50%" y="${height / 2 + 95}" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="44" font-weight="bold" fill="#5b6b7f">${label}</text>
</svg>`;
}
