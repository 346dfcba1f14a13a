import * as oidc from 'openid-client';

export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string;
  redirectUri: string;
}

/** What the login start hands to the callback: checked there against the provider's answer. */
export interface OidcPending {
  state: string;
  nonce: string;
  verifier: string;
}

/**
 * OpenID Connect relying party (openid-client): discovery, authorization code flow with PKCE, state
 * and nonce. The only module that loads openid-client.
 */
export class OidcClient {
  private config: Promise<oidc.Configuration> | undefined;

  constructor(private readonly settings: OidcClientSettings) {}

  private configuration(): Promise<oidc.Configuration> {
    const s = this.settings;
    // Plain http is accepted only for an issuer on this machine (development and tests).
    const local = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(s.issuer);
    this.config ??= oidc
      .discovery(new URL(s.issuer), s.clientId, s.clientSecret, undefined, {
        execute: local ? [oidc.allowInsecureRequests] : [],
      })
      .catch((err: unknown) => {
        this.config = undefined;
        throw err;
      });
    return this.config;
  }

  async start(): Promise<{ url: string; pending: OidcPending }> {
    const config = await this.configuration();
    const pending = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      scope: this.settings.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, pending };
  }

  /** Redeems the code of the callback; throws unless state, nonce, PKCE and the ID token check out. */
  async finish(callbackUrl: URL, pending: OidcPending): Promise<Record<string, unknown>> {
    const config = await this.configuration();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('The identity provider sent no ID token');
    const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    return { ...userInfo, ...claims };
  }
}
