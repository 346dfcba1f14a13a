import { inflateRawSync } from 'node:zlib';
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';

export interface SamlClientSettings {
  entryPoint: string;
  idpCert: string;
  idpIssuer?: string;
  spEntityId: string;
  callbackUrl: string;
}

export interface SamlIdentity {
  nameId: string;
  attributes: Record<string, unknown>;
  /** The id of the request the answer is for; null for an unsolicited (IdP-initiated) answer. */
  inResponseTo: string | null;
  /** The assertion's id, for the replay cache. */
  assertionId: string;
  /** Until when the assertion is valid (ms), when it says so. */
  notOnOrAfter: number | undefined;
}

interface ParsedAssertion {
  Assertion?: { $?: { ID?: string }; Conditions?: { $?: { NotOnOrAfter?: string } }[] };
}

/** The ID of the AuthnRequest in a redirect-binding URL (deflated, base64 in SAMLRequest). */
function requestIdOf(url: string): string {
  const message = new URL(url).searchParams.get('SAMLRequest') ?? '';
  const xml = inflateRawSync(Buffer.from(message, 'base64')).toString('utf8');
  const id = /<(?:\w+:)?AuthnRequest\b[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error('The SAML request has no ID');
  return id;
}

/**
 * SAML 2.0 service provider (@node-saml/node-saml): the redirect to the identity provider, our
 * metadata, and the assertion consumer, which refuses unsigned or tampered answers, answers for
 * another audience and expired ones. The only module that loads node-saml.
 */
export class SamlClient {
  private readonly saml: SAML;

  constructor(settings: SamlClientSettings) {
    this.saml = new SAML({
      entryPoint: settings.entryPoint,
      idpCert: settings.idpCert,
      idpIssuer: settings.idpIssuer,
      issuer: settings.spEntityId,
      audience: settings.spEntityId,
      callbackUrl: settings.callbackUrl,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      // The service checks InResponseTo against the request ids in the database, which every server
      // process shares (node-saml's cache would live in one process only).
      validateInResponseTo: ValidateInResponseTo.never,
      acceptedClockSkewMs: 60_000,
      identifierFormat: null,
    });
  }

  /** The redirect to the identity provider, and the id of the request it carries. */
  async loginUrl(relayState: string): Promise<{ url: string; requestId: string }> {
    const url = await this.saml.getAuthorizeUrlAsync(relayState, undefined, {});
    return { url, requestId: requestIdOf(url) };
  }

  metadata(): string {
    return this.saml.generateServiceProviderMetadata(null, null);
  }

  /** Validates the posted SAMLResponse; throws when it is not a valid, signed assertion for us. */
  async consume(form: Record<string, string>): Promise<SamlIdentity> {
    const { profile, loggedOut } = await this.saml.validatePostResponseAsync(form);
    if (!profile || loggedOut) throw new Error('The SAML answer holds no login');
    const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
    const assertion = (profile.getAssertion?.() as ParsedAssertion | undefined)?.Assertion;
    const assertionId = assertion?.$?.ID;
    if (!assertionId) throw new Error('The SAML assertion has no ID');
    const until = assertion.Conditions?.[0]?.$?.NotOnOrAfter;
    return {
      nameId: profile.nameID,
      attributes: { ...profile, ...attributes },
      inResponseTo: typeof profile.inResponseTo === 'string' && profile.inResponseTo ? profile.inResponseTo : null,
      assertionId,
      notOnOrAfter: until ? Date.parse(until) : undefined,
    };
  }
}
