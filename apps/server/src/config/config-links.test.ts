import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultGlobalConfig, type GlobalConfig } from '@vitrine/contract/global-config';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';

const api = '/assetportal/api/';

/** The default config with the first footer entry linking to `link` in English. */
const withFooterLink = (link: string): GlobalConfig => {
  const [first, ...rest] = defaultGlobalConfig.footer.entries;
  if (!first) throw new Error('The default config has footer entries');
  const en = { linkDirection: 'External' as const, link, column: 'Left' as const };
  return {
    ...defaultGlobalConfig,
    footer: { ...defaultGlobalConfig.footer, entries: [{ ...first, links: { ...first.links, en } }, ...rest] },
  };
};

describe('admin-configured links (admin-spec §3 "Footer link")', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp();
    admin = (await signIn(t, { name: 'alice', groups: ['admins'] })).headers;
  });
  afterAll(async () => t.close());

  const save = (config: GlobalConfig) =>
    t.app.inject({ method: 'POST', url: `${api}config/global`, headers: admin, payload: config });
  const footerLink = async () =>
    (await t.app.inject(`${api}config/global`)).json<GlobalConfig>().footer.entries[0]?.links.en?.link;

  it('accepts http(s) and mailto addresses and paths in the portal', async () => {
    for (const link of [
      'https://example.org/imprint',
      'http://example.org',
      'mailto:info@example.org',
      '/custom',
      '',
    ]) {
      const res = await save(withFooterLink(link));
      expect(res.statusCode, `${link}: ${res.body}`).toBe(200);
      expect(await footerLink()).toBe(link);
    }
  });

  it('refuses script, data and other schemes with 400 validation naming the field, and keeps the old config', async () => {
    await save(withFooterLink('https://example.org/kept'));
    for (const link of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      '//evil.example.org',
      '/\\evil.example.org',
      'file:///etc/passwd',
    ]) {
      const res = await save(withFooterLink(link));
      expect(res.statusCode, link).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'validation',
        details: [
          { path: 'body.footer.entries.0.links.en.link', message: expect.stringMatching(/http\(s\) or mailto/) },
        ],
      });
    }
    const register = await save({
      ...defaultGlobalConfig,
      login: { ...defaultGlobalConfig.login, register: { show_button: true, links: { de: 'javascript:void 0' } } },
    });
    expect(register.statusCode).toBe(400);
    expect(register.json().details[0].path).toBe('body.login.register.links.de');
    expect(await footerLink()).toBe('https://example.org/kept');
  });
});
