import type { AssetDoc } from '@vitrine/contract/search';
import { pixelAspect } from '../../lib/assetText.ts';

/** The class of the box an asset's media is shown in (app/asset.css); its proportion comes with it. */
export const ASSET_FRAME = 'vt-asset-frame';

/**
 * The proportion of the media's frame: the asset's own when known; otherwise that of the server's
 * waveforms (1600 × 600) for sounds, of an A4 page for documents, else 4:3.
 */
export function frameAspect(doc: AssetDoc): number {
  const groups = doc.asset_groups ?? [];
  return pixelAspect(doc) ?? (groups.includes('audio') ? 8 / 3 : groups.includes('document') ? 210 / 297 : 4 / 3);
}
