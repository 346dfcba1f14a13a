import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SEARCH_ROWS } from '@vitrine/contract/search';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAsset } from '../../test/factories.ts';

const API = '/assetportal/api/';

describe.each(dialects)(
  'GET assets?assetid= on %s (portal-spec §7, docs/security.md "What is rate-limited")',
  (dialect) => {
    let t: TestApp;
    afterEach(async () => t.close());

    const assets = (ids: number[], remoteAddress = '192.0.2.1', headers: Record<string, string> = {}) =>
      t.app.inject({ url: `${API}assets?assetid=${ids.join(',')}`, remoteAddress, headers });

    it('answers up to a search page of ids and refuses more with 400 validation naming assetid', async () => {
      t = await startTestApp({ dialect });
      const id = await buildAsset(t.app.db, { filename: 'heron.jpg', access: ['public', 'users'] });
      const page = [id, ...Array.from({ length: MAX_SEARCH_ROWS - 1 }, (_, i) => 100_000 + i)];
      const answered = await assets(page);
      expect(answered.statusCode).toBe(200);
      expect(answered.json<{ response: { docs: { id: string }[] } }>().response.docs.map((d) => d.id)).toEqual([
        String(id),
      ]);

      const refused = await assets([...page, 200_000]);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        error: 'validation',
        message: `At most ${MAX_SEARCH_ROWS} assets can be asked for at once; ask for the others separately.`,
        details: [{ path: 'assetid' }],
      });
    });

    it('counts as a search of a caller without an account, per client address; accounts are not counted', async () => {
      t = await startTestApp({ dialect, settings: { rateLimits: { search: { max: 2, minutes: 10 } } } });
      const id = await buildAsset(t.app.db, { filename: 'heron.jpg', access: ['public', 'users'] });
      expect((await assets([id])).statusCode).toBe(200);
      expect((await t.app.inject({ url: `${API}search?solr_q=*`, remoteAddress: '192.0.2.1' })).statusCode).toBe(200);
      const refused = await assets([id]);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: 'rate_limited' });
      expect(refused.headers['retry-after']).toBeDefined();
      expect((await assets([id], '192.0.2.2')).statusCode).toBe(200);

      const { headers } = await signIn(t, { groups: ['users'] });
      for (let i = 0; i < 4; i++) expect((await assets([id], '192.0.2.1', headers)).statusCode).toBe(200);
    });
  },
);
