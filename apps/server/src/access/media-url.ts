import { createHmac, timingSafeEqual } from 'node:crypto';
import { mediaUrl } from '@vitrine/contract/paths';

/**
 * Signed, expiring URLs under /media/… (ARCHITECTURE §3 "Media URLs"), so that <img>, <video> and
 * blob downloads need no auth header. The expiry is rounded up to a time window, so the same file
 * gets the same URL for a while and browsers and CDNs can cache it. What a signature covers, and
 * how the URL is written, is the contract's (`mediaSigned`, `mediaUrl` in paths.ts).
 */

export const mediaWindows = {
  /** Thumbnails, previews and posters in search answers. */
  view: 6 * 3600,
  /** Downloads and zip bundles. */
  download: 10 * 60,
} as const;

function signature(secret: string, path: string, expires: number): string {
  return createHmac('sha256', secret).update(`${path}\n${expires}`).digest('base64url').slice(0, 32);
}

/** URLs signed in the current expiry of a window, so an asset's URL is signed once per window. */
interface SignedInWindow {
  secret: string;
  exp: number;
  urls: Map<string, string>;
}
const signedUrls = new Map<number, SignedInWindow>();
/** Past this many URLs in one window the cache starts again (a few MB at most). */
const MAX_CACHED_URLS = 50_000;

/**
 * `signed` is the text `mediaSigned` makes of a file, e.g. `thumb/42` or `download/42/1?by=u2`.
 * Answers a root-relative URL. Within one expiry the URL of a file does not change, so it is signed
 * once and then taken from a cache (a search answer signs about a hundred).
 */
export function signMediaUrl(secret: string, signed: string, window: number, now = Date.now()): string {
  const seconds = Math.floor(now / 1000);
  // Expire between one and two windows from now, on a window boundary.
  const exp = (Math.floor(seconds / window) + 2) * window;
  let cache = signedUrls.get(window);
  if (cache?.exp !== exp || cache.secret !== secret || cache.urls.size >= MAX_CACHED_URLS) {
    cache = { secret, exp, urls: new Map() };
    signedUrls.set(window, cache);
  }
  let url = cache.urls.get(signed);
  if (url === undefined) {
    url = mediaUrl(signed, { exp, sig: signature(secret, signed, exp) });
    cache.urls.set(signed, url);
  }
  return url;
}

/** Checks the signature of a media URL; `signed` is the text `mediaSigned` makes of what it names. */
export function verifyMediaUrl(
  secret: string,
  signed: string,
  exp: string | undefined,
  sig: string | undefined,
  now = Date.now(),
): 'ok' | 'expired' | 'invalid' {
  const expires = Number(exp);
  if (!exp || !sig || !Number.isInteger(expires)) return 'invalid';
  const expected = Buffer.from(signature(secret, signed, expires));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
  return expires * 1000 < now ? 'expired' : 'ok';
}

/**
 * The Cache-Control of a file behind a signed URL that expires at `exp` (checked before): no cache
 * keeps it past the signature's end, nor at most `maxSeconds`. `private` (only the visitor's own
 * browser) for a URL minted for a share link, whose revocation a shared cache (a CDN, a proxy) would
 * not notice, and for downloads; `public` otherwise.
 */
export function mediaCacheControl(
  exp: string | undefined,
  scope: 'public' | 'private',
  maxSeconds = Number.POSITIVE_INFINITY,
  now = Date.now(),
): string {
  const remaining = Math.max(0, Math.min(maxSeconds, Math.floor(Number(exp) - now / 1000)));
  return `${scope}, max-age=${Number.isFinite(remaining) ? remaining : 0}`;
}
