import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/app.ts';

describe('serving the built web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'vitrine-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    t = await startTestApp({ env: { WEB_DIST: dist } });
  });
  afterAll(async () => t.close());

  it('serves index.html at / and makes browsers revalidate it', async () => {
    const res = await t.app.inject('/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('id="root"');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves hashed assets as immutable for a year', async () => {
    const res = await t.app.inject('/assets/index-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends a Content-Security-Policy with frame-ancestors and no script source but its own (docs/security.md "Other measures")', async () => {
    for (const url of ['/', '/assets/index-abc123.js']) {
      const res = await t.app.inject(url);
      const csp = String(res.headers['content-security-policy']);
      const directives = new Map(
        csp.split(';').map((d) => {
          const [name = '', ...values] = d.trim().split(/\s+/);
          return [name, values] as const;
        }),
      );
      expect(directives.get('script-src'), url).toEqual(["'self'"]);
      expect(directives.get('frame-ancestors'), url).toEqual(["'self'"]);
      expect(directives.get('object-src'), url).toEqual(["'none'"]);
      expect(directives.get('default-src'), url).toEqual(["'self'"]);
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });
});
