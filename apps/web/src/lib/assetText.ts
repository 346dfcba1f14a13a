import type { GlobalConfig } from '@vitrine/contract/global-config';
import type { AssetDoc } from '@vitrine/contract/search';
import { pixelSize } from './pictures.ts';

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() ? value : undefined;
  if (Array.isArray(value)) {
    const parts = value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
    return parts.length > 0 ? parts.join(', ') : undefined;
  }
  return undefined;
}

/**
 * The alternative text of an asset's picture, the same wherever it is drawn (search, dashboard,
 * asset page, first paint): the alt field, else the fallback field, else the configured text in the
 * content language or the fallback locale (decision 0267), else the id.
 */
export function altText(
  doc: AssetDoc,
  assets: GlobalConfig['accessibility']['assets'],
  lang: string,
  fallbackLang: string,
): string {
  const { alt, alt_fallback } = assets;
  const texts = alt_fallback.options.text ?? {};
  return (
    textOf(doc[alt]) ??
    (alt_fallback.field_name ? textOf(doc[alt_fallback.field_name]) : undefined) ??
    textOf(texts[lang]) ??
    textOf(texts[fallbackLang]) ??
    doc.id
  );
}

/** Width over height of an asset, when known; pixel sizes win over width and height (portal-spec §3). */
export function pixelAspect(doc: AssetDoc): number | undefined {
  const size = pixelSize(doc);
  return size && size.width / size.height;
}
