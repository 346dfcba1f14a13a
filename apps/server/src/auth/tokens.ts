import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * Bearer tokens: session tokens and password-reset links. Only their hash is stored, so a leaked
 * database opens no session.
 */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new token: 256 random bits, URL-safe. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/**
 * The cookie that binds a single sign-on login's one-time code to the browser that started it; set
 * at the login start, read by `session/get` when the code is redeemed.
 */
export const SSO_BINDING_COOKIE = 'vitrine_sso_bind';

/** The token of a request: `Authorization: Bearer <token>` (or the bare token). */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const token = header.replace(/^Bearer\s+/i, '').trim();
  return token && token !== 'null' && token !== 'undefined' ? token : undefined;
}
