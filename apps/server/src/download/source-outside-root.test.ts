import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { makeImage } from '../../test/media-fixtures.ts';

const API = '/assetportal/api/';

/*
 * An asset's file is served and converted only while it lies inside the folder it was imported
 * from, followed through symlinks (docs/security.md "Other measures"): a file swapped for a symlink
 * to elsewhere on the server is answered like a missing file, and the refusal is logged.
 */
describe.each(dialects)('files that lead outside their import folder, on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  let user: Record<string, string>;
  const lines: string[] = [];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: { catalogue: { defaultAccessGroups: ['users'] }, groups: [{ name: 'users', downloadSets: [0, 1] }] },
      logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-outside-'));
    const media = path.join(dir, 'disk', 'media');
    await makeImage(path.join(media, 'inside.jpg'), { width: 400, height: 300 });
    await makeImage(path.join(media, 'swapped.jpg'), { width: 400, height: 300 });
    await makeImage(path.join(media, 'old.jpg'), { width: 400, height: 300 });
    await makeImage(path.join(media, 'folder.jpg'), { width: 400, height: 300 });
    await makeImage(path.join(dir, 'elsewhere', 'private.jpg'), { width: 200, height: 100 });
    // The portal imports through a symlinked folder, as a mount point often is: that stays allowed.
    symlinkSync(media, path.join(dir, 'media'));
    await t.app.services.importer().importFolder(path.join(dir, 'media'));
    for (const a of await t.app.db.kysely.selectFrom('asset').select(['id', 'filename']).execute()) {
      ids[a.filename] = String(a.id);
    }
    user = (await signIn(t, { groups: ['users'] })).headers;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, query?: Record<string, string>, headers = user) =>
    t.app.inject({ url: url.startsWith('/') ? url : API + url, headers, query });
  /** Replaces a file of the import folder with a symlink to the private picture outside it. */
  const swap = (name: string) => {
    rmSync(path.join(dir, 'disk', 'media', name));
    symlinkSync(path.join(dir, 'elsewhere', 'private.jpg'), path.join(dir, 'disk', 'media', name));
  };

  it('serves files inside the import folder, also when it was imported through a symlink', async () => {
    const res = await get('download/', { id: ids['inside.jpg'] ?? '', csetid: '0' });
    expect(res.statusCode, res.body).toBe(200);
    const file = await get(res.json<{ url: string }>().url, undefined, {});
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
  });

  it('answers a file swapped for a symlink to outside like a missing file, also for URLs given before', async () => {
    const before = (await get('download/', { id: ids['swapped.jpg'] ?? '', csetid: '0' })).json<{ url: string }>().url;
    swap('swapped.jpg');
    for (const csetid of ['0', '1']) {
      const res = await get('download/', { id: ids['swapped.jpg'] ?? '', csetid });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: 'The file of swapped.jpg is no longer available.' });
    }
    const served = await get(before, undefined, {});
    expect(served.statusCode).toBe(404);
    expect(served.body).not.toContain('elsewhere');
    expect(lines.join('\n')).toContain("an asset's file leads outside its import folder");
  });

  it('refuses the swap for an asset imported before import folders were kept', async () => {
    await t.app.db.kysely
      .updateTable('asset')
      .set({ import_root: null })
      .where('id', '=', Number(ids['old.jpg']))
      .execute();
    expect((await get('download/', { id: ids['old.jpg'] ?? '', csetid: '0' })).statusCode).toBe(200);
    swap('old.jpg');
    expect((await get('download/', { id: ids['old.jpg'] ?? '', csetid: '0' })).statusCode).toBe(404);
  });

  it('answers a file that became a folder like a missing file', async () => {
    rmSync(path.join(dir, 'disk', 'media', 'folder.jpg'));
    mkdirSync(path.join(dir, 'disk', 'media', 'folder.jpg'));
    for (const csetid of ['0', '1']) {
      const res = await get('download/', { id: ids['folder.jpg'] ?? '', csetid });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: 'The file of folder.jpg is no longer available.' });
    }
  });
});
