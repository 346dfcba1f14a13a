import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { addUser } from '../../test/users.ts';
import { hashToken } from '../auth/tokens.ts';
import { accountKey, pairKey } from '../user/login-throttle.repository.ts';

const API = '/assetportal/api/';
describe.each(dialects)('session calls on %s (portal-spec §7 "Calls", §4 "Login")', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({ dialect });
    await addUser(t, { name: 'anna', password: 'correct horse', groups: ['users'] });
  });
  afterEach(async () => t.close());

  const login = (body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${API}session/get`, payload: body as object, headers });

  it('opens a guest session without credentials and lists the login methods', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${API}session/get` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ user: null, isAssetUser: true, isGuiAdmin: false, workspace: null });
    expect(body.session).toMatch(/^[\w-]{43}$/);
    expect(body.login).toEqual([{ name: 'native', url: `${API}session/get` }]);
    expect(res.cookies.find((c) => c.name === 'XSRF-TOKEN')).toMatchObject({ sameSite: 'Strict', path: '/' });
  });

  it('logs in with correct credentials, case-insensitive name, and revokes the token it replaces', async () => {
    const guest = (await t.app.inject({ method: 'POST', url: `${API}session/get` })).json<{ session: string }>();
    const res = await login({ user: 'ANNA', pass: 'correct horse' }, { authorization: `Bearer ${guest.session}` });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ session: string }>();
    expect(body).toMatchObject({ user: 'anna', isAssetUser: true, isGuiAdmin: false });
    expect(body.session).not.toBe(guest.session);
    const old = await t.app.inject({
      url: `${API}session/check`,
      headers: { authorization: `Bearer ${guest.session}` },
    });
    expect(old.json()).toEqual({ isGuiAdmin: false, sessionValid: false });
  });

  it('reuses a still valid session when called without credentials; a token in the query string opens nothing', async () => {
    const { session } = (await login({ user: 'anna', pass: 'correct horse' })).json<{ session: string }>();
    const reuse = await login({}, { authorization: `Bearer ${session}` });
    expect(reuse.json()).toMatchObject({ user: 'anna', session });
    const byQuery = await t.app.inject({ method: 'POST', url: `${API}session/get?token=${session}` });
    expect(byQuery.json()).toMatchObject({ user: null });
    const bad = await login({ code: 'nonsense' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ error: 'unauthorized' });
    const both = await login({ user: 'anna', pass: 'correct horse', code: 'nonsense' });
    expect(both.statusCode).toBe(400);
  });

  it('answers a wrong password or unknown user alike with 401 wrong_credentials', async () => {
    for (const body of [
      { user: 'anna', pass: 'wrong' },
      { user: 'nobody', pass: 'wrong' },
    ]) {
      const res = await login(body);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'wrong_credentials', message: 'Incorrect username or password' });
    }
  });

  it('refuses bad input with 400 validation: missing fields, wrong types, oversized fields', async () => {
    for (const body of [
      { user: 'anna' },
      { pass: 'x' },
      { user: 5, pass: 'x' },
      { user: 'a'.repeat(300), pass: 'x' },
    ]) {
      const res = await login(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation' });
    }
    const huge = await t.app.inject({
      method: 'POST',
      url: `${API}session/get`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ user: 'anna', pass: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ error: 'payload_too_large' });
  });

  it('blocks the address for a name after 5 failures, even for the right password, and unblocks after the time', async () => {
    for (let i = 0; i < 5; i++)
      expect((await login({ user: 'anna', pass: `nope${i}` })).json().error).toBe('wrong_credentials');
    const blocked = await login({ user: 'anna', pass: 'correct horse' });
    expect(blocked.statusCode).toBe(401);
    expect(blocked.json()).toEqual({
      error: 'login_blocked',
      message: 'You have had too many failed login attempts. No further login attempts possible for 15 minutes.',
      retryAfterMinutes: 15,
    });
    expect(blocked.headers['retry-after']).toBe('900');

    // The block ends: move it into the past as time would.
    await t.app.db.kysely
      .updateTable('login_attempt')
      .set({ blocked_until: Date.now() - 1 })
      .execute();
    const ok = await login({ user: 'anna', pass: 'correct horse' });
    expect(ok.statusCode).toBe(200);
    expect(await t.app.db.kysely.selectFrom('login_attempt').selectAll().execute()).toEqual([]);
  });

  it("says 'one minute' when less than a minute of the block remains", async () => {
    await t.app.db.kysely
      .insertInto('login_attempt')
      .values({
        name: pairKey('127.0.0.1', accountKey('anna')),
        subject: accountKey('anna'),
        failures: 0,
        blocked_until: Date.now() + 20_000,
        updated_at: Date.now(),
      })
      .execute();
    const res = await login({ user: 'anna', pass: 'correct horse' });
    expect(res.json()).toMatchObject({ error: 'login_blocked', retryAfterMinutes: 1 });
    expect(res.json().message).toMatch(/possible for one minute\.$/);
  });

  it('refuses a disabled account with account_disabled, said only to whoever gave its password', async () => {
    await t.app.db.kysely.updateTable('user_account').set({ disabled: 1 }).where('name', '=', 'anna').execute();
    expect((await login({ user: 'anna', pass: 'wrong horse' })).json().error).toBe('wrong_credentials');
    const refused = await login({ user: 'anna', pass: 'correct horse' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'account_disabled' });
    expect(refused.json().message).toMatch(/disabled/);
  });

  it('checks the session: valid, expired by idle time, and revoked by logout', async () => {
    const { token, headers } = await signIn(t, { groups: ['admins'] });
    const check = () => t.app.inject({ url: `${API}session/check`, headers });
    expect((await check()).json()).toEqual({ isGuiAdmin: true, sessionValid: true });

    await t.app.db.kysely
      .updateTable('session')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', hashToken(token))
      .execute();
    expect((await check()).json()).toEqual({ isGuiAdmin: false, sessionValid: false });

    const second = await signIn(t, { groups: ['users'] });
    const out = await t.app.inject({ url: `${API}session/logout`, headers: second.headers });
    expect(out.json()).toEqual({ ok: true });
    const after = await t.app.inject({ url: `${API}session/check`, headers: second.headers });
    expect(after.json()).toEqual({ isGuiAdmin: false, sessionValid: false });
    const locale = await t.app.inject({ url: `${API}session/set_locale?locale=en`, headers: second.headers });
    expect(locale.statusCode).toBe(401);
  });

  it('slides the expiry of a session forward when it is used', async () => {
    const { token, headers } = await signIn(t, { groups: ['users'] });
    const soon = Date.now() + 60 * 60_000;
    await t.app.db.kysely.updateTable('session').set({ expires_at: soon }).where('id', '=', hashToken(token)).execute();
    await t.app.inject({ url: `${API}session/check`, headers });
    const row = await t.app.db.kysely
      .selectFrom('session')
      .select('expires_at')
      .where('id', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    expect(row.expires_at).toBeGreaterThan(soon + 24 * 3600_000);
  });

  it('stores the locale on the session and the account', async () => {
    const { userId, headers } = await signIn(t, { groups: ['users'] });
    const res = await t.app.inject({ url: `${API}session/set_locale?locale=en`, headers });
    expect(res.json()).toEqual({ locale: 'en' });
    const user = await t.app.db.kysely
      .selectFrom('user_account')
      .select('locale')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(user.locale).toBe('en');
    expect((await t.app.inject({ url: `${API}session/set_locale?locale=english`, headers })).statusCode).toBe(400);
  });

  it('refuses state-changing calls without a matching XSRF cookie and header (403 xsrf)', async () => {
    const payload = { user: 'anna' };
    const post = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: `${API}user/forgot-password`, payload, headers });
    const attempts: Record<string, string>[] = [
      {},
      { cookie: 'XSRF-TOKEN=abc' },
      { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abd' },
    ];
    for (const headers of attempts) {
      const res = await post(headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'xsrf' });
    }
    expect((await post(xsrfHeaders)).statusCode).toBe(200);
  });
});
