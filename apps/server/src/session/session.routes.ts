import type { FastifyInstance } from 'fastify';
import { checkSessionCall, getSessionCall, logoutCall, setLocaleCall } from '@vitrine/contract/session';
import { registerCall } from '../http/route.ts';
import { requestLocale } from '../http/locale.ts';
import { tokenOf } from '../auth/tokens.ts';
import type { SessionService } from './session.service.ts';

export function sessionRoutes(app: FastifyInstance, sessions: SessionService): void {
  registerCall(app, getSessionCall, async ({ query, body, request }) =>
    sessions.get({
      token: tokenOf(request),
      credentials: body?.user && body.pass ? { user: body.user, pass: body.pass } : undefined,
      ssoToken: query.token,
      locale: requestLocale(request),
      client: request.ip,
    }),
  );
  registerCall(app, checkSessionCall, async ({ request }) => sessions.check(request.auth));
  registerCall(app, logoutCall, async ({ request }) => sessions.logout(request.auth));
  registerCall(app, setLocaleCall, async ({ query, request }) => sessions.setLocale(request.auth, query.locale));
}
