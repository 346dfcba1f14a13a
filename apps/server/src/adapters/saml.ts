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
      // Request ids would have to be shared by all server processes; the signature, audience and
      // time checks carry the security here.
      validateInResponseTo: ValidateInResponseTo.never,
      acceptedClockSkewMs: 60_000,
      identifierFormat: null,
    });
  }

  async loginUrl(relayState: string): Promise<string> {
    return this.saml.getAuthorizeUrlAsync(relayState, undefined, {});
  }

  metadata(): string {
    return this.saml.generateServiceProviderMetadata(null, null);
  }

  /** Validates the posted SAMLResponse; throws when it is not a valid, signed assertion for us. */
  async consume(form: Record<string, string>): Promise<SamlIdentity> {
    const { profile, loggedOut } = await this.saml.validatePostResponseAsync(form);
    if (!profile || loggedOut) throw new Error('The SAML answer holds no login');
    const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
    return { nameId: profile.nameID, attributes: { ...profile, ...attributes } };
  }
}
