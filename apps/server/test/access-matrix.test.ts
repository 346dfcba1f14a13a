import type { InjectOptions, RouteOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { assetDocSchema } from '@vitrine/contract/search';
import { AccessService } from '../src/access/access.service.ts';
import { zipListRef } from '../src/download/zip-list.ts';
import { startTestApp, type TestApp } from './app.ts';
import { signIn } from './auth.ts';
import { buildAsset, buildCollection } from './factories.ts';

/**
 * Every route that names assets or answers them asks the one access rule (AccessService, over
 * access/rule.ts), so a caller never learns of an asset it may not see (portal-spec §6, ARCHITECTURE
 * §4). Every route the server registers must be listed here: either with a request that names an
 * asset the caller may not see, or as naming none, with the reason. For each listed asset route the
 * audit sends that request and fails when AccessService was not asked or the hidden asset shows in
 * the answer. A route whose request has an id-like parameter, or whose answer holds AssetDocs,
 * cannot be listed as naming none. The last test shows the audit catching a route that skips the rule.
 *
 * Field audiences (docs/security.md "Field audiences") are part of the rule: a route whose answer
 * holds AssetDocs also has a `fields` request naming an asset the caller sees, which carries a field
 * the caller may not see; the audit fails when the route did not ask AccessService.hiddenFields or
 * the field's value shows in the answer.
 */

/** The asset only the group `secret` may see, and a DAM collection holding nothing else. */
interface Hidden {
  id: number;
  collection: number;
  /** An asset the caller sees, with a field only `secret` sees, in a collection of its own. */
  visible: number;
  visibleCollection: number;
  /** Headers of an editor and of an admin who may not see the hidden asset (editing calls: docs/editing.md). */
  editor: Record<string, string>;
  admin: Record<string, string>;
}

/** Every hidden asset's metadata carries this word; it must not appear in any answer to a stranger. */
const MARKER = 'zyzzyva';
/** The value of the visible asset's restricted field, and a word of its title. */
const FIELD_MARKER = 'quokka';
const SEEN_MARKER = 'openly';
/** The hidden asset's checksum, which a visible copy shares. */
const HIDDEN_SHA256 = 'a1'.repeat(32);

interface AssetRoute {
  request: (h: Hidden) => InjectOptions;
  /** For a route that answers AssetDocs: a request whose answer holds the visible asset. */
  fields?: (h: Hidden) => InjectOptions;
}
interface NoAssetRoute {
  none: string;
  /** What an id-like parameter of the route names instead of an asset (a config version, …). */
  idNames?: string;
}
type Row = AssetRoute | NoAssetRoute;

const api = '/assetportal/api/';
const get = (url: string): InjectOptions => ({ method: 'GET', url });

const matrix: Record<string, Row> = {
  [`GET ${api}search`]: {
    request: (h) => get(`${api}search?solr_q=*&id=${h.id}&solr_facetfields=keywords`),
    fields: (h) => get(`${api}search?solr_q=*&id=${h.visible}`),
  },
  [`GET ${api}assets`]: {
    request: (h) => get(`${api}assets?assetid=${h.id}`),
    fields: (h) => get(`${api}assets?assetid=${h.visible}`),
  },
  [`GET ${api}search/suggestions`]: { request: () => get(`${api}search/suggestions?text=${MARKER.slice(0, 4)}`) },
  [`GET ${api}collection`]: { request: () => get(`${api}collection?operation=list`) },
  [`GET ${api}collection/get`]: {
    request: (h) => get(`${api}collection/get?collection=collection_${h.collection}`),
    fields: (h) => get(`${api}collection/get?collection=collection_${h.visibleCollection}`),
  },
  [`GET ${api}config/thumbnail`]: { request: (h) => get(`${api}config/thumbnail?id=${h.id}`) },
  // Media files need a signature that AccessService made after a check; unsigned, they are refused.
  ['GET /media/thumb/:id']: { request: (h) => get(`/media/thumb/${h.id}`) },
  ['GET /media/preview/:id']: { request: (h) => get(`/media/preview/${h.id}`) },
  ['GET /media/preview/:id/:page']: { request: (h) => get(`/media/preview/${h.id}/2`) },
  ['GET /media/video/:id']: { request: (h) => get(`/media/video/${h.id}`) },
  ['GET /media/audio/:id']: { request: (h) => get(`/media/audio/${h.id}`) },
  ['GET /media/caption/:id/:track']: { request: (h) => get(`/media/caption/${h.id}/1`) },
  // Downloads (portal-spec §4 "Download flow"): the hidden asset is not found, or rejected from a zip.
  [`GET ${api}session/csets`]: { request: (h) => get(`${api}session/csets?asset_id=${h.id}`) },
  [`GET ${api}download/preview`]: { request: (h) => get(`${api}download/preview?id=${h.id}`) },
  [`GET ${api}download/`]: { request: (h) => get(`${api}download/?id=${h.id}&csetid=0`) },
  [`GET ${api}download`]: { request: (h) => get(`${api}download?operation=zip&csetid=0&id=${h.id}`) },
  [`POST ${api}download/zip`]: {
    request: (h) => ({ method: 'POST', url: `${api}download/zip`, payload: { csetid: 0, ids: [String(h.id)] } }),
  },
  [`GET ${api}download/video/:id`]: { request: (h) => get(`${api}download/video/${h.id}`) },
  [`POST ${api}download/order`]: {
    request: (h) => ({ method: 'POST', url: `${api}download/order`, payload: { id: [String(h.id)], message: 'm' } }),
  },
  ['GET /media/download/:id/:cset']: { request: (h) => get(`/media/download/${h.id}/0`) },
  ['GET /media/zip/:cset']: { request: (h) => get(`/media/zip/0?ids=${h.id}`) },
  // A zip list's reference is the hash of its ids: unsigned, the list of the hidden asset is refused.
  ['GET /media/zip/:cset/:ref']: { request: (h) => get(`/media/zip/0/${zipListRef(String(h.id))}`) },
  // Bookmarks (portal-spec §7 config/bookmarks): a hidden asset is neither accepted nor answered.
  [`GET ${api}config/bookmarks`]: { request: () => get(`${api}config/bookmarks`) },
  [`POST ${api}config/bookmarks`]: {
    request: (h) => ({ method: 'POST', url: `${api}config/bookmarks`, payload: [{ id: String(h.id) }] }),
  },
  // Share links (docs/security.md "Share links"): a link is made only of assets its creator may see.
  [`POST ${api}share/create`]: {
    request: (h) => ({ method: 'POST', url: `${api}share/create`, payload: { assetIds: [String(h.id)] } }),
  },
  [`GET ${api}share/list`]: { none: "the caller's own share links" },
  [`POST ${api}share/revoke`]: { none: "the caller's own share links", idNames: 'a share link' },
  [`POST ${api}share/open`]: { none: 'a session limited to a share link' },
  [`GET ${api}share/current`]: { none: "the share link of the caller's session" },
  [`GET ${api}share/settings`]: { none: "the caller's right to share" },

  // Editing (docs/editing.md): an editor changes, bins, restores and reads the history of only the
  // assets it may see; admins reset and remove only those.
  [`GET ${api}edit/options`]: { none: 'the editable fields, groups and DAM collections' },
  [`GET ${api}edit/asset`]: { request: (h) => ({ ...get(`${api}edit/asset?id=${h.id}`), headers: h.editor }) },
  [`POST ${api}edit/preview`]: {
    request: (h) => ({
      method: 'POST',
      url: `${api}edit/preview`,
      headers: h.editor,
      payload: { ids: [String(h.id)], changes: [{ field: 'creator', op: 'set', values: ['x'] }] },
    }),
  },
  [`POST ${api}edit/apply`]: {
    request: (h) => ({
      method: 'POST',
      url: `${api}edit/apply`,
      headers: h.editor,
      payload: { ids: [String(h.id)], changes: [{ field: 'creator', op: 'set', values: ['x'] }] },
    }),
  },
  [`POST ${api}edit/bin`]: {
    request: (h) => ({ method: 'POST', url: `${api}edit/bin`, headers: h.editor, payload: { ids: [String(h.id)] } }),
  },
  [`GET ${api}edit/bin`]: { request: (h) => ({ ...get(`${api}edit/bin`), headers: h.editor }) },
  [`POST ${api}edit/restore`]: {
    request: (h) => ({
      method: 'POST',
      url: `${api}edit/restore`,
      headers: h.editor,
      payload: { ids: [String(h.id)] },
    }),
  },
  [`POST ${api}edit/remove`]: {
    request: (h) => ({ method: 'POST', url: `${api}edit/remove`, headers: h.admin, payload: { ids: [String(h.id)] } }),
  },
  [`GET ${api}edit/history`]: { request: (h) => ({ ...get(`${api}edit/history?id=${h.id}`), headers: h.editor }) },
  [`POST ${api}edit/reset`]: {
    request: (h) => ({
      method: 'POST',
      url: `${api}edit/reset`,
      headers: h.admin,
      payload: { id: String(h.id), field: 'title' },
    }),
  },
  // A batch names its assets; its undo sets back only those the caller may edit (edit.routes.test.ts).
  [`POST ${api}edit/undo`]: { none: 'a batch of the edit history', idNames: 'a batch' },

  [`GET ${api}health`]: { none: 'server and database state' },
  [`GET ${api}ready`]: { none: 'readiness of search index and database' },
  [`GET ${api}info/check_version`]: { none: 'the version' },
  [`GET ${api}info/all_languages`]: { none: 'language names' },
  [`POST ${api}session/get`]: { none: 'sessions' },
  [`GET ${api}session/check`]: { none: 'sessions' },
  [`GET ${api}session/logout`]: { none: 'sessions' },
  [`GET ${api}session/set_locale`]: { none: 'sessions' },
  [`POST ${api}user/forgot-password`]: { none: 'accounts' },
  [`POST ${api}user/reset-password`]: { none: 'accounts' },
  [`GET ${api}config/global`]: { none: 'the portal configuration' },
  [`GET ${api}config`]: { none: 'which uploaded files exist' },
  [`GET ${api}config/translations`]: { none: 'texts' },
  [`GET ${api}config/style`]: { none: 'an uploaded file' },
  [`GET ${api}config/custom_font`]: { none: 'an uploaded file' },
  [`GET ${api}config/:name`]: { none: 'an uploaded image by its name' },
  [`GET ${api}index/fields`]: { none: 'the index fields' },
  [`GET ${api}collection/dam`]: { none: 'every DAM collection by id and name (admins)' },
  [`GET ${api}index/content_locales`]: { none: 'content languages' },
  [`GET ${api}config/global/stored`]: { none: 'the stored portal configuration (admins)' },
  [`POST ${api}config/global`]: { none: 'the portal configuration (admins)' },
  [`GET ${api}config/history`]: { none: 'saved configuration versions (admins)' },
  [`POST ${api}config/history/rollback`]: {
    none: 'saved configuration versions (admins)',
    idNames: 'a configuration version',
  },
  [`GET ${api}config/translations/stored`]: { none: 'the stored texts (admins)' },
  [`POST ${api}config/translations`]: { none: 'texts (admins)' },
  [`GET ${api}config/custom_html`]: { none: 'custom pages' },
  [`POST ${api}config/custom_html`]: { none: 'custom pages (admins)' },
  [`POST ${api}config/:name`]: { none: 'uploaded files (admins)', idNames: 'a collection tile image' },
  [`GET ${api}info/downloads`]: { none: "the caller's download settings" },
  // Uploads (docs/security.md "Uploads"): an editor's own files on their way in; the last PATCH
  // answers the id of the asset the caller's file just became.
  [`POST ${api}upload/files`]: { none: 'a new upload of an editor' },
  [`PATCH ${api}upload/files/:id`]: { none: "the caller's own uploads", idNames: 'an upload' },
  [`DELETE ${api}upload/files/:id`]: { none: "the caller's own uploads", idNames: 'an upload' },
  [`POST ${api}edit/collection`]: { none: 'DAM collections uploads go into (editors)' },
  // The duplicates report (issue #52): the hidden asset has a visible copy, and the editor, who may
  // not see the hidden one, hears of no group at all.
  [`GET ${api}alike/duplicates`]: {
    request: (h) => ({ ...get(`${api}alike/duplicates`), headers: h.editor }),
  },
  // Statistics (docs/security.md "Statistics"): a view is counted of an asset the caller sees; the
  // admin's report names assets by id and gives titles only of those the admin may see.
  [`POST ${api}insights/view`]: {
    request: (h) => ({ method: 'POST', url: `${api}insights/view`, payload: { id: String(h.id) } }),
  },
  [`GET ${api}admin/insights`]: { request: (h) => ({ ...get(`${api}admin/insights?days=7`), headers: h.admin }) },
  // Groups and their rights (issue #50): they name groups and count assets, never name one.
  [`GET ${api}admin/groups`]: { none: 'user groups (admins)' },
  [`POST ${api}admin/groups`]: { none: 'user groups (admins)' },
  [`POST ${api}admin/groups/:name`]: { none: 'user groups (admins)' },
  [`DELETE ${api}admin/groups/:name`]: { none: 'user groups (admins)' },
  [`GET ${api}admin/groups/history`]: { none: 'versions of the user groups (admins)' },
  [`POST ${api}admin/groups/rollback/:id`]: {
    none: 'versions of the user groups (admins)',
    idNames: 'a version of the groups',
  },
  // People (docs/security.md "People"): accounts, their groups and what they own, counted (admins).
  [`GET ${api}admin/people`]: { none: 'accounts (admins)' },
  [`POST ${api}admin/people`]: { none: 'accounts (admins)' },
  [`GET ${api}admin/people/:id`]: {
    none: 'an account and counts of its bookmarks and links (admins)',
    idNames: 'an account',
  },
  [`POST ${api}admin/people/:id`]: { none: 'an account (admins)', idNames: 'an account' },
  [`DELETE ${api}admin/people/:id`]: {
    none: 'an account with its bookmarks and links (admins)',
    idNames: 'an account',
  },
};

/** Routes the server gets from plugins: the OpenAPI document and its viewer, single sign-on, the web app. */
const noAssetPrefixes: [prefix: string, reason: string][] = [
  [`${api}docs`, 'the OpenAPI document'],
  [`${api}sso/`, 'single sign-on redirects'],
];
const isWebApp = (url: string) => !url.startsWith(api) && !url.startsWith('/media/');

const idLike = /^(id|ids|asset|assets|assetid|asset_id|assetids)$/i;

/** Whether a zod schema holds `target` anywhere inside it (object shapes, arrays, unions, …). */
function holds(schema: unknown, target: unknown, seen = new Set<unknown>()): boolean {
  if (schema === target) return true;
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return false;
  seen.add(schema);
  const def = (schema as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  const parts = def ? Object.values(def) : Array.isArray(schema) ? schema : Object.values(schema);
  return parts.some((p) => holds(p, target, seen));
}

function keysOf(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
}

/** Why a route may not be listed as naming no asset, if it may not. */
function looksLikeAssetRoute(route: RouteOptions, idNames?: string): string | undefined {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const params = [
    ...keysOf(schema.querystring),
    ...keysOf(schema.body),
    ...keysOf(schema.params),
    ...[...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? ''),
  ];
  const named = idNames === undefined ? params.find((p) => idLike.test(p)) : undefined;
  if (named) return `its request has the parameter '${named}'`;
  const response = (schema.response as Record<string, unknown> | undefined)?.[200];
  if (holds(response, assetDocSchema)) return 'it answers assets';
  return undefined;
}

const keyOf = (route: { method: string | string[]; url: string }, method: string) => `${method} ${route.url}`;

/** The problems of the registered routes: unlisted ones, wrongly listed ones, ones that skip the rule. */
async function audit(t: TestApp, routes: RouteOptions[], hidden: Hidden, headers: Record<string, string>) {
  const problems: string[] = [];
  const checked: string[] = [];
  const methods = Object.getOwnPropertyNames(AccessService.prototype).filter((n) => n !== 'constructor');
  for (const route of routes) {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const key = keyOf(route, method);
      const row = matrix[key];
      const prefix = noAssetPrefixes.find(([p]) => route.url.startsWith(p));
      if (!row) {
        if (prefix || isWebApp(route.url)) {
          const why = looksLikeAssetRoute(route);
          if (why) problems.push(`${key} is taken for ${prefix?.[1] ?? 'the web app'}, but ${why}`);
          continue;
        }
        problems.push(`${key} is not in the access matrix (test/access-matrix.test.ts): add its row`);
        continue;
      }
      if ('none' in row) {
        const why = looksLikeAssetRoute(route, row.idNames);
        if (why) problems.push(`${key} is listed as naming no asset, but ${why}`);
        continue;
      }
      checked.push(key);
      const spies = methods.map((m) => vi.spyOn(AccessService.prototype, m as keyof AccessService));
      try {
        const request = row.request(hidden);
        const res = await t.app.inject({ ...request, headers: { ...headers, ...request.headers } });
        const asked = spies.some((s) => s.mock.calls.length > 0);
        if (!asked) problems.push(`${key} answered without asking AccessService`);
        const leak = [res.body, String(res.headers.location ?? '')].some(
          (text) => text.includes(MARKER) || text.includes(`/${hidden.id}?`),
        );
        if (leak) problems.push(`${key} showed the hidden asset to a caller who may not see it (${res.statusCode})`);
        if (res.statusCode >= 500) problems.push(`${key} failed with ${res.statusCode}: ${res.body}`);
      } finally {
        for (const s of spies) s.mockRestore();
      }
      const answersAssets = holds(
        ((route.schema ?? {}) as { response?: Record<string, unknown> }).response?.[200],
        assetDocSchema,
      );
      if (!answersAssets) continue;
      if (!row.fields) {
        problems.push(`${key} answers assets, but its row has no \`fields\` request (a visible asset)`);
        continue;
      }
      const asked = vi.spyOn(AccessService.prototype, 'hiddenFields');
      try {
        const request = row.fields(hidden);
        const res = await t.app.inject({ ...request, headers: { ...headers, ...request.headers } });
        if (!res.body.includes(SEEN_MARKER))
          problems.push(`${key}: its fields request did not answer the visible asset`);
        if (asked.mock.calls.length === 0) problems.push(`${key} answered asset fields without asking hiddenFields`);
        if (res.body.includes(FIELD_MARKER)) problems.push(`${key} showed a field the caller may not see`);
      } finally {
        asked.mockRestore();
      }
    }
  }
  return { problems, checked };
}

describe('access matrix: every route that names or answers assets asks the access rule', () => {
  let t: TestApp;
  const routes: RouteOptions[] = [];
  let hidden: Hidden;
  let headers: Record<string, string>;

  const settings = {
    groups: [
      { name: 'public', portalAccess: true },
      { name: 'users', portalAccess: true },
      { name: 'secret', portalAccess: true },
      { name: 'editors', portalAccess: true },
      { name: 'admins', portalAccess: true, guiAdmin: true },
    ],
    fields: [
      {
        field_name: 'project',
        default_labels: { en: 'Project' },
        is_facet: true,
        range_facet: false,
        multi_valued: false,
        origin: 'settings',
        type: 'string',
        visibleTo: ['secret'],
      },
    ],
  };

  beforeAll(async () => {
    // GET /metrics is not among these routes: it is served by a listener of its own on METRICS_PORT
    // (metrics/metrics-listener.ts), never by this app, and it names no asset.
    t = await startTestApp({ settings, onRoute: (r) => routes.push(r) });
    const collection = await buildCollection(t.app.db, `${MARKER} collection`);
    const id = await buildAsset(t.app.db, {
      filename: `${MARKER}.jpg`,
      sha256: HIDDEN_SHA256,
      access: ['secret'],
      collections: [collection],
      values: { title: { en: `${MARKER} title` }, keywords: { en: [MARKER] } },
    });
    // The same file as a visible asset: the two are duplicates, but only for those who see both.
    await buildAsset(t.app.db, { filename: 'copy.jpg', sha256: HIDDEN_SHA256, access: ['users'] });
    const visibleCollection = await buildCollection(t.app.db, 'open collection');
    const visible = await buildAsset(t.app.db, {
      filename: 'open.jpg',
      access: ['users'],
      collections: [visibleCollection],
      values: { title: { en: `${SEEN_MARKER} open` }, project: FIELD_MARKER },
    });
    headers = (await signIn(t, { groups: ['users'] })).headers;
    const editor = (await signIn(t, { groups: ['users', 'editors'] })).headers;
    const admin = (await signIn(t, { groups: ['users', 'admins'] })).headers;
    hidden = { id, collection, visible, visibleCollection, editor, admin };
    // The order process is on, so the order call gets as far as asking about the assets.
    await t.app.services.repositories.config.put('global', '', { global: { run_order_process: true } });
    await t.app.ready();
  });
  afterAll(async () => t.close());
  afterEach(() => vi.restoreAllMocks());

  it('lists every registered route, and every asset route asks AccessService and hides the asset', async () => {
    expect(routes.length).toBeGreaterThan(20);
    const { problems, checked } = await audit(t, routes, hidden, headers);
    expect(problems).toEqual([]);
    const assetRows = Object.entries(matrix).filter(([, row]) => 'request' in row);
    expect(checked.sort()).toEqual(assetRows.map(([key]) => key).sort());
  });

  it('lists only routes the server registers', () => {
    const registered = new Set(routes.flatMap((r) => [r.method].flat().map((m) => keyOf(r, m))));
    expect(Object.keys(matrix).filter((k) => !registered.has(k))).toEqual([]);
  });

  it('fails for a route that does not ask the access rule', async () => {
    const rogueRoutes: RouteOptions[] = [];
    const rogue = await startTestApp({ settings, onRoute: (r) => rogueRoutes.push(r) });
    try {
      const id = await buildAsset(rogue.app.db, { filename: `${MARKER}.jpg`, access: ['secret'] });
      // A new call that reads assets straight from the database, past the access rule.
      rogue.app.get<{ Querystring: { assetid: string } }>(`${api}rogue`, async (request) =>
        rogue.app.db.kysely
          .selectFrom('asset')
          .select('filename')
          .where('id', '=', Number(request.query.assetid))
          .execute(),
      );
      await rogue.app.ready();
      const own = (await signIn(rogue, { groups: ['users'] })).headers;
      const target = { id, collection: 0, visible: 0, visibleCollection: 0, editor: own, admin: own };
      const { problems: unlisted } = await audit(rogue, rogueRoutes, target, own);
      expect(unlisted).toContain(
        `GET ${api}rogue is not in the access matrix (test/access-matrix.test.ts): add its row`,
      );

      matrix[`GET ${api}rogue`] = { request: (h) => get(`${api}rogue?assetid=${h.id}`) };
      const { problems: listed } = await audit(rogue, rogueRoutes, target, own);
      expect(listed).toEqual(
        expect.arrayContaining([
          `GET ${api}rogue answered without asking AccessService`,
          `GET ${api}rogue showed the hidden asset to a caller who may not see it (200)`,
        ]),
      );
    } finally {
      delete matrix[`GET ${api}rogue`];
      await rogue.close();
    }
  });
});
