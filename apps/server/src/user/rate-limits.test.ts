import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ConfigRepository } from '../config/config.repository.ts';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAsset } from '../../test/factories.ts';
import { addUser } from '../../test/users.ts';
import { ClientRateLimits } from './rate-limits.ts';

const API = '/assetportal/api/';

/**
 * The per-client limits of docs/security.md "What is rate-limited", driven over HTTP from given
 * client addresses, on both databases (the counts live there, shared by every process).
 */
describe.each(dialects)('per-client rate limits on %s (docs/security.md "What is rate-limited")', (dialect) => {
  let t: TestApp;
  let other: FastifyInstance | undefined;
  afterEach(async () => {
    await other?.close();
    other = undefined;
    await t.close();
  });

  const start = (settings: object, env: Record<string, string> = {}) =>
    startTestApp({ dialect, settings: { rateLimits: settings }, env }).then((app) => (t = app));

  const guestSession = (remoteAddress: string, app = t.app, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: `${API}session/get`, remoteAddress, headers });
  const search = (remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url: `${API}search?solr_q=tulip`, remoteAddress, headers });
  const suggest = (remoteAddress: string) => t.app.inject({ url: `${API}search/suggestions?text=tu`, remoteAddress });

  it('limits new guest sessions per client with 429 rate_limited and Retry-After; other clients go on', async () => {
    await start({ guestSessions: { max: 3, minutes: 10 } });
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await guestSession('192.0.2.1');
      expect(res.statusCode, res.body).toBe(200);
      tokens.push(res.json().session as string);
    }
    const refused = await guestSession('192.0.2.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'rate_limited' });
    expect(refused.json().message).toMatch(/Too many new sessions/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect((await t.app.db.kysely.selectFrom('session').select('id').execute()).length).toBe(3);

    // A session the client holds is reused without counting; another client gets a new one.
    const reuse = await guestSession('192.0.2.1', t.app, { authorization: `Bearer ${tokens[0]}` });
    expect(reuse.statusCode).toBe(200);
    expect(reuse.json().session).toBe(tokens[0]);
    expect((await guestSession('192.0.2.2')).statusCode).toBe(200);
  });

  it('refuses a client over its limit from memory: its refusals write nothing, other processes still count it', async () => {
    await start({ guestSessions: { max: 2, minutes: 10 } });
    const { repositories, settings } = t.app.services;
    const count = async () =>
      Number(
        (
          await t.app.db.kysely
            .selectFrom('login_attempt')
            .select('failures')
            .where('name', '=', 'guestSessions-client:192.0.2.4')
            .executeTakeFirstOrThrow()
        ).failures,
      );
    for (let i = 0; i < 2; i++) expect((await guestSession('192.0.2.4')).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      const refused = await guestSession('192.0.2.4');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
    }
    // The first refusal was counted in the database, the four after it were answered from memory.
    expect(await count()).toBe(3);
    // Another process learns the client is over its limit from the shared count.
    const other = new ClientRateLimits(repositories.loginThrottle, settings);
    await expect(other.take('guestSessions', '192.0.2.4')).rejects.toMatchObject({ id: 'rate_limited' });
    await expect(other.take('guestSessions', '192.0.2.4')).rejects.toMatchObject({ id: 'rate_limited' });
    expect(await count()).toBe(4);
  });

  it('spreads a window over time with a burst: a client cannot spend the whole budget in its first seconds', async () => {
    // 6 in 10 minutes with a burst of 2: 2 at once, then one every 100 s.
    await start({ guestSessions: { max: 6, minutes: 10, burst: 2 } });
    for (let i = 0; i < 2; i++) expect((await guestSession('192.0.2.5')).statusCode).toBe(200);
    const refused = await guestSession('192.0.2.5');
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(90);
    expect(retryAfter).toBeLessThanOrEqual(100);
    // Another client has its own burst.
    expect((await guestSession('192.0.2.6')).statusCode).toBe(200);
    // Another process sees the same budget: 100 s later one more is allowed, then none until 100 s after.
    const limits = new ClientRateLimits(t.app.services.repositories.loginThrottle, t.app.services.settings);
    const now = Date.now();
    await expect(limits.take('guestSessions', '192.0.2.5', now + 50_000)).rejects.toMatchObject({ id: 'rate_limited' });
    await limits.take('guestSessions', '192.0.2.5', now + 101_000);
    await expect(limits.take('guestSessions', '192.0.2.5', now + 102_000)).rejects.toMatchObject({
      id: 'rate_limited',
    });
    // A client quiet for long gets its whole burst back, no more.
    const limits2 = new ClientRateLimits(t.app.services.repositories.loginThrottle, t.app.services.settings);
    const much = now + 3_600_000;
    await limits2.take('guestSessions', '192.0.2.5', much);
    await limits2.take('guestSessions', '192.0.2.5', much);
    await expect(limits2.take('guestSessions', '192.0.2.5', much)).rejects.toMatchObject({ id: 'rate_limited' });
  });

  it('counts IPv6 clients by their /64, and an IPv4-mapped address as its IPv4 address', async () => {
    await start({ guestSessions: { max: 2, minutes: 10 } });
    expect((await guestSession('2001:db8:1:2::1')).statusCode).toBe(200);
    expect((await guestSession('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).statusCode).toBe(200);
    expect((await guestSession('2001:db8:1:2::ffff')).statusCode).toBe(429);
    expect((await guestSession('2001:db8:1:3::1')).statusCode).toBe(200);

    expect((await guestSession('192.0.2.9')).statusCode).toBe(200);
    expect((await guestSession('::ffff:192.0.2.9')).statusCode).toBe(200);
    expect((await guestSession('192.0.2.9')).statusCode).toBe(429);
  });

  it('counts failed logins of two IPv6 addresses in one /64 as one client', async () => {
    t = await startTestApp({ dialect, settings: { login: { maxFailures: 50, maxFailuresPerClient: 2 } } });
    await addUser(t, { name: 'anna', password: 'correct horse', groups: ['users'] });
    const login = (pass: string, remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: `${API}session/get`, payload: { user: 'anna', pass }, remoteAddress });
    for (let i = 0; i < 2; i++) {
      const res = await login(`wrong${i}`, `2001:db8:5:6::${i + 1}`);
      expect(res.json().error).toBe('wrong_credentials');
    }
    expect((await login('correct horse', '2001:db8:5:6:ffff::1')).json()).toMatchObject({ error: 'login_blocked' });
    expect((await login('correct horse', '2001:db8:5:7::1')).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For from a peer TRUST_PROXY does not name, and believes the named proxy', async () => {
    await start({ guestSessions: { max: 2, minutes: 10 } }, { TRUST_PROXY: '10.0.0.0/24' });
    const forwarded = (peer: string, client: string) => guestSession(peer, t.app, { 'x-forwarded-for': client });
    // Not a trusted proxy: each claimed address is ignored, all count on the peer.
    expect((await forwarded('192.0.2.7', '203.0.113.1')).statusCode).toBe(200);
    expect((await forwarded('192.0.2.7', '203.0.113.2')).statusCode).toBe(200);
    expect((await forwarded('192.0.2.7', '203.0.113.3')).statusCode).toBe(429);
    // The proxy: the clients it names count apart, each on its own address.
    for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      expect((await forwarded('10.0.0.5', client)).statusCode, client).toBe(200);
      expect((await forwarded('10.0.0.5', client)).statusCode, client).toBe(200);
    }
    expect((await forwarded('10.0.0.5', '203.0.113.1')).statusCode).toBe(429);
  });

  it('counts one client across server processes sharing the database', async () => {
    await start({ guestSessions: { max: 2, minutes: 10 } });
    other = await buildApp(t.settings, { logger: false });
    expect((await guestSession('198.51.100.4', t.app)).statusCode).toBe(200);
    expect((await guestSession('198.51.100.4', other)).statusCode).toBe(200);
    expect((await guestSession('198.51.100.4', t.app)).statusCode).toBe(429);
    expect((await guestSession('198.51.100.4', other)).statusCode).toBe(429);
  });

  it('limits opening share links per client, whatever the token, before any link is looked up', async () => {
    await start({ shareOpens: { max: 2, minutes: 10 } });
    const open = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: `${API}share/open`,
        headers: xsrfHeaders,
        remoteAddress,
        payload: { token: 'a'.repeat(43), password: 'guessing' },
      });
    expect((await open('192.0.2.1')).statusCode).toBe(404);
    expect((await open('192.0.2.1')).statusCode).toBe(404);
    const refused = await open('192.0.2.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'rate_limited' });
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await open('192.0.2.2')).statusCode).toBe(404);
  });

  it('limits searches and suggestions of callers without an account per client, not those of accounts', async () => {
    await start({ search: { max: 3, minutes: 10 } });
    await buildAsset(t.app.db, { filename: 'tulip.jpg', access: ['public', 'users'], values: { creator: 'Tulip' } });
    expect((await search('192.0.2.1')).statusCode).toBe(200);
    expect((await suggest('192.0.2.1')).statusCode).toBe(200);
    expect((await search('192.0.2.1')).statusCode).toBe(200);
    const refused = await suggest('192.0.2.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'rate_limited' });
    expect((await search('192.0.2.1')).statusCode).toBe(429);
    expect((await search('192.0.2.2')).statusCode).toBe(200);

    const { headers } = await signIn(t, { groups: ['users'] });
    for (let i = 0; i < 5; i++) expect((await search('192.0.2.1', headers)).statusCode).toBe(200);
  });

  it("counts searches of two processes together, folding each one's count in the background", async () => {
    await start({ search: { max: 4, minutes: 10 } });
    const { repositories, settings } = t.app.services;
    const one = new ClientRateLimits(repositories.loginThrottle, settings);
    const two = new ClientRateLimits(repositories.loginThrottle, settings);
    for (let i = 0; i < 3; i++) await one.take('search', '192.0.2.9');
    await one.settle();
    await two.take('search', '192.0.2.9');
    await two.settle();
    // The other process's three searches are known after the fold: the fifth is refused.
    await expect(two.take('search', '192.0.2.9')).rejects.toMatchObject({ id: 'rate_limited' });
    const row = await t.app.db.kysely
      .selectFrom('login_attempt')
      .select('failures')
      .where('name', '=', 'search-client:192.0.2.9')
      .executeTakeFirstOrThrow();
    expect(Number(row.failures)).toBe(4);
  });

  it('answers a search without waiting for its count to be written', async () => {
    await start({ search: { max: 2, minutes: 10 } });
    const { repositories, settings } = t.app.services;
    const writes: string[] = [];
    // A database that takes its time (a bulk import holding SQLite's write lock): the write never ends here.
    const stalled = Object.assign(Object.create(repositories.loginThrottle) as typeof repositories.loginThrottle, {
      add: (key: string) => {
        writes.push(key);
        return new Promise<never>(() => undefined);
      },
    });
    const limits = new ClientRateLimits(stalled, settings);
    await limits.take('search', '192.0.2.7');
    await limits.take('search', '192.0.2.7');
    expect(writes).toEqual(['search-client:192.0.2.7']);
    await expect(limits.take('search', '192.0.2.7')).rejects.toMatchObject({ id: 'rate_limited' });
  });

  it('limits order mails per client', async () => {
    await start({ orders: { max: 1, minutes: 60 } });
    await new ConfigRepository(t.app.db).put('global', '', { global: { run_order_process: true } });
    const id = await buildAsset(t.app.db, { filename: 'order.jpg', access: ['users'] });
    const { headers } = await signIn(t, { groups: ['users'] });
    const order = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: `${API}download/order`,
        headers,
        remoteAddress,
        payload: { id: [String(id)], message: 'For the report' },
      });
    expect((await order('192.0.2.1')).statusCode).toBe(200);
    const refused = await order('192.0.2.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'rate_limited' });
    expect((await order('192.0.2.2')).statusCode).toBe(200);
  });

  it('forgets a count when its window has passed', async () => {
    await start({});
    const throttle = t.app.services.repositories.loginThrottle;
    const now = Date.now();
    expect(await throttle.hit('probe', now, 1, 60_000)).toBeUndefined();
    expect(await throttle.hit('probe', now + 1_000, 1, 60_000)).toBe(now + 60_000);
    expect(await throttle.hit('probe', now + 60_000, 1, 60_000)).toBeUndefined();
  });
});
