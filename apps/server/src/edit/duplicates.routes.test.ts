import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuplicateGroup } from '@vitrine/contract/alike';
import { apiCaller, importWithDerivatives, startTestApp, type TestApp } from '../../test/app.ts';
import { signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { makeScene, variantOf } from '../../test/media-fixtures.ts';

type Headers = Record<string, string>;
type Report = { total: number; groups: DuplicateGroup[] };

/** The duplicates report over real imports of generated photos and their copies, on both databases. */
describe.each(dialects)('the duplicates report on %s (issue #52)', (dialect) => {
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;
  let media: string;
  let ids: Record<string, number>;
  let user: Headers;
  let editor: Headers;
  let secretEditor: Headers;
  let admin: Headers;

  const report = async (who: Headers, query = '') => {
    const res = await call('GET', `alike/duplicates${query}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Report>();
  };
  /** Each group as its kind and its members' file names (in the order of their ids, as the import made them). */
  const named = (r: Report) => {
    const byId = new Map(Object.entries(ids).map(([name, id]) => [String(id), name]));
    return r.groups.map((g) => `${g.kind}: ${g.members.map((m) => byId.get(m.id)).join(' ')}`);
  };
  /** A group as `named` writes it, its members in the order of their ids. */
  const group = (kind: string, ...names: string[]) =>
    `${kind}: ${names.sort((x, y) => (ids[x] ?? 0) - (ids[y] ?? 0)).join(' ')}`;

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: {
        catalogue: { defaultAccessGroups: ['users'] },
        groups: [
          { name: 'public' },
          { name: 'users' },
          { name: 'editors' },
          { name: 'secret' },
          { name: 'admins', guiAdmin: true },
        ],
      },
    });
    call = apiCaller(t);
    media = mkdtempSync(path.join(tmpdir(), 'vitrine-duplicates-'));
    const photo = await makeScene(path.join(media, 'photo.jpg'), { seed: 7, width: 1500, height: 1000 });
    copyFileSync(photo, path.join(media, 'photo-same.jpg'));
    await variantOf(photo, path.join(media, 'photo-small.png'), { width: 750, format: 'png' });
    await variantOf(photo, path.join(media, 'photo-secret.webp'), { format: 'webp', quality: 60 });
    const other = await makeScene(path.join(media, 'other.jpg'), { seed: 8, width: 1500, height: 1000 });
    copyFileSync(other, path.join(media, 'other-secret.jpg'));
    const sidecar = (name: string, content: object) =>
      writeFileSync(path.join(media, `${name}.json`), JSON.stringify(content));
    sidecar('photo.jpg', { title: { en: 'Yellow rose', de: 'Gelbe Rose' }, collections: ['Garden'] });
    sidecar('photo-same.jpg', { title: { en: 'Yellow rose again', de: 'Gelbe Rose nochmals' } });
    sidecar('photo-secret.webp', { access_groups: ['secret'] });
    sidecar('other-secret.jpg', { access_groups: ['secret'] });
    ids = await importWithDerivatives(t, media);
    user = (await signIn(t, { groups: ['users'] })).headers;
    editor = (await signIn(t, { name: 'edna', groups: ['users', 'editors'] })).headers;
    secretEditor = (await signIn(t, { name: 'sam', groups: ['users', 'secret', 'editors'] })).headers;
    admin = (await signIn(t, { name: 'ada', groups: ['users', 'admins'] })).headers;
  }, 180_000);
  afterAll(async () => {
    await t.close();
    rmSync(media, { recursive: true, force: true });
  });

  it('is refused to guests (403) and to callers who are not editors (403)', async () => {
    for (const who of [xsrfHeaders, user]) {
      const res = await call('GET', 'alike/duplicates', who);
      expect(res.statusCode).toBe(403);
      expect(res.json<{ error: string }>().error).toBe('forbidden');
    }
    expect((await call('GET', 'alike/duplicates', admin)).statusCode).toBe(200);
  });

  it('groups the same file as exact copies and its re-encoded copies as near copies, leaving out the other photo', async () => {
    const r = await report(editor);
    expect(named(r)).toEqual([
      group('exact', 'photo.jpg', 'photo-same.jpg'),
      group('near', 'photo.jpg', 'photo-same.jpg', 'photo-small.png'),
    ]);
    expect(r.total).toBe(2);
  });

  it("gives each member's facts: title in the caller's language, format, pixel size, file size, dates, collections, thumbnail", async () => {
    const [exact] = (await report({ ...editor, 'accept-language': 'de' })).groups;
    const member = (name: string) => exact?.members.find((m) => m.id === String(ids[name]));
    const [photo, same] = [member('photo.jpg'), member('photo-same.jpg')];
    expect(photo).toMatchObject({
      id: String(ids['photo.jpg']),
      title: 'Gelbe Rose',
      filename: 'photo.jpg',
      format: 'jpg',
      width: 1500,
      height: 1000,
    });
    // The folder it was imported from is a collection too.
    expect(photo?.collections.map((c) => c.name)).toContain('Garden');
    expect(same?.collections.map((c) => c.name)).not.toContain('Garden');
    expect(photo?.fileSize).toBeGreaterThan(1000);
    expect(Date.parse(photo?.added ?? '')).toBeGreaterThan(Date.now() - 3600_000);
    expect(photo?.thumbnail).toMatch(new RegExp(`^/media/thumb/${ids['photo.jpg']}\\?`));
    expect(same?.title).toBe('Gelbe Rose nochmals');
    const thumb = await call('GET', photo?.thumbnail ?? '', editor);
    expect(thumb.statusCode).toBe(200);
    const [english] = (await report({ ...editor, 'accept-language': 'en' })).groups;
    expect(english?.members.map((m) => m.title).sort()).toEqual(['Yellow rose', 'Yellow rose again']);
  });

  it('tells an editor nothing of assets it may not see: no member, no group, no count', async () => {
    const seen = await report(secretEditor);
    expect(named(seen).sort()).toEqual(
      [
        group('exact', 'photo.jpg', 'photo-same.jpg'),
        group('exact', 'other.jpg', 'other-secret.jpg'),
        group('near', 'photo.jpg', 'photo-same.jpg', 'photo-small.png', 'photo-secret.webp'),
      ].sort(),
    );
    expect(seen.groups.map((g) => g.kind)).toEqual(['exact', 'exact', 'near']);
    const unseen = await report(editor);
    expect(unseen.total).toBe(2);
    const body = JSON.stringify(unseen);
    for (const hidden of ['other-secret.jpg', 'photo-secret.webp']) expect(body).not.toContain(`"${ids[hidden]}"`);
  });

  it('pages by group, and refuses a page size out of range with a validation error', async () => {
    const all = named(await report(secretEditor));
    const pages = [];
    for (const start of [0, 1, 2]) {
      const page = await report(secretEditor, `?start=${start}&rows=1`);
      expect(page.total).toBe(3);
      pages.push(...named(page));
    }
    expect(pages).toEqual(all);
    expect((await report(secretEditor, '?start=3')).groups).toEqual([]);
    const bad = await call('GET', 'alike/duplicates?rows=0', editor);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toBe('validation');
  });

  it('leaves a binned asset out, and a group of which it was the only copy, and has it back once restored', async () => {
    const before = named(await report(editor));
    const bin = await call('POST', 'edit/bin', editor, { ids: [String(ids['photo-same.jpg'])] });
    expect(bin.statusCode, bin.body).toBe(200);
    // The groups are kept between calls only until the catalogue changes.
    expect(named(await report(editor))).toEqual([group('near', 'photo.jpg', 'photo-small.png')]);
    const restore = await call('POST', 'edit/restore', editor, { ids: [String(ids['photo-same.jpg'])] });
    expect(restore.statusCode, restore.body).toBe(200);
    expect(named(await report(editor))).toEqual(before);
  });

  it('has a copy imported after it was asked for in its next answer (its groups are kept only while the catalogue is unchanged)', async () => {
    expect(named(await report(editor))).toEqual([
      group('exact', 'photo.jpg', 'photo-same.jpg'),
      group('near', 'photo.jpg', 'photo-same.jpg', 'photo-small.png'),
    ]);
    await variantOf(path.join(media, 'other.jpg'), path.join(media, 'other-small.png'), { width: 750, format: 'png' });
    ids = await importWithDerivatives(t, media);
    expect(named(await report(editor))).toEqual([
      group('exact', 'photo.jpg', 'photo-same.jpg'),
      group('near', 'other.jpg', 'other-small.png'),
      group('near', 'photo.jpg', 'photo-same.jpg', 'photo-small.png'),
    ]);
  });
});
