import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { xsrfHeaders } from '../../test/auth.ts';
import { buildAsset } from '../../test/factories.ts';

const API = '/assetportal/api/';
const GUEST_ADDRESS = '203.0.113.90';

/**
 * The asset page's view beacon (docs/security.md "Statistics") counts against a guest's search
 * limit; past the limit it is neither counted nor refused, so a visitor's browser never shows a
 * failed request for statistics, while searches stay refused.
 */
describe('the view beacon of a guest past the search limit', () => {
  let t: TestApp;
  let asset: number;
  const beacon = () =>
    t.app.inject({
      method: 'POST',
      url: `${API}insights/view`,
      headers: xsrfHeaders,
      remoteAddress: GUEST_ADDRESS,
      payload: { id: String(asset) },
    });
  const views = async () => {
    await t.app.services.insights.settled();
    const rows = await t.app.db.kysely.selectFrom('insight_event').where('kind', '=', 'view').select('key').execute();
    return rows.length;
  };

  beforeAll(async () => {
    t = await startTestApp({ settings: { rateLimits: { search: { max: 2, minutes: 10 } } } });
    asset = await buildAsset(t.app.db, { filename: 'north.jpg', values: { title: { en: 'North' } } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 200 without counting once the limit is reached; a search is still refused with 429', async () => {
    for (let i = 0; i < 2; i++) expect((await beacon()).statusCode).toBe(200);
    expect(await views()).toBe(2);
    const past = await beacon();
    expect(past.statusCode, past.body).toBe(200);
    expect(past.json()).toEqual({ ok: true });
    expect(await views()).toBe(2);
    const search = await t.app.inject({ url: `${API}search?solr_q=north`, remoteAddress: GUEST_ADDRESS });
    expect(search.statusCode).toBe(429);
    expect(search.json()).toMatchObject({ error: 'rate_limited' });
  });
});
