import type { Auth } from '../auth/caller.ts';
import { notFound } from '../http/errors.ts';

/**
 * Who a download URL is handed to, signed into it (`by`): the download is logged as theirs when it is
 * delivered, without a row written for every URL handed out.
 */
export function downloaderOf(auth: Auth): string {
  return auth.userId !== null ? `u${auth.userId}` : 'guest';
}

/** Whether `id` can name an asset: digits only, within the database's integer ids. */
export const isAssetId = (id: string) => /^\d{1,10}$/.test(id) && Number(id) <= 0x7fffffff;

/** An asset id of a request or a signed URL; anything else is not found. */
export function assetIdOf(id: string): number {
  if (!isAssetId(id)) throw notFound(`The asset ${id}`);
  return Number(id);
}
