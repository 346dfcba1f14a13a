import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring URLs under /media/… (ARCHITECTURE §3 "Media URLs"), so that <img>, <video> and
 * blob downloads need no auth header. The expiry is rounded up to a time window, so the same file
 * gets the same URL for a while and browsers and CDNs can cache it.
 */
const MEDIA_PREFIX = '/media/';

export const mediaWindows = {
  /** Thumbnails, previews and posters in search answers. */
  view: 6 * 3600,
  /** Downloads and zip bundles. */
  download: 10 * 60,
} as const;

function signature(secret: string, path: string, expires: number): string {
  return createHmac('sha256', secret).update(`${path}\n${expires}`).digest('base64url').slice(0, 32);
}

/**
 * `path` is the part after /media/, e.g. `thumb/42` or `download/42/1`. Answers a root-relative URL.
 */
export function signMediaUrl(secret: string, path: string, window: number, now = Date.now()): string {
  const seconds = Math.floor(now / 1000);
  // Expire between one and two windows from now, on a window boundary.
  const expires = (Math.floor(seconds / window) + 2) * window;
  const sep = path.includes('?') ? '&' : '?';
  return `${MEDIA_PREFIX}${path}${sep}exp=${expires}&sig=${signature(secret, path, expires)}`;
}

/** Checks a signed media path; `path` is the part after /media/ without exp and sig. */
export function verifyMediaUrl(
  secret: string,
  path: string,
  exp: string | undefined,
  sig: string | undefined,
  now = Date.now(),
): 'ok' | 'expired' | 'invalid' {
  const expires = Number(exp);
  if (!exp || !sig || !Number.isInteger(expires)) return 'invalid';
  const expected = Buffer.from(signature(secret, path, expires));
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
