import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readPortalLink } from '@vitrine/contract/paths';
import { passwordWork } from '../adapters/password.ts';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { xsrfHeaders } from '../../test/auth.ts';
import { startSmtp } from '../../test/smtp.ts';
import { addUser } from '../../test/users.ts';

const API = '/assetportal/api/';

/** The text of a quoted-printable mail body, enough to find the link in it. */
const unquote = (mail: string) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
/** The token of a mail's reset link, read as the web app reads the link. */
const tokenIn = (mail: string) => {
  const link = /https?:\/\/\S+/.exec(unquote(mail))?.[0];
  const route = link === undefined ? undefined : readPortalLink(link);
  return route?.page === 'resetPassword' ? route.token : undefined;
};

describe('password reset (portal-spec §7 "POST user/forgot-password", §5 "Password reset")', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => smtp.close());
  afterEach(async () => t.close());

  const forgot = async (body: object, headers: Record<string, string> = {}, remoteAddress = '192.0.2.1') => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}user/forgot-password`,
      payload: body,
      headers: { ...xsrfHeaders, ...headers },
      remoteAddress,
    });
    // The mail goes out from a job: run the queue as the server's worker would.
    const worker = t.app.services.jobWorker({ concurrency: 1 });
    await worker.drain();
    await worker.stop();
    return res;
  };
  const reset = (body: object) =>
    t.app.inject({ method: 'POST', url: `${API}user/reset-password`, payload: body, headers: xsrfHeaders });
  const login = (user: string, pass: string) =>
    t.app.inject({ method: 'POST', url: `${API}session/get`, payload: { user, pass } });

  it("mails a link composed on the server in the user's language, never from the request", async () => {
    t = await startTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://portal.example.org' } });
    await addUser(t, { name: 'ben', password: 'old password', groups: ['users'], email: 'ben@example.org' });
    const before = smtp.mails.length;
    // A request can no longer bring its own text: unknown keys are refused.
    const phishing = await forgot(
      { user: 'ben', mail_subject: 'Click here', mail_body: 'Your account is locked: {link}' },
      { 'accept-language': 'de' },
    );
    expect(phishing.statusCode).toBe(400);
    expect(smtp.mails.length).toBe(before);
    const res = await forgot({ user: 'ben' }, { 'accept-language': 'de' });
    expect(res.json()).toEqual({ ok: true });

    expect(smtp.mails.length).toBe(before + 1);
    const mail = smtp.mails[before] ?? '';
    expect(mail).not.toContain('Click here');
    expect(unquote(mail)).not.toContain('locked');
    expect(mail).toMatch(/^Subject: =\?UTF-8\?Q\?Ihr_neues_Passwort_f=C3=BCr_das_/m);
    expect(mail).toMatch(/^To: ben@example\.org$/m);
    expect(unquote(mail)).toContain('https://portal.example.org/#/reset-password?token=');
    const token = tokenIn(mail);
    expect(token).toBeDefined();

    expect((await reset({ token, pass: 'short' })).json()).toMatchObject({ error: 'validation' });
    expect((await reset({ token, pass: 'brand new secret' })).json()).toEqual({ ok: true });
    expect((await login('ben', 'old password')).statusCode).toBe(401);
    expect((await login('ben', 'brand new secret')).statusCode).toBe(200);

    const again = await reset({ token, pass: 'another secret' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'link_invalid', details: [{ path: 'body.token' }] });
  });

  it('asks to try again (429) while too many passwords are being checked, and keeps the link usable', async () => {
    t = await startTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://portal.example.org' } });
    await addUser(t, { name: 'cleo', password: 'old password', groups: ['users'], email: 'cleo@example.org' });
    const before = smtp.mails.length;
    await forgot({ user: 'cleo' });
    const token = tokenIn(smtp.mails[before] ?? '');
    let free = () => undefined as void;
    const freed = new Promise<void>((resolve) => (free = resolve));
    // Two checks running and 64 waiting, as a flood of logins leaves them.
    const held = Array.from({ length: 66 }, () => passwordWork.run(() => freed));
    const busy = await reset({ token, pass: 'brand new secret' });
    free();
    await Promise.all(held);
    expect(busy.statusCode, busy.body).toBe(429);
    expect(busy.json()).toMatchObject({ error: 'rate_limited' });
    expect((await reset({ token, pass: 'brand new secret' })).json()).toEqual({ ok: true });
    expect((await login('cleo', 'brand new secret')).statusCode).toBe(200);
  });

  it('answers the same for unknown users and users without an address, and sends nothing', async () => {
    t = await startTestApp({ env: { SMTP_URL: smtp.url } });
    await addUser(t, { name: 'noaddress', password: 'password1', groups: ['users'] });
    const before = smtp.mails.length;
    for (const user of ['ghost', 'noaddress']) {
      const res = await forgot({ user });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
    }
    expect(smtp.mails.length).toBe(before);
  });

  it('refuses a missing or empty user name with 400 validation', async () => {
    t = await startTestApp();
    for (const body of [{}, { user: '' }, { user: 1 }]) {
      const res = await forgot(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation' });
    }
  });

  it('limits reset mails per account and per client (429 rate_limited), whether or not the name exists', async () => {
    t = await startTestApp({ env: { SMTP_URL: smtp.url } });
    await addUser(t, { name: 'dora', password: 'password1', groups: ['users'], email: 'dora@example.org' });
    const before = smtp.mails.length;
    for (let i = 0; i < 3; i++) expect((await forgot({ user: 'dora' }, {}, `198.51.100.${i}`)).statusCode).toBe(200);
    const fourth = await forgot({ user: 'DORA' }, {}, '198.51.100.9');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ error: 'rate_limited' });
    expect(smtp.mails.length).toBe(before + 3);

    for (let i = 0; i < 10; i++) expect((await forgot({ user: `ghost${i}` }, {}, '203.0.113.5')).statusCode).toBe(200);
    expect((await forgot({ user: 'ghost-next' }, {}, '203.0.113.5')).json()).toMatchObject({ error: 'rate_limited' });
  });

  it('removes expired reset links when it makes a new one', async () => {
    t = await startTestApp();
    const id = await addUser(t, { name: 'emil', password: 'password1', groups: ['users'], email: 'e@example.org' });
    await t.app.db.kysely
      .insertInto('password_reset')
      .values({ id: 'old', user_id: id, created_at: 0, expires_at: Date.now() - 1 })
      .execute();
    await forgot({ user: 'emil' });
    const rows = await t.app.db.kysely.selectFrom('password_reset').select('id').execute();
    expect(rows.map((r) => r.id)).not.toContain('old');
    expect(rows).toHaveLength(1);
  });

  it('writes the mail to DATA_DIR/outbox when no SMTP server is configured', async () => {
    t = await startTestApp();
    await addUser(t, { name: 'cara', password: 'password1', groups: ['users'], email: 'cara@example.org' });
    await forgot({ user: 'cara' });
    const outbox = path.join(t.settings.dataDir, 'outbox');
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    // Reset links are as good as passwords: only the server's own user may read them.
    expect(statSync(path.join(outbox, files[0] ?? '')).mode & 0o777).toBe(0o600);
    expect(statSync(outbox).mode & 0o777).toBe(0o700);
    const mail = readFileSync(path.join(outbox, files[0] ?? ''), 'utf8');
    expect(mail).toMatch(/^To: cara@example\.org$/m);
    expect(tokenIn(mail)).toBeDefined();
  });
});
