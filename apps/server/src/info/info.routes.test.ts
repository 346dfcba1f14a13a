import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKEND_VERSION } from '@vitrine/contract/version';
import { startTestApp, type TestApp } from '../../test/app.ts';

describe('info calls (portal-spec §7 "Calls")', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('GET info/check_version answers the backend version', async () => {
    const res = await t.app.inject('/assetportal/api/info/check_version');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ version: BACKEND_VERSION });
  });

  it('GET health reports the database it reached', async () => {
    const res = await t.app.inject('/assetportal/api/health');
    expect(res.json()).toMatchObject({ status: 'ok', database: 'sqlite' });
  });

  it('GET ready is 503 unavailable until the search index is loaded, then 200; health answers meanwhile', async () => {
    const fresh = await startTestApp();
    try {
      const before = await fresh.app.inject('/assetportal/api/ready');
      expect(before.statusCode).toBe(503);
      expect(before.json()).toMatchObject({
        error: 'unavailable',
        details: [{ path: 'search', message: expect.stringContaining('loading') }],
      });
      expect((await fresh.app.inject('/assetportal/api/health')).statusCode).toBe(200);
      await fresh.app.services.search.refresh();
      const after = await fresh.app.inject('/assetportal/api/ready');
      expect(after.statusCode).toBe(200);
      expect(after.json()).toEqual({ status: 'ready', database: 'sqlite', version: BACKEND_VERSION });
    } finally {
      await fresh.close();
    }
  });

  it('GET info/all_languages names languages in the requested language', async () => {
    const de = await t.app.inject('/assetportal/api/info/all_languages?lang=de');
    expect(de.json().languages).toContainEqual({ code: 'en', name: 'Englisch', ui: true, content: true });
    const en = await t.app.inject('/assetportal/api/info/all_languages?lang=en');
    const languages = en.json().languages as { code: string; name: string; ui: boolean }[];
    expect(languages).toContainEqual({ code: 'de', name: 'German', ui: true, content: true });
    // Beyond the portal's own languages, every ISO 639-1 language, named: an admin adding one sees what a code stands for.
    expect(languages).toContainEqual({ code: 'sw', name: 'Swahili', ui: false, content: false });
    expect(de.json().languages).toContainEqual({ code: 'fr', name: 'Französisch', ui: false, content: false });
    expect(languages.length).toBeGreaterThan(150);
    expect(languages.slice(0, 2).map((l) => l.code)).toEqual(['de', 'en']);
  });

  it('answers a malformed query with 400 and the validation error id', async () => {
    const res = await t.app.inject('/assetportal/api/info/all_languages?lang=english');
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('validation');
    expect(body.details).toEqual([{ path: 'query.lang', message: expect.stringContaining('ISO 639-1') }]);
    expect(body.message).toContain('query.lang');
  });

  it('answers an unknown API path with 404 not_found', async () => {
    const res = await t.app.inject('/assetportal/api/no/such/call');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });

  it('serves the OpenAPI document generated from the contract', async () => {
    const res = await t.app.inject('/assetportal/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.info.version).toBe(BACKEND_VERSION);
    expect(doc.paths['/assetportal/api/info/all_languages'].get.parameters[0]).toMatchObject({
      name: 'lang',
      in: 'query',
    });
  });
});
