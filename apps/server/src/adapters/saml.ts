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

interface ConfirmationData {
  $?: { InResponseTo?: string; Recipient?: string; NotBefore?: string; NotOnOrAfter?: string };
}

interface ParsedAssertion {
  Assertion?: {
    $?: { ID?: string };
    Conditions?: { $?: { NotOnOrAfter?: string } }[];
    Subject?: { SubjectConfirmation?: { $?: { Method?: string }; SubjectConfirmationData?: ConfirmationData[] }[] }[];
  };
}

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const CLOCK_SKEW_MS = 60_000;

/** The InResponseTo of the Response element, the part of the answer no signature of ours covers. */
function envelopeInResponseTo(form: Record<string, string>): string | null {
  const xml = Buffer.from(form.SAMLResponse ?? '', 'base64').toString('utf8');
  const response = /<(?:[\w-]+:)?Response\b[^>]*>/.exec(xml)?.[0] ?? '';
  return /\sInResponseTo="([^"]*)"/.exec(response)?.[1] || null;
}

/**
 * The request a signed assertion answers, read from its bearer SubjectConfirmationData: only a
 * confirmation for our assertion consumer (Recipient) and in time counts. null for an unsolicited
 * answer (the confirmation names no request).
 */
function confirmedRequest(assertion: ParsedAssertion['Assertion'], callbackUrl: string, now: number): string | null {
  const confirmations = (assertion?.Subject?.[0]?.SubjectConfirmation ?? [])
    .filter((c) => c.$?.Method === BEARER)
    .map((c) => c.SubjectConfirmationData?.[0]?.$ ?? {});
  const valid = confirmations.filter(
    (data) =>
      data.Recipient === callbackUrl &&
      (!data.NotOnOrAfter || Date.parse(data.NotOnOrAfter) > now - CLOCK_SKEW_MS) &&
      (!data.NotBefore || Date.parse(data.NotBefore) <= now + CLOCK_SKEW_MS),
  );
  if (valid.length === 0) throw new Error('The SAML assertion has no bearer confirmation for this portal in time');
  const requests = new Set(valid.map((data) => data.InResponseTo || null));
  if (requests.size > 1) throw new Error('The SAML assertion confirms more than one request');
  return [...requests][0] ?? null;
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
  private readonly callbackUrl: string;

  constructor(settings: SamlClientSettings) {
    this.callbackUrl = settings.callbackUrl;
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
      // process shares (node-saml's cache would live in one process only); consume() reads it from
      // the signed assertion, as node-saml would hand over the unsigned envelope's.
      validateInResponseTo: ValidateInResponseTo.never,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
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

  /**
   * Validates the posted SAMLResponse; throws when it is not a valid, signed assertion for our
   * audience and assertion consumer, or when its envelope and its signed assertion answer different
   * requests.
   */
  async consume(form: Record<string, string>): Promise<SamlIdentity> {
    const { profile, loggedOut } = await this.saml.validatePostResponseAsync(form);
    if (!profile || loggedOut) throw new Error('The SAML answer holds no login');
    const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
    const assertion = (profile.getAssertion?.() as ParsedAssertion | undefined)?.Assertion;
    const assertionId = assertion?.$?.ID;
    if (!assertionId) throw new Error('The SAML assertion has no ID');
    const until = assertion.Conditions?.[0]?.$?.NotOnOrAfter;
    const inResponseTo = confirmedRequest(assertion, this.callbackUrl, Date.now());
    // The envelope may be rewritten by anyone who holds the answer; where it names a request, it
    // must be the one the signed assertion confirms.
    const envelope = envelopeInResponseTo(form);
    if (envelope !== null && envelope !== inResponseTo) {
      throw new Error(`The SAML answer's envelope names request ${envelope}, its signed assertion ${inResponseTo}`);
    }
    return {
      nameId: profile.nameID,
      attributes: { ...profile, ...attributes },
      inResponseTo,
      assertionId,
      notOnOrAfter: until ? Date.parse(until) : undefined,
    };
  }
}
