import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { xsrfHeaders } from '../../test/auth.ts';
import { startSmtp } from '../../test/smtp.ts';
import { addUser } from '../../test/users.ts';
import { mailBodyWithLink } from './user.service.ts';

const API = '/assetportal/api/';

/** The text of a quoted-printable mail body, enough to find the link in it. */
const unquote = (mail: string) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
const tokenIn = (mail: string) => /reset-password\?token=([\w-]+)/.exec(unquote(mail))?.[1];

describe('password reset (portal-spec §7 "POST user/forgot-password", §5 "Password reset")', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => smtp.close());
  afterEach(async () => t.close());

  const forgot = (body: object) =>
    t.app.inject({ method: 'POST', url: `${API}user/forgot-password`, payload: body, headers: xsrfHeaders });
  const reset = (body: object) =>
    t.app.inject({ method: 'POST', url: `${API}user/reset-password`, payload: body, headers: xsrfHeaders });
  const login = (user: string, pass: string) =>
    t.app.inject({ method: 'POST', url: `${API}session/get`, payload: { user, pass } });

  it('mails a link with the subject and body of the request; the link sets a new password once', async () => {
    t = await startTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://portal.example.org' } });
    await addUser(t, { name: 'ben', password: 'old password', groups: ['users'], email: 'ben@example.org' });
    const before = smtp.mails.length;
    const res = await forgot({ user: 'ben', mail_subject: 'Your new password', mail_body: 'Follow {link} soon.' });
    expect(res.json()).toEqual({ ok: true });

    const mail = smtp.mails[before] ?? '';
    expect(mail).toMatch(/^Subject: Your new password$/m);
    expect(mail).toMatch(/^To: ben@example\.org$/m);
    expect(unquote(mail)).toContain('Follow https://portal.example.org/#/reset-password?token=');
    const token = tokenIn(mail);
    expect(token).toBeDefined();

    expect((await reset({ token, pass: 'short' })).json()).toMatchObject({ error: 'validation' });
    expect((await reset({ token, pass: 'brand new secret' })).json()).toEqual({ ok: true });
    expect((await login('ben', 'old password')).statusCode).toBe(401);
    expect((await login('ben', 'brand new secret')).statusCode).toBe(200);

    const again = await reset({ token, pass: 'another secret' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'validation', details: [{ path: 'body.token' }] });
  });

  it('answers the same for unknown users and users without an address, and sends nothing', async () => {
    t = await startTestApp({ env: { SMTP_URL: smtp.url } });
    await addUser(t, { name: 'noaddress', password: 'password1', groups: ['users'] });
    const before = smtp.mails.length;
    for (const user of ['ghost', 'noaddress']) {
      const res = await forgot({ user, mail_subject: 's', mail_body: 'b' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true });
    }
    expect(smtp.mails.length).toBe(before);
  });

  it('refuses a missing user name or oversized mail text with 400 validation', async () => {
    t = await startTestApp();
    for (const body of [
      { mail_subject: 's', mail_body: 'b' },
      { user: '', mail_subject: 's', mail_body: 'b' },
      { user: 'x', mail_subject: 's', mail_body: 'b'.repeat(20_001) },
      { user: 'x', mail_subject: 1, mail_body: 'b' },
    ]) {
      const res = await forgot(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation' });
    }
  });

  it('writes the mail to DATA_DIR/outbox when no SMTP server is configured', async () => {
    t = await startTestApp();
    await addUser(t, { name: 'cara', password: 'password1', groups: ['users'], email: 'cara@example.org' });
    await forgot({ user: 'cara', mail_subject: 'Reset', mail_body: 'Here:' });
    const outbox = path.join(t.settings.dataDir, 'outbox');
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    const mail = readFileSync(path.join(outbox, files[0] ?? ''), 'utf8');
    expect(mail).toMatch(/^To: cara@example\.org$/m);
    expect(tokenIn(mail)).toBeDefined();
  });
});

describe('mailBodyWithLink', () => {
  it('puts the link at {link} or {0}, or appends it', () => {
    expect(mailBodyWithLink('Go to {link}.', 'L')).toBe('Go to L.');
    expect(mailBodyWithLink('Go to {0}.', 'L')).toBe('Go to L.');
    expect(mailBodyWithLink('Hello\n', 'L')).toBe('Hello\n\nL\n');
  });
});
