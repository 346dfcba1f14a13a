import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import * as samlify from 'samlify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { dialects } from '../../test/databases.ts';

const API = '/assetportal/api/';
const PORTAL = 'http://127.0.0.1:9';
const ACS = `${PORTAL}${API}sso/saml/corp/acs`;
const SP_ID = `${PORTAL}${API}sso/saml/corp/metadata`;
const IDP_ID = 'https://idp.example.org/metadata';

/** A key pair and self-signed certificate for the identity provider, made with openssl. */
function makeCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-saml-'));
  const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert].concat([
      '-days',
      '1',
      '-subj',
      '/CN=idp.example.org',
    ]),
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

interface Answer {
  nameId: string;
  groups: string[];
  audience?: string;
  /** Where the assertion's bearer confirmation says it is to be posted (our assertion consumer). */
  recipient?: string;
  signAssertion?: boolean;
  /** The id of the request answered; null for an unsolicited (IdP-initiated) answer. */
  inResponseTo: string | null;
}

/**
 * A real SAML 2.0 identity provider (samlify) that signs its assertions with its own key; answers
 * the base64 SAMLResponse a browser would post to our assertion consumer.
 */
function identityProvider(key: string, cert: string) {
  samlify.setSchemaValidator({ validate: async () => 'skipped' });
  const idp = samlify.IdentityProvider({
    entityID: IDP_ID,
    privateKey: key,
    signingCert: cert,
    singleSignOnService: [
      { Binding: samlify.Constants.namespace.binding.redirect, Location: 'https://idp.example.org/sso' },
    ],
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified'],
  });
  return async (answer: Answer): Promise<string> => {
    const sp = samlify.ServiceProvider({
      entityID: SP_ID,
      assertionConsumerService: [{ Binding: samlify.Constants.namespace.binding.post, Location: ACS }],
      wantAssertionsSigned: answer.signAssertion ?? true,
    });
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60_000).toISOString();
    const values: Record<string, string> = {
      ID: `_r${randomUUID()}`,
      AssertionID: `_a${randomUUID()}`,
      Destination: ACS,
      Audience: answer.audience ?? SP_ID,
      SubjectRecipient: answer.recipient ?? ACS,
      Issuer: IDP_ID,
      IssueInstant: now.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later,
      SubjectConfirmationDataNotOnOrAfter: later,
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      NameID: answer.nameId,
      InResponseTo: answer.inResponseTo ?? '',
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      AttributeStatement: `<saml:AttributeStatement><saml:Attribute Name="groups">${answer.groups
        .map((g) => `<saml:AttributeValue xsi:type="xs:string">${g}</saml:AttributeValue>`)
        .join(
          '',
        )}</saml:Attribute><saml:Attribute Name="email"><saml:AttributeValue xsi:type="xs:string">${answer.nameId}@example.org</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`,
    };
    const { context } = await idp.createLoginResponse(
      sp,
      { extract: { request: { id: answer.inResponseTo ?? '' } } },
      'post',
      { email: answer.nameId },
      (template: string) => ({
        id: values.ID ?? '',
        context: template.replace(/\{(\w+)\}/g, (_m, k: string) => values[k] ?? '').replaceAll(' InResponseTo=""', ''),
      }),
    );
    return context;
  };
}

describe.each(dialects)(
  'SAML 2.0 login against a real identity provider on %s (portal-spec §2 "Login" external methods)',
  (dialect) => {
    let respond: ReturnType<typeof identityProvider>;
    let cert: string;
    let t: TestApp;
    beforeAll(() => {
      const pair = makeCertificate();
      cert = pair.cert;
      respond = identityProvider(pair.key, pair.cert);
    });
    const start = async (allowIdpInitiated = false) => {
      const settings = {
        sso: {
          saml: [
            {
              name: 'corp',
              allowIdpInitiated,
              entryPoint: 'https://idp.example.org/sso',
              idpCert: cert,
              idpIssuer: IDP_ID,
              groupMap: { staff: 'users', it: 'admins' },
            },
          ],
        },
      };
      t = await startTestApp({ dialect, settings, env: { PUBLIC_URL: PORTAL } });
    };
    beforeEach(async () => start());
    afterEach(async () => t.close());

    const post = (samlResponse: string) =>
      t.app.inject({
        method: 'POST',
        url: `${API}sso/saml/corp/acs`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
      });

    /** Starts a login in a browser: the id of the request sent and the browser's binding cookie. */
    const login = async (): Promise<{ requestId: string; binding: string }> => {
      const res = await t.app.inject({ url: `${API}sso/saml/corp/login` });
      const message = new URL(String(res.headers.location)).searchParams.get('SAMLRequest') ?? '';
      const xml = inflateRawSync(Buffer.from(message, 'base64')).toString('utf8');
      const requestId = /AuthnRequest[^>]*\sID="([^"]+)"/.exec(xml)?.[1] ?? '';
      const binding = res.cookies.find((c) => c.name === 'vitrine_sso_bind')?.value ?? '';
      return { requestId, binding };
    };

    /** The web app's exchange of the code the answer sent the browser back with. */
    const redeem = (location: unknown, binding: string) =>
      t.app.inject({
        method: 'POST',
        url: `${API}session/get`,
        headers: { cookie: `vitrine_sso_bind=${binding}` },
        payload: { code: /#\/login\?code=([\w-]+)$/.exec(String(location))?.[1] ?? 'none' },
      });

    const failed = `${PORTAL}/#/login?sso=failed`;

    it('sends the browser to the identity provider and publishes our metadata', async () => {
      const start = await t.app.inject({ url: `${API}sso/saml/corp/login` });
      expect(start.statusCode).toBe(302);
      expect(start.headers.location).toMatch(/^https:\/\/idp\.example\.org\/sso\?SAMLRequest=/);
      const metadata = await t.app.inject({ url: `${API}sso/saml/corp/metadata` });
      expect(metadata.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
      expect(metadata.body).toContain(`entityID="${SP_ID}"`);
      expect(metadata.body).toContain(`Location="${ACS}"`);
    });

    it('logs in with a signed assertion that answers our request, creates the account and maps the groups', async () => {
      const { requestId, binding } = await login();
      const res = await post(await respond({ nameId: 'bob', groups: ['staff', 'unmapped'], inResponseTo: requestId }));
      expect(res.statusCode).toBe(303);
      expect(String(res.headers.location)).toMatch(/#\/login\?code=[\w-]+$/);
      const session = await redeem(res.headers.location, binding);
      expect(session.json()).toMatchObject({ user: 'bob', isAssetUser: true, isGuiAdmin: false });
      const groups = await t.app.db.kysely.selectFrom('user_group').select('group_name').execute();
      expect(groups).toEqual([{ group_name: 'users' }]);
    });

    it('accepts an answer once: a captured answer posted again, or one for a request never sent, is refused', async () => {
      const { requestId, binding } = await login();
      const answer = await respond({ nameId: 'bob', groups: ['staff'], inResponseTo: requestId });
      const first = await post(answer);
      expect((await redeem(first.headers.location, binding)).json()).toMatchObject({ user: 'bob' });
      const replay = await post(answer);
      expect(replay.headers.location).toBe(failed);

      const forged = await post(await respond({ nameId: 'mallory', groups: ['it'], inResponseTo: '_never-sent' }));
      expect(forged.headers.location).toBe(failed);
      // A request expires with the pending login.
      const late = await login();
      await t.app.db.kysely
        .updateTable('saml_request')
        .set({ expires_at: Date.now() - 1 })
        .execute();
      const lateAnswer = await post(await respond({ nameId: 'mallory', groups: ['it'], inResponseTo: late.requestId }));
      expect(lateAnswer.headers.location).toBe(failed);
      const names = await t.app.db.kysely.selectFrom('user_account').select('name').execute();
      expect(names).toEqual([{ name: 'bob' }]);
    });

    it('refuses unsolicited (IdP-initiated) answers unless allowIdpInitiated is set, and then each only once', async () => {
      const unsolicited = await post(await respond({ nameId: 'carol', groups: ['staff'], inResponseTo: null }));
      expect(unsolicited.headers.location).toBe(failed);
      expect(await t.app.db.kysely.selectFrom('user_account').select('name').execute()).toEqual([]);

      await t.close();
      await start(true);
      const answer = await respond({ nameId: 'carol', groups: ['staff'], inResponseTo: null });
      const accepted = await post(answer);
      const binding = accepted.cookies.find((c) => c.name === 'vitrine_sso_bind')?.value ?? '';
      expect((await redeem(accepted.headers.location, binding)).json()).toMatchObject({ user: 'carol' });
      const replay = await post(answer);
      expect(replay.headers.location).toBe(failed);
    });

    /** The answer with its unsigned envelope (the Response element) rewritten as anyone holding it could. */
    const withEnvelope = (answer: string, inResponseTo: string | null) => {
      const xml = Buffer.from(answer, 'base64').toString('utf8');
      const forged = xml.replace(/<samlp:Response\b[^>]*>/, (tag) => {
        const bare = tag.replace(/\sInResponseTo="[^"]*"/, '');
        return inResponseTo === null
          ? bare
          : bare.replace('<samlp:Response', `<samlp:Response InResponseTo="${inResponseTo}"`);
      });
      expect(forged).not.toBe(xml);
      return Buffer.from(forged).toString('base64');
    };

    it('takes the request answered from the signed assertion: an envelope naming another request is refused', async () => {
      const mine = await login();
      const victim = await login();
      // A signed answer to one request, its envelope pointed at another browser's request.
      const answer = await respond({ nameId: 'mallory', groups: ['it'], inResponseTo: mine.requestId });
      expect((await post(withEnvelope(answer, victim.requestId))).headers.location).toBe(failed);
      // An unsolicited signed answer, its envelope naming an open request.
      const unsolicited = await respond({ nameId: 'mallory', groups: ['it'], inResponseTo: null });
      expect((await post(withEnvelope(unsolicited, victim.requestId))).headers.location).toBe(failed);
      expect(await t.app.db.kysely.selectFrom('user_account').select('name').execute()).toEqual([]);

      // The signed assertion alone is enough: an envelope without InResponseTo changes nothing.
      const res = await post(withEnvelope(answer, null));
      expect((await redeem(res.headers.location, mine.binding)).json()).toMatchObject({ user: 'mallory' });
    });

    it('refuses an assertion confirmed for another recipient than our assertion consumer', async () => {
      const { requestId } = await login();
      for (const recipient of ['https://elsewhere.example.org/acs', `${PORTAL}${API}sso/saml/other/acs`]) {
        const res = await post(await respond({ nameId: 'eve', groups: ['staff'], recipient, inResponseTo: requestId }));
        expect(res.headers.location, recipient).toBe(failed);
      }
      expect(await t.app.db.kysely.selectFrom('user_account').select('name').execute()).toEqual([]);
    });

    it('refuses a tampered assertion, another audience and an unsigned assertion', async () => {
      const { requestId } = await login();
      const good = Buffer.from(
        await respond({ nameId: 'eve', groups: ['staff'], inResponseTo: requestId }),
        'base64',
      ).toString('utf8');
      const tampered = Buffer.from(good.replace('>staff<', '>it<')).toString('base64');
      const answers = [
        tampered,
        await respond({
          nameId: 'eve',
          groups: ['staff'],
          audience: 'https://elsewhere.example.org',
          inResponseTo: requestId,
        }),
        await respond({ nameId: 'eve', groups: ['staff'], signAssertion: false, inResponseTo: requestId }),
        'bm90IHhtbA==',
      ];
      for (const answer of answers) {
        const res = await post(answer);
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toBe(`${PORTAL}/#/login?sso=failed`);
      }
      expect(await t.app.db.kysely.selectFrom('user_account').select('name').execute()).toEqual([]);
    });
  },
);

describe.each(dialects)('SAML login starts per client address on %s (settings rateLimits.ssoLogins)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    const settings = {
      sso: { saml: [{ name: 'corp', entryPoint: 'https://idp.example.org/sso', idpCert: makeCertificate().cert }] },
      rateLimits: { ssoLogins: { max: 3, minutes: 10, burst: 2 } },
    };
    t = await startTestApp({ dialect, settings, env: { PUBLIC_URL: PORTAL } });
  });
  afterAll(async () => t.close());

  const start = (remoteAddress: string) => t.app.inject({ url: `${API}sso/saml/corp/login`, remoteAddress });
  const requests = async () =>
    Number(
      (
        await t.app.db.kysely
          .selectFrom('saml_request')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses starts beyond the burst with 429 rate_limited and stores no request for them; other clients start', async () => {
    expect((await start('192.0.2.1')).statusCode).toBe(302);
    expect((await start('192.0.2.1')).statusCode).toBe(302);
    const refused = await start('192.0.2.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'rate_limited', message: expect.stringMatching(/logins started/) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await requests()).toBe(2);
    expect((await start('192.0.2.2')).statusCode).toBe(302);
    expect(await requests()).toBe(3);
  });

  it('answers an unknown provider with 404 without counting it', async () => {
    const res = await t.app.inject({ url: `${API}sso/saml/nobody/login`, remoteAddress: '192.0.2.3' });
    expect(res.statusCode).toBe(404);
    expect((await start('192.0.2.3')).statusCode).toBe(302);
    expect((await start('192.0.2.3')).statusCode).toBe(302);
  });
});
