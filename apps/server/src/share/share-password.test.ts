import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, startTestApp, type TestApp } from '../../test/app.ts';
import { signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAssets } from '../../test/factories.ts';
import { passwordWork } from '../adapters/password.ts';

const API = '/assetportal/api/';
const PASSWORD = 'open sesame';

const settings = {
  shareLinks: { groups: ['users'] },
  login: { maxFailures: 3, maxFailuresPerClient: 8, maxDelaySeconds: 0.01 },
  // Links are opened many times from few addresses here; that limit has its own tests (rate-limits.test.ts).
  rateLimits: { shareOpens: { burst: null } },
};

/**
 * A share link's password (docs/security.md "Failed logins and share-link passwords"): wrong ones
 * block the address that sent them for that link, never the link for its other recipients.
 */
describe.each(dialects)('share-link passwords on %s', (dialect) => {
  let t: TestApp;
  let alice: Record<string, string>;
  let assetId: string;
  beforeAll(async () => {
    t = await startTestApp({ dialect, settings });
    const [id] = await buildAssets(t.app.db, [{ filename: 'press.jpg', access: ['users'] }]);
    assetId = String(id);
    alice = (await signIn(t, { groups: ['users'] })).headers;
  }, 60_000);
  afterAll(async () => t.close());

  const newLink = async () => {
    const res = await apiCaller(t)('POST', 'share/create', alice, { assetIds: [assetId], password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ token: string }>().token;
  };
  const open = (token: string, password: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: `${API}share/open`,
      headers: xsrfHeaders,
      payload: { token, password },
      remoteAddress,
    });

  it('blocks the address that sent wrong passwords, while another recipient opens the link with the right one', async () => {
    const token = await newLink();
    for (let i = 0; i < 3; i++) {
      const wrong = await open(token, `guess ${i}`, '203.0.113.66');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ error: 'wrong_share_password' });
    }
    const blocked = await open(token, PASSWORD, '203.0.113.66');
    expect(blocked.statusCode).toBe(401);
    expect(blocked.json()).toEqual({
      error: 'login_blocked',
      message: 'You have had too many failed login attempts. No further login attempts possible for 15 minutes.',
      retryAfterMinutes: 15,
    });
    expect(blocked.headers['retry-after']).toBe('900');

    const recipient = await open(token, PASSWORD, '192.0.2.10');
    expect(recipient.statusCode, recipient.body).toBe(200);
    expect(recipient.json()).toMatchObject({ session: { shareVisit: true }, share: { assetIds: [assetId] } });
    expect((await open(token, PASSWORD, '203.0.113.66')).json()).toMatchObject({ error: 'login_blocked' });
  });

  it('only slows a link that many addresses send wrong passwords for: a recipient still opens it', async () => {
    const token = await newLink();
    for (let i = 0; i < 4; i++) {
      for (let j = 0; j < 2; j++) {
        expect((await open(token, 'guess', `198.51.100.${i + 1}`)).json()).toMatchObject({
          error: 'wrong_share_password',
        });
      }
    }
    expect((await open(token, PASSWORD, '192.0.2.20')).statusCode).toBe(200);
    expect((await open(token, PASSWORD, '198.51.100.1')).statusCode).toBe(200);
  });

  it("counts wrong passwords of any links against the address's budget with failed logins", async () => {
    const [first, second] = [await newLink(), await newLink()];
    const client = '203.0.113.77';
    const login = (user: string) =>
      t.app.inject({
        method: 'POST',
        url: `${API}session/get`,
        payload: { user, pass: 'guess' },
        remoteAddress: client,
      });
    // The budget is 8: 2 + 2 wrong passwords and 4 failed logins for other names.
    for (const token of [first, second])
      for (let i = 0; i < 2; i++)
        expect((await open(token, 'guess', client)).json().error).toBe('wrong_share_password');
    for (let i = 0; i < 4; i++) expect((await login(`name${i}`)).json().error).toBe('wrong_credentials');
    expect((await open(first, PASSWORD, client)).json()).toMatchObject({ error: 'login_blocked' });
    expect((await open(first, PASSWORD, '192.0.2.30')).statusCode).toBe(200);
  });
});

describe('a new share-link password while passwords are being checked (docs/security.md "What is rate-limited")', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ settings });
  });
  afterAll(async () => t.close());

  it('is hashed in turn with them: with all slots taken and 64 waiting, 429 rate_limited, then made', async () => {
    const [id] = await buildAssets(t.app.db, [{ filename: 'press.jpg', access: ['users'] }]);
    const { headers } = await signIn(t, { groups: ['users'] });
    const create = () => apiCaller(t)('POST', 'share/create', headers, { assetIds: [String(id)], password: PASSWORD });
    let free = () => undefined as void;
    const freed = new Promise<void>((resolve) => (free = resolve));
    // Two checks running and 64 waiting, as a flood of logins leaves them.
    const held = Array.from({ length: 66 }, () => passwordWork.run(() => freed));
    const refused = await create();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'rate_limited' });
    expect(refused.headers['retry-after']).toBe('5');
    free();
    await Promise.all(held);
    const made = await create();
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ share: { hasPassword: true } });
  });
});
