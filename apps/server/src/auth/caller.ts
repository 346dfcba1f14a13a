import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../http/errors.ts';

/**
 * Who is asking. Every service method takes it first and checks it before touching data
 * (STYLE #2). `groups` decide which assets the caller sees and which conversion sets it may
 * download (ARCHITECTURE §4).
 */
export interface Auth {
  /** null for a guest session. */
  userId: number | null;
  name: string | null;
  groups: string[];
  isAssetUser: boolean;
  isGuiAdmin: boolean;
  sessionId: string | null;
  /**
   * For a guest without a session (no token): the client it is counted as (`clientGroup` of its
   * address). Work limited per caller (one conversion at a time) is kept per client for them.
   */
  client?: string;
  locale: string | null;
  /** The request carried a session token that is unknown, expired or revoked. */
  expired: boolean;
  /**
   * For a visitor who opened a share link: the link. Such a caller sees only the link's assets (and
   * of those only what the link's creator may see: `groups` are the creator's) and downloads only
   * in the link's conversion sets; access/rule.ts applies it.
   */
  share?: ShareScope;
}

/** What a share link grants (see `Auth.share`). */
export interface ShareScope {
  id: number;
  assetIds: readonly number[];
  downloadSets: readonly number[];
}

/** A live share link's scope and the groups of the user who made it (AccessService.shareGrant). */
export interface ShareGrant extends ShareScope {
  groups: string[];
}

/** Resolves the caller of a request; the session domain installs the real resolver. */
export type AuthResolver = (request: FastifyRequest) => Promise<Auth>;

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth;
  }
}

export const anonymous: Auth = {
  userId: null,
  name: null,
  groups: [],
  isAssetUser: false,
  isGuiAdmin: false,
  sessionId: null,
  locale: null,
  expired: false,
};

/** Resolves `request.auth` for every API request before its handler runs. */
export function installAuth(app: FastifyInstance, resolve: AuthResolver): void {
  app.decorateRequest('auth', null as unknown as Auth);
  app.addHook('onRequest', async (request) => {
    request.auth = await resolve(request);
  });
}

export function requireAssetUser(auth: Auth): void {
  if (auth.isAssetUser) return;
  throw auth.name && !auth.expired
    ? forbidden('Your account has no access to the portal.')
    : unauthorized('Please log in first.');
}

export function requireGuiAdmin(auth: Auth): void {
  if (auth.isGuiAdmin) return;
  throw auth.name && !auth.expired
    ? forbidden('Only administrators may do this.')
    : unauthorized('Please log in as an administrator.');
}
