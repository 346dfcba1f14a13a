import type { FastifyInstance } from 'fastify';
import { checkSessionCall, getSessionCall, logoutCall, setLocaleCall } from '@vitrine/contract/session';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { registerCall } from '../http/route.ts';
import { requestLocale } from '../http/locale.ts';
import { SSO_BINDING_COOKIE, tokenOf } from '../auth/tokens.ts';
import type { SessionService } from './session.service.ts';

export function sessionRoutes(app: FastifyInstance, sessions: SessionService): void {
  registerCall(app, getSessionCall, async ({ body, request, reply }) => {
    const ssoCode = body?.code;
    // The binding cookie has done its work once a code is presented, whatever the outcome.
    if (ssoCode) void reply.clearCookie(SSO_BINDING_COOKIE, { path: API_BASE_PATH });
    return sessions.get({
      token: tokenOf(request),
      credentials: body?.user && body.pass ? { user: body.user, pass: body.pass } : undefined,
      sso: ssoCode ? { code: ssoCode, binding: request.cookies[SSO_BINDING_COOKIE] } : undefined,
      locale: requestLocale(request),
      client: request.ip,
    });
  });
  registerCall(app, checkSessionCall, async ({ request }) => sessions.check(request.auth));
  registerCall(app, logoutCall, async ({ request }) => sessions.logout(request.auth));
  registerCall(app, setLocaleCall, async ({ query, request }) => sessions.setLocale(request.auth, query.locale));
}
