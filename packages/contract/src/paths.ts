/*
 * Every address the portal hands out and reads, written by one function and read back by one, so a
 * link made anywhere reads the same everywhere:
 *
 * - the web app's hash routes (`<portal>#/asset/7`, `#/search/…`, share, reset-password and login
 *   links): the web app makes and reads them, the server makes them for mails and redirects;
 * - the signed media URLs under /media/: the server's access rule signs them, its media and download
 *   routes check them; both compute the text a signature covers with `mediaSigned`.
 *
 * Every value is encoded where it is written (a path segment with encodeURIComponent, a query value
 * as forms encode it), so ids, tokens and search text may hold '/', '?', '#', spaces or any letter.
 */

type Part = string | number;
type Params = Record<string, string>;

// ---- paths and query strings ---------------------------------------------------------------------

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

/** Percent-escapes decoded; a malformed one stays as it is. */
function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * A pathname against a pattern ('/asset/:id', '/admin', '/media/zip/:cset', a last '*' for the rest):
 * the decoded values of its parameters, or null. Fixed parts compare without regard to case.
 */
export function matchPath(pattern: string, pathname: string): Params | null {
  const parts = segmentsOf(pattern);
  const segments = segmentsOf(pathname);
  const params: Params = {};
  for (const [i, part] of parts.entries()) {
    if (part === '*' && i === parts.length - 1) {
      params['*'] = segments.slice(i).map(percentDecode).join('/');
      return params;
    }
    const segment = segments[i];
    if (segment === undefined) return null;
    if (part.startsWith(':')) params[part.slice(1)] = percentDecode(segment);
    else if (part.toLowerCase() !== percentDecode(segment).toLowerCase()) return null;
  }
  return parts.length === segments.length ? params : null;
}

/** A query value as forms write it (URLSearchParams does the same), but ',' is left as it is. */
function formEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+')
    .replace(/%2C/g, ',');
}

const formDecode = (text: string) => percentDecode(text.replace(/\+/g, ' '));

/** `?a=1&b=2`, or '' for no pairs. Commas stay readable: they separate the items of a list. */
function writeQuery(pairs: readonly (readonly [string, string])[]): string {
  if (pairs.length === 0) return '';
  return `?${pairs.map(([name, value]) => `${formEncode(name)}=${formEncode(value)}`).join('&')}`;
}

/** The pairs of a query string (with or without its '?'), decoded as URLSearchParams decodes them. */
export function readQuery(query: string): [string, string][] {
  return query
    .replace(/^\?/, '')
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return at < 0 ? [formDecode(pair), ''] : [formDecode(pair.slice(0, at)), formDecode(pair.slice(at + 1))];
    });
}

/**
 * A list in one query value: items joined by ','. An item's own ',' and '%' are escaped first
 * (%2C, %25), so that it reads back whole; links written before that read the same.
 */
function writeList(items: readonly Part[]): string {
  return items.map((item) => String(item).replace(/%/g, '%25').replace(/,/g, '%2C')).join(',');
}

/** The items of a list value; empty items are dropped. */
export function readList(value: string | null | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .filter((item) => item !== '')
    .map((item) => item.replace(/%2C/gi, ',').replace(/%25/g, '%'));
}

/** A path's pathname and its query ('?…', or '' for none). */
export const splitPath = (path: string) => {
  const q = path.indexOf('?');
  return q < 0 ? { pathname: path, query: '' } : { pathname: path.slice(0, q), query: path.slice(q) };
};

// ---- portal routes -------------------------------------------------------------------------------

/**
 * The query of a search route (portal-spec §2 "Search"): the text ('*' in the route when there is
 * none), '+{field}' per facet filter or chosen suggestion (its values; a range is one value
 * 'from TO to'), `id` for a link to chosen assets, `meta_collections` for a DAM collection, and the
 * `sort` and `orientation` a collection's results come in.
 */
export interface SearchQuery {
  text?: string;
  fields?: readonly { name: string; values: readonly string[] }[];
  ids?: readonly string[];
  collection?: string;
  sort?: string;
  orientation?: string;
}

/** A search query as `readSearchQuery` answers it: every list present. */
export type ReadSearchQuery = Required<Pick<SearchQuery, 'text'>> & {
  fields: { name: string; values: string[] }[];
  ids: string[];
} & Pick<SearchQuery, 'collection' | 'sort' | 'orientation'>;

/** The routes of portal-spec §2 and admin-spec §2, each with what its address carries. */
export type PortalRoute =
  | { page: 'dashboard' }
  | { page: 'login'; code?: string; sso?: string; stay?: string }
  | { page: 'logout'; permission?: boolean }
  | { page: 'resetPassword'; token: string }
  | ({ page: 'search' } & SearchQuery)
  | { page: 'asset'; id: string }
  | { page: 'bookmark' }
  | { page: 'shares' }
  | { page: 'share'; token: string }
  | { page: 'custom' }
  | { page: 'admin'; section?: string }
  /** Editors' uploads (issue #49). */
  | { page: 'upload' };

export type PortalPage = PortalRoute['page'];

/** The route patterns of the web app's router (`:name` a parameter). */
export const routePatterns = {
  dashboard: '/',
  login: '/login',
  logout: '/logout',
  resetPassword: '/reset-password',
  search: '/search/:query',
  asset: '/asset/:id',
  bookmark: '/bookmark',
  shares: '/shares',
  share: '/share/:token',
  custom: '/custom',
  admin: '/admin',
  upload: '/upload',
} as const satisfies Record<PortalPage, string>;

/**
 * The module of each page's screen in the web app's sources (apps/web/src/app/screens.ts loads
 * them): the server finds a screen's files in the build's manifest by it, so that the page's script
 * can ask for them beside the app's own code (apps/server/src/config/first-paint.ts).
 */
export const screenModules = {
  dashboard: 'src/features/dashboard/DashboardPage.tsx',
  login: 'src/features/login/LoginPage.tsx',
  logout: 'src/features/login/LogoutPage.tsx',
  resetPassword: 'src/features/login/ResetPasswordPage.tsx',
  search: 'src/features/search/SearchPage.tsx',
  asset: 'src/features/asset/AssetPage.tsx',
  bookmark: 'src/features/bookmark/BookmarkPage.tsx',
  shares: 'src/features/share/MySharesPage.tsx',
  share: 'src/features/share/ShareLandingPage.tsx',
  custom: 'src/features/custom/CustomPage.tsx',
  admin: 'src/features/admin/AdminPage.tsx',
  upload: 'src/features/upload/UploadPage.tsx',
} as const satisfies Record<PortalPage, string>;

const adminSectionPattern = `${routePatterns.admin}/:section`;
const segment = (value: Part) => encodeURIComponent(String(value));

/** The text of a search route as its path writes it: '*' for none. */
const ALL = '*';

function searchPairs(q: SearchQuery): [string, string][] {
  const pairs: [string, string][] = [];
  for (const field of q.fields ?? [])
    if (field.values.length > 0) pairs.push([`+${field.name}`, writeList(field.values)]);
  if (q.ids?.length) pairs.push(['id', writeList(q.ids)]);
  if (q.collection !== undefined) pairs.push(['meta_collections', q.collection]);
  if (q.sort !== undefined) pairs.push(['sort', q.sort]);
  if (q.orientation !== undefined) pairs.push(['orientation', q.orientation]);
  return pairs;
}

/** The path of a route, what follows the '#' of a portal link: `/asset/7`, `/search/*?id=1,2`. */
export function routePath(route: PortalRoute): string {
  switch (route.page) {
    case 'dashboard':
    case 'bookmark':
    case 'shares':
    case 'custom':
    case 'upload':
      return routePatterns[route.page];
    case 'login': {
      const pairs: [string, string][] = [];
      if (route.code !== undefined) pairs.push(['code', route.code]);
      if (route.sso !== undefined) pairs.push(['sso', route.sso]);
      if (route.stay !== undefined) pairs.push(['stay', route.stay]);
      return `${routePatterns.login}${writeQuery(pairs)}`;
    }
    case 'logout':
      return `${routePatterns.logout}${route.permission ? writeQuery([['permission', '']]) : ''}`;
    case 'resetPassword':
      return `${routePatterns.resetPassword}${writeQuery([['token', route.token]])}`;
    case 'search': {
      const text = route.text?.trim() ?? '';
      return `/search/${text ? segment(text) : ALL}${writeQuery(searchPairs(route))}`;
    }
    case 'asset':
      return `/asset/${segment(route.id)}`;
    case 'share':
      return `/share/${segment(route.token)}`;
    case 'admin':
      return route.section === undefined ? routePatterns.admin : `${routePatterns.admin}/${segment(route.section)}`;
  }
}

/**
 * The search query of a route's text (the decoded `:query`, '*' for none) and query pairs; a '+'
 * typed into a link's query string reads back as a space, so ' {field}' is a field as well.
 */
export function readSearchQuery(text: string | undefined, pairs: Iterable<readonly [string, string]>): ReadSearchQuery {
  const trimmed = text?.trim() ?? '';
  const query: ReadSearchQuery = { text: trimmed === ALL ? '' : trimmed, fields: [], ids: [] };
  for (const [name, value] of pairs) {
    if (/^[+ ]\S/.test(name)) {
      const values = readList(value);
      if (values.length > 0) query.fields.push({ name: name.slice(1), values });
    } else if (name === 'id') query.ids = readList(value);
    else if (name === 'meta_collections') query.collection = value;
    else if (name === 'sort') query.sort = value;
    else if (name === 'orientation') query.orientation = value;
  }
  return query;
}

/** The route a path (what follows the '#') names, or undefined for none of the portal's. */
export function readRoutePath(path: string): PortalRoute | undefined {
  const { pathname, query } = splitPath(path.split('#')[0] ?? '');
  const pairs = readQuery(query);
  const param = (name: string) => pairs.find(([n]) => n === name)?.[1];
  const at = (pattern: string) => matchPath(pattern, pathname);
  if (at(routePatterns.dashboard)) return { page: 'dashboard' };
  for (const page of ['bookmark', 'shares', 'custom', 'upload'] as const) if (at(routePatterns[page])) return { page };
  if (at(routePatterns.login)) {
    const route: Extract<PortalRoute, { page: 'login' }> = { page: 'login' };
    for (const name of ['code', 'sso', 'stay'] as const) {
      const value = param(name);
      if (value !== undefined) route[name] = value;
    }
    return route;
  }
  if (at(routePatterns.logout))
    return param('permission') === undefined ? { page: 'logout' } : { page: 'logout', permission: true };
  if (at(routePatterns.resetPassword)) return { page: 'resetPassword', token: param('token') ?? '' };
  const search = at(routePatterns.search);
  if (search) return { page: 'search', ...readSearchQuery(search.query, pairs) };
  const asset = at(routePatterns.asset);
  if (asset) return { page: 'asset', id: asset.id ?? '' };
  const share = at(routePatterns.share);
  if (share) return { page: 'share', token: share.token ?? '' };
  if (at(routePatterns.admin)) return { page: 'admin' };
  const admin = at(adminSectionPattern);
  if (admin) return { page: 'admin', section: admin.section ?? '' };
  return undefined;
}

/** The page a path shows, or undefined for none of the portal's. */
export const pageOf = (path: string): PortalPage | undefined => readRoutePath(path)?.page;

/**
 * The page a visitor lands on for `page`: with `hide_dashboard` set, the dashboard's address leads
 * to the search (portal-spec §2 "Dashboard").
 */
export const landingPage = (page: PortalPage, global: { hide_dashboard: boolean }): PortalPage =>
  page === 'dashboard' && global.hide_dashboard ? 'search' : page;

/**
 * Where a link to assets leads (portal-spec §4 "Shared links"): one asset's page, or the search
 * page limited to them for several.
 */
export function assetsRoute(ids: readonly string[]): PortalRoute {
  return ids.length === 1 ? { page: 'asset', id: ids[0] ?? '' } : { page: 'search', ids };
}

/** A route as the `href` of a link inside the portal's page: `#/asset/7`. */
export function routeHref(route: PortalRoute): string {
  return `#${routePath(route)}`;
}

/**
 * The full address of a route, for links that are copied or mailed. `portal` is the address of the
 * portal's page (the server's public URL, or the page's origin and path): a folder gets its '/', a
 * page named by its file (`…/index.html`) keeps its name.
 */
export function portalLink(portal: string, route: PortalRoute): string {
  const page = portal.split('#')[0] ?? '';
  const last =
    page
      .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
      .split('/')
      .pop() ?? '';
  const base = page.endsWith('/') || last.includes('.') ? page : `${page}/`;
  return `${base}${routeHref(route)}`;
}

/** The route a full portal link names, or undefined. */
export function readPortalLink(link: string): PortalRoute | undefined {
  const hash = link.indexOf('#');
  return hash < 0 ? undefined : readRoutePath(link.slice(hash + 1));
}

// ---- signed media URLs ---------------------------------------------------------------------------

/** The files behind signed URLs: derivatives, single downloads and zips. */
export type MediaFile =
  | { kind: 'thumb' | 'video' | 'audio'; id: Part }
  | { kind: 'preview'; id: Part; page?: Part }
  /** A caption track of a video (`track`: its number among the video's captions), served as WebVTT. */
  | { kind: 'caption'; id: Part; track: Part }
  | { kind: 'download'; id: Part; cset: Part }
  | { kind: 'zip'; cset: Part; ids: readonly Part[] }
  /**
   * A zip of a list the server keeps (`download/zip`): `ref` names it, so the URL stays short
   * however many assets it holds.
   */
  | { kind: 'zipList'; cset: Part; ref: Part };

export type MediaKind = MediaFile['kind'];

/** Whom a URL was handed to: the downloader (`u<id>` or `guest`), the share link it was minted for. */
export interface MediaGrant {
  by?: Part;
  share?: Part;
}

/** The routes of the media files (`:name` a parameter, as the server's router writes them). */
export const mediaPatterns = {
  thumb: '/media/thumb/:id',
  preview: '/media/preview/:id',
  previewPage: '/media/preview/:id/:page',
  video: '/media/video/:id',
  audio: '/media/audio/:id',
  caption: '/media/caption/:id/:track',
  download: '/media/download/:id/:cset',
  zip: '/media/zip/:cset',
  zipList: '/media/zip/:cset/:ref',
} as const;

const MEDIA = '/media/';
/** The ids of a zip are joined by '-', in the query. */
const ZIP_IDS_SEPARATOR = '-';

const zipIds = (ids: readonly Part[]) => ids.map(segment).join(ZIP_IDS_SEPARATOR);
export const readZipIds = (text: string): string[] => text.split(ZIP_IDS_SEPARATOR);
/** A zip list's reference: the base64url SHA-256 of its ids (43 characters). */
export const ZIP_REF_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function mediaPathOf(file: MediaFile): { path: string; pairs: [string, string][] } {
  switch (file.kind) {
    case 'thumb':
    case 'video':
    case 'audio':
      return { path: `${file.kind}/${segment(file.id)}`, pairs: [] };
    case 'preview':
      return {
        path: `preview/${segment(file.id)}${file.page === undefined ? '' : `/${segment(file.page)}`}`,
        pairs: [],
      };
    case 'caption':
      return { path: `caption/${segment(file.id)}/${segment(file.track)}`, pairs: [] };
    case 'download':
      return { path: `download/${segment(file.id)}/${segment(file.cset)}`, pairs: [] };
    case 'zip':
      return { path: `zip/${segment(file.cset)}`, pairs: [['ids', zipIds(file.ids)]] };
    case 'zipList':
      return { path: `zip/${segment(file.cset)}/${segment(file.ref)}`, pairs: [] };
  }
}

/**
 * The text a media URL's signature covers: the path after /media/ and, in this order, the zip's
 * ids, the downloader and the share link (`zip/0?ids=4-7&by=u2&share=9`). The server signs it and
 * checks it; both get it from here.
 */
export function mediaSigned(file: MediaFile, grant: MediaGrant = {}): string {
  const { path, pairs } = mediaPathOf(file);
  if (grant.by !== undefined) pairs.push(['by', segment(grant.by)]);
  if (grant.share !== undefined) pairs.push(['share', segment(grant.share)]);
  return pairs.length === 0 ? path : `${path}?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`;
}

/** The root-relative URL of a signed media text (`mediaSigned`) with its expiry and signature. */
export function mediaUrl(signed: string, signature: { exp: Part; sig: string }): string {
  const sep = signed.includes('?') ? '&' : '?';
  return `${MEDIA}${signed}${sep}exp=${segment(signature.exp)}&sig=${segment(signature.sig)}`;
}

// ---- picture widths ------------------------------------------------------------------------------

/**
 * The widths a thumbnail is made in: boxes of 400 × 250 and 800 × 500 (the picture fits inside,
 * keeping its proportion). The larger one is what a thumbnail URL names without `w`.
 */
export const thumbWidths = [400, 800] as const;
export type ThumbWidth = (typeof thumbWidths)[number];
/** Height of a thumbnail box per pixel of its width. */
export const THUMB_BOX_RATIO = 500 / 800;

/**
 * The widths an uploaded raster image (the hero images, logos) is served in besides its original,
 * for screens from phones to large monitors at their pixel density.
 */
export const configImageWidths = [640, 1080, 1600, 2400] as const;

/** The query parameter that picks one of a picture's fixed widths. */
export const WIDTH_PARAM = 'w';

/**
 * The address of one width of a picture: `url` with its `w` set (replaced when it has one). It is
 * written the same way for a signed thumbnail URL and for the API's image calls; for a signed URL
 * the width lies outside the signature, which grants the picture, not one of its sizes.
 */
export function atWidth(url: string, width: number): string {
  const hash = url.indexOf('#');
  const { pathname, query } = splitPath(hash < 0 ? url : url.slice(0, hash));
  const kept = query
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '' && pair.split('=')[0] !== WIDTH_PARAM);
  return `${pathname}?${[...kept, `${WIDTH_PARAM}=${width}`].join('&')}${hash < 0 ? '' : url.slice(hash)}`;
}

export interface ReadMediaUrl {
  file: MediaFile;
  grant: MediaGrant;
  exp?: string;
  sig?: string;
}

/** What a media URL (absolute or root-relative) names, or undefined when it is not one. */
export function readMediaUrl(url: string): ReadMediaUrl | undefined {
  const { pathname: full, query } = splitPath(url.split('#')[0] ?? '');
  const start = full.indexOf(MEDIA);
  if (start < 0) return undefined;
  const pathname = full.slice(start);
  const pairs = new Map(readQuery(query));
  const file = mediaFileAt(pathname, pairs.get('ids'));
  if (!file) return undefined;
  const grant: MediaGrant = {};
  const [by, share, exp, sig] = ['by', 'share', 'exp', 'sig'].map((name) => pairs.get(name));
  if (by !== undefined) grant.by = by;
  if (share !== undefined) grant.share = share;
  return { file, grant, ...(exp === undefined ? {} : { exp }), ...(sig === undefined ? {} : { sig }) };
}

function mediaFileAt(pathname: string, ids: string | undefined): MediaFile | undefined {
  const at = (pattern: string) => matchPath(pattern, pathname);
  for (const kind of ['thumb', 'video', 'audio', 'preview'] as const) {
    const m = at(mediaPatterns[kind]);
    if (m) return { kind, id: m.id ?? '' };
  }
  let m = at(mediaPatterns.previewPage);
  if (m) return { kind: 'preview', id: m.id ?? '', page: m.page ?? '' };
  m = at(mediaPatterns.caption);
  if (m) return { kind: 'caption', id: m.id ?? '', track: m.track ?? '' };
  m = at(mediaPatterns.download);
  if (m) return { kind: 'download', id: m.id ?? '', cset: m.cset ?? '' };
  m = at(mediaPatterns.zip);
  if (m && ids !== undefined) return { kind: 'zip', cset: m.cset ?? '', ids: readZipIds(ids) };
  m = at(mediaPatterns.zipList);
  if (m && ZIP_REF_PATTERN.test(m.ref ?? '')) return { kind: 'zipList', cset: m.cset ?? '', ref: m.ref ?? '' };
  return undefined;
}
