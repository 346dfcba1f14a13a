import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { dialects } from '../../test/databases.ts';
import { addUser } from '../../test/users.ts';

const API = '/assetportal/api/';

describe.each(dialects)('login throttling and account names on %s (portal-spec §4 "Login")', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({
      dialect,
      settings: { login: { maxFailures: 5, maxFailuresPerClient: 12, maxDelaySeconds: 0.01 } },
    });
    await addUser(t, { name: 'anna', password: 'correct horse', groups: ['users'] });
  });
  afterEach(async () => t.close());

  const login = (body: object, client = '192.0.2.1') =>
    t.app.inject({ method: 'POST', url: `${API}session/get`, payload: body, remoteAddress: client });

  it('evaluates at most the configured number of 50 concurrent wrong logins from one address; the owner elsewhere logs in', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => login({ user: 'anna', pass: `wrong${i}` }, '198.51.100.1')),
    );
    const errors = answers.map((r) => r.json<{ error: string }>().error);
    expect(errors.filter((e) => e === 'wrong_credentials').length).toBeLessThanOrEqual(5);
    expect(errors.filter((e) => e === 'login_blocked').length).toBeGreaterThanOrEqual(45);
    expect(errors.every((e) => e === 'wrong_credentials' || e === 'login_blocked')).toBe(true);
    // That address stays blocked, even for the right password; the owner's own does not.
    expect((await login({ user: 'anna', pass: 'correct horse' }, '198.51.100.1')).json()).toMatchObject({
      error: 'login_blocked',
    });
    expect((await login({ user: 'anna', pass: 'correct horse' })).statusCode).toBe(200);
  });

  it("lets the owner log in from another address after five wrong passwords from one, which gets the spec's notice", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await login({ user: 'anna', pass: `wrong${i}` }, '203.0.113.66')).json().error).toBe('wrong_credentials');
    }
    const blocked = await login({ user: 'anna', pass: 'correct horse' }, '203.0.113.66');
    expect(blocked.statusCode).toBe(401);
    expect(blocked.json()).toEqual({
      error: 'login_blocked',
      message: 'You have had too many failed login attempts. No further login attempts possible for 15 minutes.',
      retryAfterMinutes: 15,
    });
    expect(blocked.headers['retry-after']).toBe('900');
    const owner = await login({ user: 'anna', pass: 'correct horse' }, '192.0.2.1');
    expect(owner.statusCode).toBe(200);
    expect(owner.json()).toMatchObject({ user: 'anna' });
    // The owner's login does not lift the block of the other address.
    expect((await login({ user: 'anna', pass: 'correct horse' }, '203.0.113.66')).json().error).toBe('login_blocked');
  });

  it('only slows an account that many addresses fail on: its owner still logs in, and no address is blocked early', async () => {
    for (let i = 0; i < 4; i++) {
      for (let j = 0; j < 2; j++) {
        expect((await login({ user: 'anna', pass: 'guess' }, `198.51.100.${i + 1}`)).json().error).toBe(
          'wrong_credentials',
        );
      }
    }
    expect((await login({ user: 'anna', pass: 'correct horse' })).statusCode).toBe(200);
    expect((await login({ user: 'anna', pass: 'correct horse' }, '198.51.100.1')).statusCode).toBe(200);
  });

  it("lifts every address's block on an account when it gets a new password", async () => {
    for (const client of ['203.0.113.1', '203.0.113.2'])
      for (let i = 0; i < 5; i++)
        expect((await login({ user: 'anna', pass: 'guess' }, client)).json().error).toBe('wrong_credentials');
    expect((await login({ user: 'anna', pass: 'correct horse' }, '203.0.113.1')).json().error).toBe('login_blocked');
    await t.app.services.users.passwd('anna', 'battery staple');
    for (const client of ['203.0.113.1', '203.0.113.2'])
      expect((await login({ user: 'anna', pass: 'battery staple' }, client)).statusCode).toBe(200);
  });

  it('counts failures for any names against the address: twelve spread over four names block it for all', async () => {
    for (let i = 0; i < 12; i++) {
      const user = i % 4 === 0 ? 'anna' : `name${i % 4}`;
      expect((await login({ user, pass: 'guess' })).json().error).toBe('wrong_credentials');
    }
    // Three failures on anna from here are below the count per name; the address's budget is spent.
    expect((await login({ user: 'anna', pass: 'correct horse' })).json()).toMatchObject({ error: 'login_blocked' });
    expect((await login({ user: 'name1', pass: 'guess' })).json()).toMatchObject({ error: 'login_blocked' });
    expect((await login({ user: 'anna', pass: 'correct horse' }, '203.0.113.9')).statusCode).toBe(200);
  });

  it('blocks a client that tries many names, while the account stays open to other clients', async () => {
    for (let i = 0; i < 12; i++) {
      expect((await login({ user: `name${i}`, pass: 'guess' })).json().error).toBe('wrong_credentials');
    }
    expect((await login({ user: 'anna', pass: 'correct horse' })).json()).toMatchObject({ error: 'login_blocked' });
    expect((await login({ user: 'anna', pass: 'correct horse' }, '203.0.113.9')).statusCode).toBe(200);
  });

  it('does not take the client address from X-Forwarded-For unless TRUST_PROXY is set', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}session/get`,
        payload: { user: `name${i}`, pass: 'guess' },
        remoteAddress: '192.0.2.7',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
      expect(res.json().error).toBe('wrong_credentials');
    }
    expect((await login({ user: 'anna', pass: 'correct horse' }, '192.0.2.7')).json()).toMatchObject({
      error: 'login_blocked',
    });
  });

  it('refuses a login body with unknown keys with 400 instead of opening a guest session', async () => {
    const res = await login({ name: 'anna', password: 'correct horse' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation' });
    expect((await login({ user: 'anna', pass: 'correct horse', extra: 1 })).statusCode).toBe(400);
  });

  it('logs in as Émile however the name is typed: composed, decomposed or in other case', async () => {
    await addUser(t, { name: 'Émile', password: 'correct horse', groups: ['users'] });
    for (const user of ['Émile', 'émile', 'E\u0301mile', 'ÉMILE']) {
      const res = await login({ user, pass: 'correct horse' });
      expect(res.statusCode, user).toBe(200);
      expect(res.json()).toMatchObject({ user: 'Émile' });
    }
  });

  it('counts failures for one account across the spellings of its name', async () => {
    await addUser(t, { name: 'Straße', password: 'correct horse', groups: ['users'] });
    for (const user of ['Straße', 'STRASSE', 'strasse', 'Strasse', 'straße']) {
      expect((await login({ user, pass: 'wrong' })).json().error).toBe('wrong_credentials');
    }
    expect((await login({ user: 'Straße', pass: 'correct horse' })).json()).toMatchObject({ error: 'login_blocked' });
  });

  it('refuses a second account whose name differs only in case or composition', async () => {
    await addUser(t, { name: 'Émile', password: 'correct horse', groups: ['users'] });
    await expect(
      addUser(t, { name: 'E\u0301MILE', password: 'correct horse', groups: ['users'] }),
    ).rejects.toMatchObject({ id: 'conflict' });
  });
});
