import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of the web app. Scripts only from the portal's own files (the build
 * has no inline script); styles also inline, because MUI (emotion) writes its styles into the page
 * at run time; pictures and fonts only from the portal and data/blob URLs, so that nothing an admin
 * uploads (a style sheet) can send what a page shows or what is typed to another server. Custom
 * pages may show pictures from the origins an operator names (`customPages.imageOrigins`); media
 * and calls to the portal only, besides data and blob URLs, which reach no server (the 3D viewer
 * reads the textures and buffers a model file carries inside through them). When media files are
 * answered by a redirect to the object store (`S3_PRESIGN_SECONDS`), the store's origin
 * (`mediaOrigins`) is allowed for pictures, media and calls (the 3D viewer fetches its model). No
 * plugins, no foreign base or form targets, and only the portal itself may frame its pages
 * (clickjacking).
 */
export function webAppCsp(imageOrigins: readonly string[] = [], mediaOrigins: readonly string[] = []): string {
  const sources = (directive: string, ...origins: readonly string[]) => [directive, ...origins].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    sources("img-src 'self' data: blob:", ...imageOrigins, ...mediaOrigins),
    sources("media-src 'self' blob:", ...mediaOrigins),
    "font-src 'self' data: blob:",
    sources("connect-src 'self' data: blob:", ...mediaOrigins),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** Headers for every file of the web app (and the page that says it is not built). */
export function webAppSecurityHeaders(
  imageOrigins: readonly string[] = [],
  mediaOrigins: readonly string[] = [],
): Record<string, string> {
  return {
    'Content-Security-Policy': webAppCsp(imageOrigins, mediaOrigins),
    // For browsers that do not know frame-ancestors.
    'X-Frame-Options': 'SAMEORIGIN',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  };
}

/**
 * `Strict-Transport-Security` on every answer (HSTS_SECONDS above 0): API, media, the web app and
 * errors alike, so a browser that once reached the portal over HTTPS never tries plain HTTP again.
 * Set before any handler runs, so answers written straight to the socket (zips) carry it too.
 * Subdomains are not included: the portal does not know what else runs under its domain.
 */
export function installStrictTransportSecurity(app: FastifyInstance, seconds: number): void {
  if (seconds <= 0) return;
  const value = `max-age=${seconds}`;
  app.addHook('onRequest', async (_request, reply) => {
    void reply.header('Strict-Transport-Security', value);
  });
}
