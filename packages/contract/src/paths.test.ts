import { describe, expect, it } from 'vitest';
import {
  assetsRoute,
  atWidth,
  matchPath,
  mediaSigned,
  mediaUrl,
  portalLink,
  readMediaUrl,
  readPortalLink,
  readRoutePath,
  routeHref,
  routePath,
  type MediaFile,
  type MediaGrant,
  type PortalRoute,
} from './paths.ts';

/** Values that break a link built without encoding. */
const awkward = [
  '7',
  'two words',
  'Ünïcødé 東京 ελληνικά عربى',
  'a#b',
  'a?b=c',
  'a/b',
  'a&b',
  '50%',
  '%41',
  'x,y',
  '+plus',
  "it's (1)!~*",
  'trailing ',
];

const searchTexts = [
  'forest',
  'café au lait',
  'Frühling & Tulpe',
  '東京タワー',
  'Ελλάδα',
  'مكتبة',
  'a/b?c#d',
  '100% "quoted"',
  '+title:x, y',
  '..',
];

const portal = 'https://portal.example.org/dam/';

/** A route made by `routePath` reads back by `readRoutePath`, and inside a full link by `readPortalLink`. */
function roundTrip(route: PortalRoute, read: PortalRoute = route) {
  expect(readRoutePath(routePath(route))).toEqual(read);
  expect(readPortalLink(portalLink(portal, route))).toEqual(read);
}

describe('portal routes: made by paths, read back by paths', () => {
  it('pages without values', () => {
    for (const page of ['dashboard', 'bookmark', 'shares', 'custom', 'admin', 'upload'] as const) roundTrip({ page });
    roundTrip({ page: 'logout' });
    roundTrip({ page: 'logout', permission: true });
    roundTrip({ page: 'admin', section: 'general' });
  });

  it.each(awkward)('an asset page, a share link and a password reset with %j', (value) => {
    roundTrip({ page: 'asset', id: value });
    roundTrip({ page: 'share', token: value });
    roundTrip({ page: 'resetPassword', token: value });
  });

  it.each(awkward)('the login page with a single sign-on code, a failure and stay=%j', (value) => {
    roundTrip({ page: 'login' });
    roundTrip({ page: 'login', code: value });
    roundTrip({ page: 'login', sso: 'failed', stay: value });
    roundTrip({ page: 'login', stay: '' });
  });

  it.each(searchTexts)('a search for %j with fields, ids, a collection and a sort', (text) => {
    const route: PortalRoute = {
      page: 'search',
      text,
      fields: [
        { name: 'category', values: ['Photography', 'Video'] },
        { name: 'creator', values: ['Müller, Anna', '50%', text] },
        { name: 'imp_date', values: ['1 TO 9'] },
      ],
      ids: awkward,
      collection: '12',
      sort: 'imp_date',
      orientation: 'asc',
    };
    roundTrip(route);
    roundTrip({ page: 'search', text, fields: [], ids: [] });
  });

  it('a search without text reads as no text; empty lists are left out', () => {
    expect(routePath({ page: 'search' })).toBe('/search/*');
    expect(routePath({ page: 'search', text: '  ', fields: [{ name: 'x', values: [] }], ids: [] })).toBe('/search/*');
    roundTrip({ page: 'search', text: '*' }, { page: 'search', text: '', fields: [], ids: [] });
    roundTrip({ page: 'search', text: ' padded ' }, { page: 'search', text: 'padded', fields: [], ids: [] });
  });

  it('a link to assets: one asset page, or the search page limited to several', () => {
    expect(portalLink(portal, assetsRoute(['7']))).toBe('https://portal.example.org/dam/#/asset/7');
    expect(portalLink(portal, assetsRoute(['7', '8', 'a/b']))).toBe(
      'https://portal.example.org/dam/#/search/*?id=7,8,a%2Fb',
    );
    for (const ids of [['a b'], awkward]) {
      const read = readPortalLink(portalLink(portal, assetsRoute(ids)));
      expect(read?.page === 'asset' ? [read.id] : read?.page === 'search' ? read.ids : undefined).toEqual(ids);
    }
  });
});

describe('portal routes: the shapes already handed out', () => {
  it('writes them as before', () => {
    expect(routePath({ page: 'asset', id: '42' })).toBe('/asset/42');
    expect(routePath({ page: 'search', text: 'red car' })).toBe('/search/red%20car');
    expect(routePath({ page: 'search', fields: [{ name: 'category', values: ['Photography'] }] })).toBe(
      '/search/*?%2Bcategory=Photography',
    );
    expect(routePath({ page: 'search', fields: [{ name: 'created', values: ['1 TO 2'] }] })).toBe(
      '/search/*?%2Bcreated=1+TO+2',
    );
    expect(routePath({ page: 'search', collection: '3', sort: 'imp_date', orientation: 'asc' })).toBe(
      '/search/*?meta_collections=3&sort=imp_date&orientation=asc',
    );
    expect(routePath({ page: 'share', token: 'AbC-_9' })).toBe('/share/AbC-_9');
    expect(routePath({ page: 'resetPassword', token: 'AbC-_9' })).toBe('/reset-password?token=AbC-_9');
    expect(routePath({ page: 'login', sso: 'failed' })).toBe('/login?sso=failed');
    expect(routePath({ page: 'login', code: 'AbC-_9' })).toBe('/login?code=AbC-_9');
    expect(routePath({ page: 'logout', permission: true })).toBe('/logout?permission=');
    expect(routeHref({ page: 'custom' })).toBe('#/custom');
  });

  it('reads them as before: encoded commas, + for a space, a literal + before a field, odd escapes', () => {
    expect(readRoutePath('/search/boat?%2Bcategory=A%2CB&id=3%2C4')).toEqual({
      page: 'search',
      text: 'boat',
      fields: [{ name: 'category', values: ['A', 'B'] }],
      ids: ['3', '4'],
    });
    expect(readRoutePath('/search/*?+created=1+TO+2')).toMatchObject({
      fields: [{ name: 'created', values: ['1 TO 2'] }],
    });
    expect(readRoutePath('/search/caf%C3%A9%20au%20lait')).toMatchObject({ text: 'café au lait' });
    expect(readRoutePath('/search/100%?id=,,7,')).toMatchObject({ text: '100%', ids: ['7'] });
    expect(readRoutePath('/logout?permission')).toEqual({ page: 'logout', permission: true });
    expect(readRoutePath('/Asset/7')).toEqual({ page: 'asset', id: '7' });
    expect(readRoutePath('/no/such/page')).toBeUndefined();
    expect(readPortalLink('https://portal.example.org/')).toBeUndefined();
  });

  it('puts the route after the portal page, a folder with its slash', () => {
    const route = { page: 'asset', id: '7' } as const;
    expect(portalLink('https://portal.example.org', route)).toBe('https://portal.example.org/#/asset/7');
    expect(portalLink('https://portal.example.org/', route)).toBe('https://portal.example.org/#/asset/7');
    expect(portalLink('https://x.org:8443/dam', route)).toBe('https://x.org:8443/dam/#/asset/7');
    expect(portalLink('https://x.org/dam/index.html', route)).toBe('https://x.org/dam/index.html#/asset/7');
    expect(portalLink('https://x.org/#/search/*', route)).toBe('https://x.org/#/asset/7');
  });
});

describe('route patterns', () => {
  it('match decoded parameters, a last * for the rest, fixed parts in any case', () => {
    expect(matchPath('/asset/:id', '/asset/a%2Fb')).toEqual({ id: 'a/b' });
    expect(matchPath('/asset/:id', '/asset')).toBeNull();
    expect(matchPath('/asset/:id', '/asset/7/8')).toBeNull();
    expect(matchPath('/docs/*', '/Docs/a/b%20c')).toEqual({ '*': 'a/b c' });
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/search/:query', '/search/100%')).toEqual({ query: '100%' });
  });
});

describe('signed media paths: made by paths, read back by paths', () => {
  const files: MediaFile[] = [
    { kind: 'thumb', id: '42' },
    { kind: 'video', id: '42' },
    { kind: 'audio', id: '42' },
    { kind: 'preview', id: '42' },
    { kind: 'preview', id: '42', page: '3' },
    { kind: 'caption', id: '42', track: '1' },
    { kind: 'download', id: '42', cset: '0' },
    { kind: 'zip', cset: '2', ids: ['4', '7', '1234567'] },
    { kind: 'zipList', cset: '2', ref: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg' },
    { kind: 'thumb', id: 'a b/c?d#e' },
  ];
  const grants: MediaGrant[] = [{}, { by: 'u12' }, { share: '9' }, { by: 'guest', share: '9' }];

  it.each(files)('%j with every grant', (file) => {
    for (const grant of grants) {
      const url = mediaUrl(mediaSigned(file, grant), { exp: 1_800_000_000, sig: 'abc_-9' });
      const read = readMediaUrl(`https://portal.example.org${url}`);
      expect(read).toEqual({ file, grant, exp: '1800000000', sig: 'abc_-9' });
      // The checking side signs the text of what it read: the same text as the signing side.
      expect(read && mediaSigned(read.file, read.grant)).toBe(mediaSigned(file, grant));
    }
  });

  it('signs the texts it signed before', () => {
    expect(mediaSigned({ kind: 'thumb', id: 7 })).toBe('thumb/7');
    expect(mediaSigned({ kind: 'preview', id: 7, page: 2 }, { share: 3 })).toBe('preview/7/2?share=3');
    expect(mediaSigned({ kind: 'download', id: 7, cset: 0 }, { by: 'u1', share: 3 })).toBe(
      'download/7/0?by=u1&share=3',
    );
    expect(mediaSigned({ kind: 'zip', cset: 0, ids: [4, 7] }, { by: 'guest' })).toBe('zip/0?ids=4-7&by=guest');
    expect(mediaUrl('zip/0?ids=4-7', { exp: 5, sig: 's' })).toBe('/media/zip/0?ids=4-7&exp=5&sig=s');
    expect(mediaSigned({ kind: 'zipList', cset: 0, ref: 'r'.repeat(43) }, { by: 'u1' })).toBe(
      `zip/0/${'r'.repeat(43)}?by=u1`,
    );
  });

  it('reads nothing from other URLs', () => {
    expect(readMediaUrl('/assetportal/api/assets?id=7')).toBeUndefined();
    expect(readMediaUrl('/media/zip/0?exp=1')).toBeUndefined();
    // The old form with the ids in the path is no longer a media URL.
    expect(readMediaUrl('/media/zip/0/4-7?exp=1&sig=s')).toBeUndefined();
    expect(readMediaUrl('/media/other/7')).toBeUndefined();
  });
});

describe('picture widths', () => {
  it('sets the width of a signed thumbnail URL and of an API image call, replacing one it has', () => {
    expect(atWidth('/media/thumb/7?exp=100&sig=a-b', 400)).toBe('/media/thumb/7?exp=100&sig=a-b&w=400');
    expect(atWidth('/media/thumb/7?exp=100&w=800&sig=x', 400)).toBe('/media/thumb/7?exp=100&sig=x&w=400');
    expect(atWidth('/assetportal/api/config/dashboardHero', 640)).toBe('/assetportal/api/config/dashboardHero?w=640');
    expect(atWidth('config/thumbnail?id=nature#top', 400)).toBe('config/thumbnail?id=nature&w=400#top');
  });

  it('keeps what the signature covers, so the URL still reads as the same file', () => {
    const url = atWidth('/media/thumb/7?share=3&exp=100&sig=s', 400);
    expect(readMediaUrl(url)).toEqual({
      file: { kind: 'thumb', id: '7' },
      grant: { share: '3' },
      exp: '100',
      sig: 's',
    });
  });
});
