import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { xsrfRefused } from './errors.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Double-submit XSRF protection for the whole API (docs/decisions.md "XSRF"): every API answer
 * sets a random XSRF-TOKEN cookie when the browser has none; every state-changing API call must echo
 * it in the X-XSRF-TOKEN header. Another site can make a browser send the cookie but cannot read it,
 * so it cannot set the header. `exempt` lists call paths that must work without the cookie: the
 * login, and (ending in `*`) path prefixes such as the SAML assertion consumer, which an identity
 * provider posts to and which is protected by the assertion's signature instead.
 */
export function installXsrf(app: FastifyInstance, options: { exempt: string[]; secure: boolean }): void {
  const exact = new Set(options.exempt.filter((p) => !p.endsWith('*')).map((p) => API_BASE_PATH + p));
  const prefixes = options.exempt.filter((p) => p.endsWith('*')).map((p) => API_BASE_PATH + p.slice(0, -1));
  app.addHook('onRequest', async (request) => {
    if (!stateChanging.has(request.method) || !request.url.startsWith(API_BASE_PATH)) return;
    const path = request.url.split('?')[0] ?? '';
    if (exact.has(path) || prefixes.some((p) => path.startsWith(p))) return;
    const cookie = request.cookies[XSRF_COOKIE];
    const header = request.headers[XSRF_HEADER];
    if (!cookie || typeof header !== 'string' || !same(cookie, header)) {
      throw xsrfRefused();
    }
  });
  app.addHook('onSend', async (request, reply) => {
    if (!request.url.startsWith(API_BASE_PATH) || request.cookies[XSRF_COOKIE]) return;
    void reply.setCookie(XSRF_COOKIE, randomBytes(24).toString('base64url'), {
      path: '/',
      sameSite: 'strict',
      secure: options.secure,
      httpOnly: false,
    });
  });
}
