import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, brotliCompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOT_DATA_ELEMENT_ID } from '@vitrine/contract/boot';
import { startTestApp, type TestApp } from '../test/app.ts';
import { signIn } from '../test/auth.ts';
import { loadSettings } from './settings.ts';

/** The directives of a Content-Security-Policy header, by name. */
const directivesOf = (csp: unknown) =>
  new Map(
    String(csp)
      .split(';')
      .map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
  );

/** A built web app of one page and one hashed asset. */
function webDist(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'vitrine-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><head><script type="module" src="./assets/index-abc123.js"></script></head><div id="root"></div>',
  );
  // The page's one script of its own (built from apps/web/src/first-paint).
  writeFileSync(path.join(dist, 'first-paint.js'), 'import(document.currentScript.dataset.entry);');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  // The build's Brotli copy (apps/web/build/precompress.ts).
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log(1)'));
  return dist;
}

describe('serving the built web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEB_DIST: webDist() } });
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
      const directives = directivesOf(res.headers['content-security-policy']);
      // The page's one inline script by its hash (config/first-paint.ts), the portal's files else.
      const inline = /<script data-entry="[^"]*" data-preloads="[^"]*" data-screens="[^"]*">(.*?)<\/script>/s.exec(
        res.body,
      )?.[1];
      expect(directives.get('script-src'), url).toEqual(
        url === '/'
          ? [
              "'self'",
              `'sha256-${createHash('sha256')
                .update(inline ?? '')
                .digest('base64')}'`,
            ]
          : ["'self'"],
      );
      if (url === '/') expect(inline).toBe('import(document.currentScript.dataset.entry);');
      expect(directives.get('frame-ancestors'), url).toEqual(["'self'"]);
      expect(directives.get('object-src'), url).toEqual(["'none'"]);
      expect(directives.get('default-src'), url).toEqual(["'self'"]);
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('lets pictures and fonts come only from the portal, data: and blob: (an uploaded style sheet reaches no one else)', async () => {
    const directives = directivesOf((await t.app.inject('/')).headers['content-security-policy']);
    expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(directives.get('font-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(directives.get('connect-src')).toEqual(["'self'", 'data:', 'blob:']);
  });
});

/** The boot data the page carries (config/app-page.ts), parsed. */
function carried(html: string): Record<string, unknown> {
  const match = new RegExp(`<script type="application/json" id="${BOOT_DATA_ELEMENT_ID}">(.*?)</script>`, 's').exec(
    html,
  );
  if (!match?.[1]) throw new Error('The page carries no boot data');
  return JSON.parse(match[1]) as Record<string, unknown>;
}

describe("the portal's page carries the first screen's config and texts", () => {
  let t: TestApp;
  const api = '/assetportal/api/';
  beforeAll(async () => {
    t = await startTestApp({ env: { WEB_DIST: webDist() } });
  });
  afterAll(async () => t.close());

  it('holds what config/global, config and config/translations answer, in the browser language and English', async () => {
    const page = await t.app.inject({ url: '/', headers: { 'accept-language': 'de-CH,de;q=0.9' } });
    const boot = carried(page.body);
    expect(boot.config).toEqual((await t.app.inject(`${api}config/global`)).json());
    expect(boot.files).toEqual((await t.app.inject(`${api}config`)).json());
    expect(boot.locales).toEqual((await t.app.inject(`${api}config/translations`)).json().locales);
    expect(boot.messages).toEqual({
      de: (await t.app.inject(`${api}config/translations?lang=de`)).json(),
      en: (await t.app.inject(`${api}config/translations?lang=en`)).json(),
    });
    // An English browser gets English only; no language asked for means German (portal-spec §1).
    const english = carried((await t.app.inject({ url: '/', headers: { 'accept-language': 'en-GB' } })).body);
    expect(Object.keys(english.messages as object)).toEqual(['en']);
    expect(Object.keys(carried((await t.app.inject('/index.html')).body).messages as object)).toEqual(['de', 'en']);
  });

  it("carries the dashboard's first paint in the visitor's language, and none in a portal without guests", async () => {
    const german = await t.app.inject({ url: '/', headers: { 'accept-language': 'de' } });
    const de = (await t.app.inject(`${api}config/translations?lang=de`)).json().views.dashboard.hero;
    expect(german.body).toContain('<template id="vt-first-paint-template" data-locale="de">');
    expect(german.body).toContain(`<p class="vt-hero-title">${de.header}</p>`);
    const english = await t.app.inject({ url: '/', headers: { 'accept-language': 'en' } });
    expect(english.body).toContain('<p class="vt-hero-title">Find your media</p>');
    const closed = await startTestApp({ env: { WEB_DIST: webDist() }, settings: { guest: { enabled: false } } });
    try {
      expect((await closed.app.inject('/')).body).not.toContain('vt-first-paint');
    } finally {
      await closed.close();
    }
  });

  it('carries index/fields when visitors without an account may search, and not in a portal without guests', async () => {
    const boot = carried((await t.app.inject('/')).body);
    expect(boot.fields).toEqual((await t.app.inject(`${api}index/fields`)).json().visible_fields);
    expect((boot.fields as unknown[]).length).toBeGreaterThan(0);
    const closed = await startTestApp({ env: { WEB_DIST: webDist() }, settings: { guest: { enabled: false } } });
    try {
      expect(carried((await closed.app.inject('/')).body)).not.toHaveProperty('fields');
    } finally {
      await closed.close();
    }
  });

  it("carries an admin's edited text as written, without letting it end the element", async () => {
    const { headers } = await signIn(t, { groups: ['admins'] });
    const title = 'Start </script><script>alert(1)</script> <!-- &';
    const saved = await t.app.inject({
      method: 'POST',
      url: `${api}config/translations?lang=de`,
      headers,
      payload: { views: { dashboard: { title } } },
    });
    expect(saved.statusCode).toBe(200);
    const page = await t.app.inject({ url: '/', headers: { 'accept-language': 'de' } });
    expect(page.body.includes('<script>alert(1)')).toBe(false);
    const messages = carried(page.body).messages as Record<string, { views: { dashboard: { title: string } } }>;
    expect(messages.de?.views.dashboard.title).toBe(title);
  });

  it('is compressed as the browser accepts and answered 304 by its ETag', async () => {
    const plain = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(br.headers.vary).toContain('Accept-Encoding');
    const again = await t.app.inject({ url: '/', headers: { 'if-none-match': String(plain.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it("sends the build's Brotli copy of a script to a browser that accepts it, the file itself to others", async () => {
    const br = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    const plain = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });
});

describe('pictures of custom pages from outside the portal (customPages.imageOrigins)', () => {
  const origins = ['https://images.example.org', 'https://*.cdn.example.org'];
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEB_DIST: webDist() }, settings: { customPages: { imageOrigins: origins } } });
    admin = (await signIn(t, { groups: ['admins'] })).headers;
  });
  afterAll(async () => t.close());

  const save = (html: string) =>
    t.app.inject({
      method: 'POST',
      url: '/assetportal/api/config/custom_html?lang=en',
      headers: admin,
      payload: { heading: 'Imprint', html },
    });

  it('adds the allowed origins to img-src only', async () => {
    const directives = directivesOf((await t.app.inject('/')).headers['content-security-policy']);
    expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:', ...origins]);
    expect(directives.get('font-src')).toEqual(["'self'", 'data:', 'blob:']);
  });

  it('saves a page with pictures from the portal, data: and the allowed origins, and refuses any other', async () => {
    const allowed = [
      '<img src="/assetportal/api/config/logo" alt="">',
      '<img src="images/map.png" alt="">',
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="">',
      '<img src="https://images.example.org/team.jpg" alt="">',
      '<img src="https://eu.cdn.example.org/a.jpg" srcset="https://eu.cdn.example.org/a.jpg 1x, /b.png 2x" alt="">',
    ];
    expect((await save(allowed.join(''))).statusCode).toBe(200);
    const refused = [
      '<img src="https://evil.example/x.png" alt="">',
      '<img src="http://images.example.org/team.jpg" alt="">',
      '<img src="//evil.example/x.png" alt="">',
      '<img src="https://images.example.org.evil.example/x.png" alt="">',
      '<img src="https://cdn.example.org.evil.example/x.png" alt="">',
      '<img src="/a.png" srcset="/a.png 1x,https://evil.example/x.png 2x" alt="">',
      '<picture><source srcset="https://evil.example/x.webp"><img src="/a.png" alt=""></picture>',
    ];
    for (const html of refused) {
      const res = await save(html);
      expect(res.statusCode, html).toBe(400);
      expect(res.json().error).toBe('validation');
      expect(res.json().message, html).toContain('customPages.imageOrigins');
    }
    const page = (await t.app.inject('/assetportal/api/config/custom_html?lang=en')).json();
    expect(page.html).toContain('https://images.example.org/team.jpg');
  });

  it('refuses to start with an image origin that is not an https origin, naming the key', () => {
    for (const origin of ['http://images.example.org', 'https://images.example.org/path', '*', 'https:']) {
      const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-data-'));
      writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ customPages: { imageOrigins: [origin] } }));
      expect(() => loadSettings({ DATA_DIR: dir }), origin).toThrow(/customPages\.imageOrigins\.0/);
    }
  });
});
