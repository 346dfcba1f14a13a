import type { AssetDoc } from '@vitrine/contract/search';
import { pixelSize } from './pictures.ts';

/** The alternative text of a poster from the configured field, its fallback, or the id. */
export function altText(doc: AssetDoc, field: string, fallbackField: string): string {
  for (const key of [field, fallbackField]) {
    const value = doc[key];
    if (typeof value === 'string' && value) return value;
    if (Array.isArray(value) && value.length) return value.join(', ');
  }
  return doc.id;
}

/** Width over height of an asset, when known; pixel sizes win over width and height (portal-spec §3). */
export function pixelAspect(doc: AssetDoc): number | undefined {
  const size = pixelSize(doc);
  return size && size.width / size.height;
}
