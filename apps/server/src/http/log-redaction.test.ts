import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { redactUrl } from './log-redaction.ts';

const API = '/assetportal/api/';

describe('the request log redacts tokens and codes (docs/security.md "What is logged")', () => {
  let t: TestApp;
  let lines: string[];
  beforeEach(async () => {
    lines = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    t = await startTestApp({ logger: { level: 'info', stream } });
  });
  afterEach(async () => t.close());

  it('logs every request without the values of token, code, state, SAML and signature parameters', async () => {
    const secrets = ['tok-SECRET-1', 'code-SECRET-2', 'state-SECRET-3', 'sig-SECRET-4', 'saml-SECRET-5'];
    await t.app.inject({ method: 'POST', url: `${API}session/get?token=${secrets[0]}` });
    await t.app.inject({ url: `${API}sso/oidc/corp/callback?code=${secrets[1]}&state=${secrets[2]}&iss=x` });
    await t.app.inject({ url: `/media/thumb/1?exp=1&sig=${secrets[3]}` });
    await t.app.inject({ url: `${API}info/check_version?SAMLResponse=${secrets[4]}` });
    await t.app.inject({
      method: 'POST',
      url: `${API}session/get`,
      headers: { authorization: `Bearer ${secrets[0]}`, cookie: `vitrine_sso_bind=${secrets[1]}` },
    });
    const log = lines.join('');
    expect(log).toContain('[redacted]');
    expect(log).toContain('iss=x');
    for (const secret of secrets) expect(log).not.toContain(secret);
  });

  it('keeps other parameters and malformed names as they came', () => {
    expect(redactUrl('/a?q=cat&Token=1&x')).toBe('/a?q=cat&Token=[redacted]&x');
    expect(redactUrl('/a?%E0=1&code=2')).toBe('/a?%E0=1&code=[redacted]');
    expect(redactUrl('/a')).toBe('/a');
  });
});
