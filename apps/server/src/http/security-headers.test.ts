import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { loadSettings } from '../settings.ts';
import { webAppCsp } from './security-headers.ts';

const API = '/assetportal/api/';

/** A built web app of one page. */
function webDist(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'vitrine-dist-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  return dist;
}

describe('Strict-Transport-Security (HSTS_SECONDS, docs/security.md "Other measures")', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** Answers of every kind: the web app, a call, a refused call, an unknown address, a media file, the API document. */
  const answers = (app: TestApp) =>
    Promise.all(
      [
        '/',
        `${API}config/global`,
        `${API}search?solr_rows=abc`,
        `${API}nothing-here`,
        '/media/thumb/1',
        `${API}docs/json`,
      ].map(async (url) => [url, await app.app.inject(url)] as const),
    );

  it('is sent on every answer, errors included, with the max-age set', async () => {
    t = await startTestApp({ env: { HSTS_SECONDS: '31536000', WEB_DIST: webDist() } });
    const all = await answers(t);
    expect(all.map(([url, res]) => [url, res.statusCode])).toEqual([
      ['/', 200],
      [`${API}config/global`, 200],
      [`${API}search?solr_rows=abc`, 400],
      [`${API}nothing-here`, 404],
      ['/media/thumb/1', 403],
      [`${API}docs/json`, 200],
    ]);
    for (const [url, res] of all) expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000');
  });

  it('is not sent by default', async () => {
    t = await startTestApp({ env: { WEB_DIST: webDist() } });
    for (const [url, res] of await answers(t)) expect(res.headers['strict-transport-security'], url).toBeUndefined();
  });

  it('refuses a value that is not a whole number of seconds, naming the setting', () => {
    const env = { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vitrine-settings-')) };
    expect(() => loadSettings({ ...env, HSTS_SECONDS: 'a year' })).toThrow(/HSTS_SECONDS/);
    expect(() => loadSettings({ ...env, HSTS_SECONDS: '-1' })).toThrow(/HSTS_SECONDS/);
  });
});

describe('the API documentation (API_DOCS, README "Configuration")', () => {
  describe('by default', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(async () => t.close());

    it('serves the OpenAPI document at docs/json but no Swagger UI', async () => {
      const json = await t.app.inject(`${API}docs/json`);
      expect(json.statusCode).toBe(200);
      expect(json.json()).toMatchObject({ openapi: expect.stringMatching(/^3\./), paths: expect.any(Object) });
      expect(Object.keys(json.json<{ paths: object }>().paths)).toContain(`${API}search`);
      for (const url of [
        `${API}docs`,
        `${API}docs/`,
        `${API}docs/static/index.html`,
        `${API}docs/static/swagger-ui-bundle.js`,
      ]) {
        const res = await t.app.inject(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toMatchObject({ error: 'not_found' });
      }
    });
  });

  describe('with API_DOCS=true', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { API_DOCS: 'true' } });
    });
    afterAll(async () => t.close());

    it("serves the Swagger UI and its files under the portal's Content-Security-Policy and framing rules", async () => {
      const page = await t.app.inject(`${API}docs/`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('swagger-ui-bundle.js');
      // Nothing inline that the policy would block: scripts are files of the portal.
      expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      for (const url of [
        `${API}docs/`,
        `${API}docs/static/swagger-ui-bundle.js`,
        `${API}docs/static/swagger-initializer.js`,
        `${API}docs/json`,
      ]) {
        const res = await t.app.inject(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-security-policy'], url).toBe(webAppCsp());
        expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      }
      // The validator badge would load a picture from another site, which the policy refuses.
      expect((await t.app.inject(`${API}docs/static/swagger-initializer.js`)).body).toMatch(/"validatorUrl":\s*null/);
    });
  });
});
