import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultGlobalConfig } from '@vitrine/contract/global-config';
import { defaultTranslations } from '@vitrine/contract/translations';
import { putUpload, startTestApp, storeSetups, type TestApp } from '../../test/app.ts';
import { ConfigRepository } from './config.repository.ts';

const api = '/assetportal/api/';
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const title = 'config calls on $dialect, uploads in the $store store (admin-spec §7 "Calls")';

describe.each(storeSetups)(title, ({ dialect, store }) => {
  let t: TestApp;
  const put = (key: string, content: Buffer | string) => putUpload(t, key, content);
  beforeAll(async () => {
    t = await startTestApp({ dialect, store });
  });
  afterAll(async () => t.close());

  it('GET config/global answers the defaults when nothing is stored', async () => {
    const res = await t.app.inject(`${api}config/global`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(defaultGlobalConfig);
  });

  it('GET config/global answers stored values merged over the defaults, to anyone', async () => {
    const repo = new ConfigRepository(t.app.db);
    await repo.put('global', '', { global: { website_title: 'Archiv', hide_dashboard: true } });
    try {
      const res = await t.app.inject(`${api}config/global`);
      const body = res.json();
      expect(body.global).toEqual({ ...defaultGlobalConfig.global, website_title: 'Archiv', hide_dashboard: true });
      expect(body.dashboard.heroImage.height).toBe(350);
    } finally {
      await repo.remove('global');
    }
  });

  it('GET config reports which files are uploaded', async () => {
    const before = (await t.app.inject(`${api}config`)).json();
    expect(Object.values(before).every((v) => v === false)).toBe(true);
    await put('dashboardLogo', png);
    const after = (await t.app.inject(`${api}config`)).json();
    expect(after).toMatchObject({ dashboardLogo: true, style: false, custom_font: false });
  });

  it('GET config/{name} serves an uploaded image with its real type', async () => {
    await put('loginHero', png);
    const res = await t.app.inject(`${api}config/loginHero`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.rawPayload.equals(png)).toBe(true);
  });

  it('GET config/{name} answers 404 not_found for an image that is not uploaded or unknown', async () => {
    for (const name of ['searchLogo', 'passwords']) {
      const res = await t.app.inject(`${api}config/${name}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
  });

  it('GET config/style serves the style sheet as CSS and config/custom_font the font', async () => {
    await put('style', 'body { color: red; }');
    await put('custom_font', Buffer.concat([Buffer.from('wOF2'), Buffer.alloc(60)]));
    const css = await t.app.inject(`${api}config/style`);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toBe('body { color: red; }');
    const font = await t.app.inject(`${api}config/custom_font`);
    expect(font.headers['content-type']).toBe('font/woff2');
  });

  it('GET config/translations?lang answers the bundled set with stored edits over it', async () => {
    const de = await t.app.inject(`${api}config/translations?lang=de`);
    expect(de.json()).toEqual(defaultTranslations.de);
    const repo = new ConfigRepository(t.app.db);
    await repo.put('translations', 'en', { views: { dashboard: { title: 'Start' } } });
    try {
      const en = (await t.app.inject(`${api}config/translations?lang=en`)).json();
      expect(en.views.dashboard.title).toBe('Start');
      expect(en.views.search.tags.error).toBe('Unknown filter');
      expect(en.toast.login.unauthorized).toBe('Account has no authorization');
    } finally {
      await repo.remove('translations', 'en');
    }
  });

  it('GET config/translations lists the locales; an unknown language is 404', async () => {
    expect((await t.app.inject(`${api}config/translations`)).json()).toEqual({ locales: ['de', 'en'] });
    const fr = await t.app.inject(`${api}config/translations?lang=fr`);
    expect(fr.statusCode).toBe(404);
    expect(fr.json().error).toBe('not_found');
  });

  it('GET config/thumbnail serves an uploaded tile image, else 404', async () => {
    await put('thumbnail/nature', png);
    const res = await t.app.inject(`${api}config/thumbnail?id=nature`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect((await t.app.inject(`${api}config/thumbnail?id=..%2Fsecret`)).statusCode).toBe(404);
    expect((await t.app.inject(`${api}config/thumbnail?id=999999`)).statusCode).toBe(404);
  });

  it('GET config/thumbnail redirects to the signed thumbnail of an asset the caller may see', async () => {
    const db = t.app.db.kysely;
    const now = Date.now();
    const asset = await db
      .insertInto('asset')
      .values({
        source_path: `tile-${dialect}.jpg`,
        filename: 'tile.jpg',
        sha256: 'a'.repeat(64),
        file_size: 1,
        mime: 'image/jpeg',
        format: 'jpeg',
        asset_group: 'image',
        imp_date: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(asset.id);
    await db.insertInto('asset_access').values({ asset_id: id, group_name: 'admins' }).execute();
    const guest = await t.app.inject(`${api}config/thumbnail?id=${id}`);
    expect(guest.statusCode).toBe(404);
    await db.insertInto('asset_access').values({ asset_id: id, group_name: 'public' }).execute();
    const res = await t.app.inject(`${api}config/thumbnail?id=${id}`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(new RegExp(`^/media/thumb/${id}\\?exp=\\d+&sig=`));
    // A tile drawn small asks for the small thumbnail.
    const small = await t.app.inject(`${api}config/thumbnail?id=${id}&w=400`);
    expect(small.headers.location).toMatch(new RegExp(`^/media/thumb/${id}\\?exp=\\d+&sig=[^&]+&w=400$`));
    expect((await t.app.inject(`${api}config/thumbnail?id=${id}&w=500`)).json().error).toBe('validation');
  });

  it('GET info/all_languages names the configured interface and content languages first', async () => {
    const repo = new ConfigRepository(t.app.db);
    await repo.put('global', '', {
      visibleLocales: [
        { lang: 'de', short: 'DE' },
        { lang: 'en', short: 'EN' },
        { lang: 'fr', short: 'FR' },
      ],
      content_languages: ['de'],
    });
    try {
      const body = (await t.app.inject(`${api}info/all_languages?lang=en`)).json();
      // The portal's own languages first; every other ISO 639-1 language after them.
      expect(body.languages.slice(0, 3)).toEqual([
        { code: 'de', name: 'German', ui: true, content: true },
        { code: 'en', name: 'English', ui: true, content: false },
        { code: 'fr', name: 'French', ui: true, content: false },
      ]);
    } finally {
      await repo.remove('global');
    }
  });
});
