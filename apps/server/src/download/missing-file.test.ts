import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { makeImage } from '../../test/media-fixtures.ts';

const API = '/assetportal/api/';

/*
 * An asset whose file left its folder stays in the catalogue until the next import marks it gone.
 * Until then a download of it is a clear 404 and a zip leaves it out, instead of an unhandled error
 * that leaves the browser waiting for a file that never comes.
 */
describe.each(dialects)(
  'downloads of an asset whose file is gone, on %s (portal-spec §4 "Download flow")',
  (dialect) => {
    let t: TestApp;
    let dir: string;
    let user: Record<string, string>;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      t = await startTestApp({
        dialect,
        settings: {
          catalogue: { defaultAccessGroups: ['users'] },
          groups: [{ name: 'users', downloadSets: [0, 1] }],
        },
      });
      dir = mkdtempSync(path.join(tmpdir(), 'vitrine-missing-'));
      await makeImage(path.join(dir, 'media', 'stays.jpg'), { width: 400, height: 300 });
      await makeImage(path.join(dir, 'media', 'leaves.jpg'), { width: 400, height: 300 });
      await makeImage(path.join(dir, 'media', 'leaves later.jpg'), { width: 400, height: 300 });
      await t.app.services.importer().importFolder(path.join(dir, 'media'));
      for (const a of await t.app.db.kysely.selectFrom('asset').select(['id', 'filename']).execute()) {
        ids[a.filename] = String(a.id);
      }
      user = (await signIn(t, { groups: ['users'] })).headers;
      rmSync(path.join(dir, 'media', 'leaves.jpg'));
    }, 60_000);
    afterAll(async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const get = (url: string, query?: Record<string, string | string[]>, headers = user) =>
      t.app.inject({ url: url.startsWith('/') ? url : API + url, headers, query });

    it('answers 404 not_found naming the file, for the original and for a conversion set', async () => {
      for (const csetid of ['0', '1']) {
        const res = await get('download/', { id: ids['leaves.jpg'] ?? '', csetid });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({
          error: 'not_found',
          message: 'The file of leaves.jpg is no longer available.',
        });
      }
      expect((await get('download/', { id: ids['stays.jpg'] ?? '', csetid: '1' })).statusCode).toBe(200);
    });

    it('leaves the asset out of a zip and names it among the rejected ids', async () => {
      const res = await get('download', {
        operation: 'zip',
        csetid: '0',
        id: [ids['stays.jpg'] ?? '', ids['leaves.jpg'] ?? ''],
      });
      expect(res.statusCode).toBe(200);
      const answer: { url?: string; rejected_asset_ids: string[] } = res.json();
      expect(answer.rejected_asset_ids).toEqual([ids['leaves.jpg']]);
      const zip = await get(answer.url ?? '', undefined, {});
      expect(zip.statusCode).toBe(200);
      expect(zip.rawPayload.toString('latin1').split('PK\x01\x02')).toHaveLength(2);
      expect(zip.rawPayload.toString('latin1')).toContain('stays.jpg');

      const none = await get('download', { operation: 'zip', csetid: '0', id: [ids['leaves.jpg'] ?? ''] });
      expect(none.json()).toEqual({ rejected_asset_ids: [ids['leaves.jpg']] });
    });

    it('answers 404 for a signed URL handed out before the file went away', async () => {
      const { url } = (await get('download/', { id: ids['leaves later.jpg'] ?? '', csetid: '0' })).json();
      const zipped = (
        await get('download', {
          operation: 'zip',
          csetid: '0',
          id: [ids['stays.jpg'] ?? '', ids['leaves later.jpg'] ?? ''],
        })
      ).json();
      rmSync(path.join(dir, 'media', 'leaves later.jpg'));
      for (const signed of [url, zipped.url]) {
        const res = await get(signed, undefined, {});
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({
          error: 'not_found',
          message: 'The file of leaves later.jpg is no longer available.',
        });
      }
    });
  },
);
