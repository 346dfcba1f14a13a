/**
 * The Content-Security-Policy of the web app. Scripts only from the portal's own files (the build
 * has no inline script); styles also inline, because MUI (emotion) writes its styles into the page
 * at run time; pictures also from https (custom pages may show them) and data/blob URLs; media and
 * calls to the portal only. No plugins, no foreign base or form targets, and only the portal itself
 * may frame its pages (clickjacking).
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** Headers for every file of the web app (and the page that says it is not built). */
export const webAppSecurityHeaders: Record<string, string> = {
  'Content-Security-Policy': WEB_APP_CSP,
  // For browsers that do not know frame-ancestors.
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};
