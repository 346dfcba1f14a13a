import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMediaUrl } from '@vitrine/contract/paths';
import { apiCaller, importWithDerivatives, startTestApp, type TestApp } from '../../test/app.ts';
import { openShareLink, signIn } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { makeImage, makeStl } from '../../test/media-fixtures.ts';

interface PreviewAnswer {
  url?: string;
  asset_groups: string[];
  model?: { url: string; format: string };
}

describe.each(dialects)("the model file of the asset page's 3D viewer on %s", (dialect) => {
  let t: TestApp;
  let dir: string;
  let media: string;
  /** May download the original (set 0). */
  let editor: Record<string, string>;
  /** Sees the assets but may download nothing. */
  let onlooker: Record<string, string>;
  let ids: Record<string, number>;

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: {
        catalogue: { defaultAccessGroups: ['users', 'onlookers'] },
        groups: [
          { name: 'users', downloadSets: [0] },
          { name: 'onlookers', downloadSets: [] },
        ],
        shareLinks: { groups: ['users'] },
      },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-model-'));
    media = path.join(dir, 'media');
    makeStl(path.join(media, 'tetra.stl'));
    await makeImage(path.join(media, 'photo.jpg'), { width: 320, height: 200 });
    ids = await importWithDerivatives(t, media);
    editor = (await signIn(t, { groups: ['users'] })).headers;
    onlooker = (await signIn(t, { groups: ['onlookers'] })).headers;
  }, 120_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
  const preview = async (name: string, headers: Record<string, string>, page = 0) => {
    const res = await call('GET', `download/preview?id=${ids[name]}&target=view&page=${page}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PreviewAnswer>();
  };

  it('hands the original to a caller who may download it, and viewing it counts no download', async () => {
    const answer = await preview('tetra.stl', editor);
    expect(answer.url).toBeDefined();
    expect(answer.model?.format).toBe('stl');
    expect(readMediaUrl(answer.model?.url ?? '')?.file).toEqual({
      kind: 'download',
      id: String(ids['tetra.stl']),
      cset: '0',
    });
    const file = await call('GET', answer.model?.url ?? '', {});
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(readFileSync(path.join(media, 'tetra.stl')))).toBe(true);
    await t.app.services.downloads.settled();
    expect(await t.app.db.kysely.selectFrom('download').selectAll().execute()).toEqual([]);
  });

  it('offers no model for other assets, for pages, or to a caller who may not download the original', async () => {
    expect((await preview('photo.jpg', editor)).model).toBeUndefined();
    expect((await preview('tetra.stl', editor, 1)).model).toBeUndefined();
    const forOnlooker = await preview('tetra.stl', onlooker);
    expect(forOnlooker.asset_groups).toEqual(['3d']);
    expect(forOnlooker.model).toBeUndefined();
  });

  it("gives a share link's visitor the model until the link is revoked", async () => {
    const { shareId, headers: visitor } = await openShareLink(t, editor, {
      assetIds: [String(ids['tetra.stl'])],
      downloadSets: [0],
    });
    const model = (await preview('tetra.stl', visitor)).model?.url ?? '';
    expect(readMediaUrl(model)?.grant.share).toBe(String(shareId));
    expect((await call('GET', model, {})).statusCode).toBe(200);
    expect((await call('POST', 'share/revoke', editor, { id: shareId })).statusCode).toBe(200);
    expect((await call('GET', model, {})).statusCode).toBe(403);
  });
});
