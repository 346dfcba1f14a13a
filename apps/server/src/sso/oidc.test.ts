import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { TestBrowser } from '../../test/browser.ts';
import { dialects } from '../../test/databases.ts';

const API = '/assetportal/api/';
const PORTAL = 'http://127.0.0.1:9';
const CALLBACK = `${PORTAL}${API}sso/oidc/corp/callback`;

/** The account the test identity provider logs in without asking, with its groups claim. */
let account = { sub: 'u-1001', preferred_username: 'alice', email: 'alice@example.org', groups: ['staff'] };

/** A real OpenID Connect provider (oidc-provider) on loopback that logs `account` in without asking. */
async function startIdp(): Promise<{ issuer: string; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'vitrine',
        client_secret: 'vitrine-secret',
        redirect_uris: [CALLBACK],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username', 'groups'], email: ['email'] },
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ ...account, sub: id }) }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['test-cookie-key'] },
  });
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void provider.callback()(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        await provider.interactionFinished(req, res, { login: { accountId: account.sub } });
        return;
      }
      const grant = new provider.Grant({ accountId: account.sub, clientId: 'vitrine' });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    })();
  });
  return { issuer, server };
}

describe.each(dialects)(
  'OpenID Connect login against a real provider on %s (portal-spec §3 "User session" login methods)',
  (dialect) => {
    let idp: Awaited<ReturnType<typeof startIdp>>;
    let t: TestApp;
    beforeAll(async () => {
      idp = await startIdp();
    });
    afterAll(async () => new Promise<void>((resolve) => idp.server.close(() => resolve())));
    beforeEach(async () => {
      const settings = {
        sso: {
          oidc: [
            {
              name: 'corp',
              issuer: idp.issuer,
              clientId: 'vitrine',
              clientSecret: 'vitrine-secret',
              groupMap: { staff: 'users', it: ['admins'] },
            },
          ],
        },
      };
      t = await startTestApp({ dialect, settings, env: { PUBLIC_URL: PORTAL } });
    });
    afterEach(async () => t.close());

    /** Starts the login at the portal and lets the provider answer; gives the callback, our cookie and the binding. */
    async function authorize(): Promise<{ callback: string; cookie: string; binding: string }> {
      const start = await t.app.inject({ url: `${API}sso/oidc/corp/login` });
      expect(start.statusCode).toBe(302);
      const location = start.headers.location as string;
      expect(location).toMatch(new RegExp(`^${idp.issuer}/auth\\?`));
      const params = new URL(location).searchParams;
      expect(params.get('code_challenge_method')).toBe('S256');
      expect(params.get('state')).toBeTruthy();
      expect(params.get('nonce')).toBeTruthy();
      const pending = start.cookies.find((c) => c.name === 'vitrine_sso');
      expect(pending).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
      const binding = start.cookies.find((c) => c.name === 'vitrine_sso_bind');
      expect(binding).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: API });
      const callback = await new TestBrowser().follow(location, CALLBACK);
      if (typeof callback !== 'string') throw new Error(`The provider did not return: ${callback.status}`);
      return {
        callback,
        cookie: `vitrine_sso=${pending?.value ?? ''}`,
        binding: `vitrine_sso_bind=${binding?.value ?? ''}`,
      };
    }

    const finish = (callback: string, cookie: string) =>
      t.app.inject({ url: callback.slice(PORTAL.length), headers: { cookie } });

    /** The one-time code the portal sent the browser back with. */
    const codeOf = (location: unknown): string => {
      const code = /#\/login\?code=([\w-]+)$/.exec(String(location))?.[1];
      if (!code) throw new Error(`No code in ${String(location)}`);
      return code;
    };

    /** The web app's exchange of the code for a session, with the cookies the browser holds. */
    const redeem = (code: string, cookie: string) =>
      t.app.inject({ method: 'POST', url: `${API}session/get`, headers: { cookie }, payload: { code } });

    it('logs in through the provider, creates the account just in time and maps its groups', async () => {
      const { callback, cookie, binding } = await authorize();
      const done = await finish(callback, cookie);
      expect(done.statusCode).toBe(302);
      const session = await redeem(codeOf(done.headers.location), binding);
      expect(session.statusCode).toBe(200);
      expect(session.json()).toMatchObject({ user: 'alice', isAssetUser: true, isGuiAdmin: false });
      const token = session.json<{ session: string }>().session;
      const reused = await t.app.inject({
        method: 'POST',
        url: `${API}session/get`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(reused.json()).toMatchObject({ user: 'alice', session: token });
      const user = await t.app.db.kysely
        .selectFrom('user_account')
        .select(['auth_source', 'external_id', 'email', 'password_hash'])
        .where('name', '=', 'alice')
        .executeTakeFirstOrThrow();
      expect(user).toEqual({
        auth_source: 'oidc:corp',
        external_id: 'u-1001',
        email: 'alice@example.org',
        password_hash: null,
      });

      // The provider's groups decide again at the next login.
      account = { ...account, groups: ['it'] };
      const again = await authorize();
      const next = await finish(again.callback, again.cookie);
      const admin = await redeem(codeOf(next.headers.location), again.binding);
      expect(admin.json()).toMatchObject({ user: 'alice', isGuiAdmin: true });
      account = { ...account, groups: ['staff'] };
    });

    it('hands over a one-time code, never a session token: single use, only in the browser that started the login (portal-spec §7 "POST session/get")', async () => {
      const { callback, cookie, binding } = await authorize();
      const done = await finish(callback, cookie);
      const location = String(done.headers.location);
      expect(location).not.toMatch(/token=/);
      const code = codeOf(location);
      // The code is stored only as a hash.
      const stored = await t.app.db.kysely.selectFrom('sso_code').select('id').execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]?.id).not.toBe(code);

      // Another browser (an attacker's link opened by a victim) holds no binding cookie, or another one.
      const other = await authorize();
      for (const wrong of ['', other.binding]) {
        const res = await redeem(code, wrong);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ error: 'unauthorized' });
      }
      // A code is used up by its first presentation, even a refused one.
      const late = await redeem(code, binding);
      expect(late.statusCode).toBe(401);

      const fresh = await authorize();
      const freshCode = codeOf((await finish(fresh.callback, fresh.cookie)).headers.location);
      const first = await redeem(freshCode, fresh.binding);
      expect(first.json()).toMatchObject({ user: 'alice' });
      expect(first.cookies.find((c) => c.name === 'vitrine_sso_bind')?.value).toBe('');
      const second = await redeem(freshCode, fresh.binding);
      expect(second.statusCode).toBe(401);

      // An expired code opens nothing.
      const slow = await authorize();
      const slowCode = codeOf((await finish(slow.callback, slow.cookie)).headers.location);
      await t.app.db.kysely
        .updateTable('sso_code')
        .set({ expires_at: Date.now() - 1 })
        .execute();
      expect((await redeem(slowCode, slow.binding)).statusCode).toBe(401);

      // A session token in the query string is not accepted anywhere.
      const token = first.json<{ session: string }>().session;
      const byQuery = await t.app.inject({ method: 'POST', url: `${API}session/get?token=${token}` });
      expect(byQuery.json()).toMatchObject({ user: null });
      expect(byQuery.json().session).not.toBe(token);
      const checkByQuery = await t.app.inject({ url: `${API}session/check?token=${token}` });
      expect(checkByQuery.json()).toEqual({ isGuiAdmin: false, sessionValid: false });
    });

    it('keeps groups an admin gave by hand across logins, records the last login, and says when the account is disabled (issue #50)', async () => {
      const first = await authorize();
      const session = await redeem(
        codeOf((await finish(first.callback, first.cookie)).headers.location),
        first.binding,
      );
      expect(session.json()).toMatchObject({ user: 'alice', isGuiAdmin: false });
      const { id } = await t.app.db.kysely
        .selectFrom('user_account')
        .select('id')
        .where('name', '=', 'alice')
        .executeTakeFirstOrThrow();
      const groups = async () =>
        t.app.db.kysely
          .selectFrom('user_group')
          .select(['group_name', 'origin'])
          .where('user_id', '=', id)
          .orderBy('group_name')
          .execute();
      expect(await groups()).toEqual([{ group_name: 'users', origin: 'provider' }]);
      const last = await t.app.db.kysely
        .selectFrom('user_account')
        .select('last_login_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(Number(last.last_login_at)).toBeGreaterThan(Date.now() - 60_000);

      // An admin gives a group by hand; the next login maps the provider's groups anew and keeps it.
      await t.app.services.repositories.users.setGroups(id, ['admins']);
      account = { ...account, groups: [] };
      const again = await authorize();
      const admin = await redeem(codeOf((await finish(again.callback, again.cookie)).headers.location), again.binding);
      expect(admin.json()).toMatchObject({ user: 'alice', isGuiAdmin: true });
      expect(await groups()).toEqual([{ group_name: 'admins', origin: 'hand' }]);
      account = { ...account, groups: ['staff'] };

      await t.app.db.kysely.updateTable('user_account').set({ disabled: 1 }).where('id', '=', id).execute();
      const refused = await authorize();
      const done = await finish(refused.callback, refused.cookie);
      expect(done.headers.location).toBe(`${PORTAL}/#/login?sso=disabled`);
    });

    it('refuses an answer with a wrong state, or one for a login not started in this browser', async () => {
      const { callback, cookie } = await authorize();
      const wrongState = new URL(callback);
      wrongState.searchParams.set('state', 'forged-state');
      for (const [url, c] of [
        [wrongState.href, cookie],
        [callback, ''],
        [callback, `${cookie.slice(0, -2)}xx`],
      ] as const) {
        const res = await finish(url, c);
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe(`${PORTAL}/#/login?sso=failed`);
      }
      const accounts = await t.app.db.kysely.selectFrom('user_account').select('name').execute();
      expect(accounts).toEqual([]);
    });

    it('counts single sign-on logins for the statistics by outcome, never by account (issue #51)', async () => {
      const ok = await authorize();
      const done = await finish(ok.callback, ok.cookie);
      expect((await redeem(codeOf(done.headers.location), ok.binding)).statusCode).toBe(200);
      // Refused at the callback (a forged state), and a code presented by another browser.
      const forged = await authorize();
      const wrongState = new URL(forged.callback);
      wrongState.searchParams.set('state', 'forged-state');
      expect((await finish(wrongState.href, forged.cookie)).headers.location).toBe(`${PORTAL}/#/login?sso=failed`);
      const stolen = await authorize();
      const code = codeOf((await finish(stolen.callback, stolen.cookie)).headers.location);
      expect((await redeem(code, '')).statusCode).toBe(401);
      await t.app.services.insights.settled();
      const logins = await t.app.db.kysely
        .selectFrom('insight_event')
        .select(['audience', 'key'])
        .where('kind', '=', 'login')
        .orderBy('key')
        .execute();
      expect(logins).toEqual([
        { audience: 'guest', key: 'sso:failed' },
        { audience: 'guest', key: 'sso:failed' },
        { audience: 'account', key: 'sso:ok' },
      ]);
    });

    it('lists the provider among the login methods and answers 404 for an unknown one', async () => {
      const session = await t.app.inject({ method: 'POST', url: `${API}session/get` });
      expect(session.json().login).toEqual([
        { name: 'native', url: `${API}session/get` },
        { name: 'corp', url: `${API}sso/oidc/corp/login` },
      ]);
      const unknown = await t.app.inject({ url: `${API}sso/oidc/other/login` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ error: 'not_found' });
    });
  },
);
