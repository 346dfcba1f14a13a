import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

/** The route pattern Fastify matched (`/assetportal/api/sso/saml/:name/acs`); undefined when none did. */
const matchedRoute = (request: FastifyRequest): string | undefined => request.routeOptions.url;

/**
 * Double-submit XSRF protection (docs/decisions/0008-xsrf-a-double-submit-cookie-for-the-whole-api.md): every API answer sets a random XSRF-TOKEN
 * cookie when the browser has none; every state-changing request must echo it in the X-XSRF-TOKEN
 * header. Another site can make a browser send the cookie but cannot read it, so it cannot set the
 * header.
 *
 * Whether a request is exempt is decided from the route Fastify matched, never from the URL as sent:
 * the router decodes and normalises the path (`%61pi` is `api`), so a test of the raw URL can be
 * dodged by another spelling. A state-changing request that matches no route needs the pair too.
 * `exempt` lists the call paths (route patterns below the API base) that must work without the
 * cookie: the login, and the SAML assertion consumer, which an identity provider posts to and which
 * the assertion's signature protects instead. Each must name a state-changing route, or the app does
 * not start.
 */
export function installXsrf(app: FastifyInstance, options: { exempt: string[]; secure: boolean }): void {
  const exempt = new Set(options.exempt.map((p) => API_BASE_PATH + p));
  const changing = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((m) => stateChanging.has(m))) changing.add(route.url);
  });
  app.addHook('onReady', async () => {
    const stray = [...exempt].filter((url) => !changing.has(url));
    if (stray.length > 0) throw new Error(`XSRF exemptions that name no state-changing route: ${stray.join(', ')}`);
  });
  app.addHook('onRequest', async (request) => {
    if (!stateChanging.has(request.method)) return;
    const route = matchedRoute(request);
    if (route !== undefined && exempt.has(route)) return;
    const cookie = request.cookies[XSRF_COOKIE];
    const header = request.headers[XSRF_HEADER];
    if (!cookie || typeof header !== 'string' || !same(cookie, header)) {
      throw xsrfRefused();
    }
  });
  app.addHook('onSend', async (request, reply) => {
    if (!(matchedRoute(request) ?? '').startsWith(API_BASE_PATH) || request.cookies[XSRF_COOKIE]) return;
    void reply.setCookie(XSRF_COOKIE, randomBytes(24).toString('base64url'), {
      path: '/',
      sameSite: 'strict',
      secure: options.secure,
      httpOnly: false,
    });
  });
}
