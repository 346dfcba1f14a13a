import type { FastifyInstance, FastifyReply } from 'fastify';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { SSO_BINDING_COOKIE } from '../auth/tokens.ts';
import type { SsoOutcome, SsoService } from './sso.service.ts';

const PENDING_COOKIE = 'vitrine_sso';

/**
 * The browser legs of single sign-on. They are redirects and an XML document rather than JSON calls,
 * so they are plain routes, not contract calls.
 */
export function ssoRoutes(app: FastifyInstance, sso: SsoService): void {
  const base = `${API_BASE_PATH}sso`;
  const secure = app.settings.publicUrl.startsWith('https:');
  const bind = (reply: FastifyReply, binding: string) =>
    reply.setCookie(SSO_BINDING_COOKIE, binding, {
      path: API_BASE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: 600,
    });
  const land = (reply: FastifyReply, outcome: SsoOutcome, status: 302 | 303) => {
    if (outcome.binding) void bind(reply, outcome.binding);
    return reply.redirect(outcome.location, status);
  };

  app.get<{ Params: { name: string } }>(`${base}/oidc/:name/login`, async (request, reply) => {
    const { url, cookie, binding } = await sso.oidcStart(request.params.name);
    void bind(reply, binding);
    void reply.setCookie(PENDING_COOKIE, cookie, {
      path: `${base}/oidc/`,
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: 600,
    });
    return reply.redirect(url);
  });

  app.get<{ Params: { name: string } }>(`${base}/oidc/:name/callback`, async (request, reply) => {
    const callbackUrl = new URL(request.url, app.settings.publicUrl);
    const outcome = await sso.oidcFinish(request.params.name, callbackUrl, request.cookies[PENDING_COOKIE]);
    void reply.clearCookie(PENDING_COOKIE, { path: `${base}/oidc/` });
    return land(reply, outcome, 302);
  });

  app.get<{ Params: { name: string } }>(`${base}/saml/:name/login`, async (request, reply) => {
    const { url, binding } = await sso.samlStart(request.params.name, request.ip);
    void bind(reply, binding);
    return reply.redirect(url);
  });

  app.get<{ Params: { name: string } }>(`${base}/saml/:name/metadata`, async (request, reply) =>
    reply.type('application/samlmetadata+xml').send(sso.samlMetadata(request.params.name)),
  );

  void app.register(async (scope) => {
    // The identity provider posts the assertion as an HTML form.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.post<{ Params: { name: string }; Body: Record<string, string> }>(
      `${base}/saml/:name/acs`,
      async (request, reply) => land(reply, await sso.samlConsume(request.params.name, request.body), 303),
    );
  });
}
