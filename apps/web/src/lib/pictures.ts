import type { ConfigImageName } from '@vitrine/contract/config';
import { configImageCall } from '@vitrine/contract/endpoints';
import { atWidth, configImageWidths, THUMB_BOX_RATIO, thumbWidths } from '@vitrine/contract/paths';
import type { AssetDoc } from '@vitrine/contract/search';
import { callUrl } from './apiClient.ts';

/**
 * How many pictures of a grid whose columns depend on the screen (tiles, bookmark cards) are taken
 * as its first row: fetched at once and first.
 */
export const FIRST_IN_GRID = 4;

/** The pixel size of an asset, when known; pixel sizes win over width and height (portal-spec §3). */
export function pixelSize(doc: Pick<AssetDoc, 'pixel_x' | 'pixel_y' | 'width' | 'height'>) {
  const width = doc.pixel_x || doc.width;
  const height = doc.pixel_y || doc.height;
  return width && height ? { width, height } : undefined;
}

/**
 * The attributes of an <img> that let the browser fetch a picture in the width it is drawn at: the
 * server makes thumbnails in two widths (thumbWidths) and uploaded photos in the widths of screens
 * (configImageWidths), each named by the same URL with `w` set.
 */
export interface PictureAttributes {
  src: string;
  srcSet: string;
  sizes: string;
  loading?: 'lazy';
  fetchPriority?: 'high';
  decoding?: 'async';
}

/**
 * A thumbnail's attributes. `sizes` is the width it is drawn at (`'180px'`, a media condition list).
 * `asset`: its pixel size, when known, gives the real widths of its thumbnails (a portrait picture
 * fills less of the 400 × 250 and 800 × 500 boxes than their width). `first`: one of the
 * pictures seen first on the page, fetched at once and before others; the rest load when near
 * the screen.
 */
export function thumbPicture(
  url: string,
  options: { sizes: string; asset?: Parameters<typeof pixelSize>[0]; first?: boolean },
): PictureAttributes {
  const size = options.asset && pixelSize(options.asset);
  const real = (box: number) =>
    size ? Math.max(1, Math.round(Math.min(box, box * THUMB_BOX_RATIO * (size.width / size.height), size.width))) : box;
  return {
    src: url,
    srcSet: thumbWidths.map((w) => `${atWidth(url, w)} ${real(w)}w`).join(', '),
    sizes: options.sizes,
    ...(options.first ? { fetchPriority: 'high' } : { loading: 'lazy' }),
    decoding: 'async',
  };
}

/** The address of an admin's uploaded picture (logo, hero images, favicon). */
export function configImageUrl(name: ConfigImageName): string {
  return callUrl(configImageCall, { params: { name } });
}

/**
 * Asks for a picture before the element that shows it exists, as `<img {...picture}>` would (the
 * browser picks the same width from `srcset` and `sizes`), so the element finds it on its way.
 */
export function preloadPicture(picture: PictureAttributes, doc: Document = document): void {
  const link = doc.createElement('link');
  link.rel = 'preload';
  link.href = picture.src;
  link.setAttribute('as', 'image');
  // A picture of one width (an asset's preview) has no srcset: the link then fetches href.
  if (picture.srcSet) {
    link.setAttribute('imagesrcset', picture.srcSet);
    link.setAttribute('imagesizes', picture.sizes);
  }
  if (picture.fetchPriority) link.setAttribute('fetchpriority', picture.fetchPriority);
  doc.head.append(link);
}

/**
 * An uploaded photo drawn across the screen (the hero images): the widths of screens, chosen by
 * the browser for the screen's width and pixel density, fetched first. `url` is the original's
 * address, which browsers without srcset and SVG uploads use as it is.
 */
export function screenWidePicture(url: string): PictureAttributes {
  return {
    src: url,
    srcSet: configImageWidths.map((w) => `${atWidth(url, w)} ${w}w`).join(', '),
    sizes: '100vw',
    fetchPriority: 'high',
  };
}
