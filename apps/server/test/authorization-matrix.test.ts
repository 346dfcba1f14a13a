import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH, type CallDefinition } from '@vitrine/contract/call';
import * as alike from '@vitrine/contract/alike';
import * as bookmark from '@vitrine/contract/bookmark';
import * as collection from '@vitrine/contract/collection';
import * as config from '@vitrine/contract/config';
import * as download from '@vitrine/contract/download';
import * as edit from '@vitrine/contract/edit';
import * as groups from '@vitrine/contract/groups';
import { defaultGlobalConfig } from '@vitrine/contract/global-config';
import * as info from '@vitrine/contract/info';
import * as insights from '@vitrine/contract/insights';
import * as people from '@vitrine/contract/people';
import * as search from '@vitrine/contract/search';
import * as session from '@vitrine/contract/session';
import * as share from '@vitrine/contract/share';
import { startTestApp, type TestApp } from './app.ts';
import { signIn, xsrfHeaders } from './auth.ts';
import { contractCalls } from './calls.ts';

/**
 * Who may call what (portal-spec §6 "Roles and permissions", §7 interceptor, admin-spec §2 "Admin
 * entry guard"). One row per registered call; every role gets the status the spec's interceptor
 * expects: 401 = log in (again), 403 = logged in but not allowed. When you register a new call, add
 * its row here: the last test fails for any registered call without one.
 */
const roles = ['guest', 'expired', 'assetUser', 'adminAssetUser', 'adminOnly', 'otherGroup', 'noGroup'] as const;
type Role = (typeof roles)[number];

/** The groups each role's user belongs to (see the settings below); guests and expired tokens have none. */
const groupsOf: Record<Exclude<Role, 'guest' | 'expired'>, string[]> = {
  assetUser: ['users'],
  adminAssetUser: ['admins'],
  adminOnly: ['gui'],
  otherGroup: ['partners'],
  noGroup: [],
};

interface Row {
  call: CallDefinition;
  query?: Record<string, string>;
  params?: Record<string, string>;
  body?: unknown;
  /** One status for all roles, or one per role. */
  status: number | Record<Role, number>;
  /** Further checks of the answer per role. */
  answer?: Partial<Record<Role, unknown>>;
}

const everyone = (status: number): Record<Role, number> =>
  Object.fromEntries(roles.map((r) => [r, status])) as Record<Role, number>;

/** Calls for asset users: 401 without a valid session, 403 for accounts without portal access. */
const portal: Record<Role, number> = { ...everyone(200), expired: 401, adminOnly: 403, noGroup: 403 };

/** Calls about one asset that does not exist (or that the caller may not see). */
const portalNotFound: Record<Role, number> = {
  ...portal,
  guest: 404,
  assetUser: 404,
  adminAssetUser: 404,
  otherGroup: 404,
};
/** Admin calls (admin-spec §6): 401 without a session, 403 for everyone but GUI admins. */
const adminOnly = (status: number): Record<Role, number> => ({
  ...everyone(403),
  guest: 401,
  expired: 401,
  adminAssetUser: status,
  adminOnly: status,
});

/**
 * Editing calls (docs/editing.md): like admin calls, but a guest is refused (403), not asked to log
 * in: editing is never offered to callers without an editor's account (issue #49).
 */
const editorOnly = (status: number): Record<Role, number> => ({ ...adminOnly(status), guest: 403 });

/** An edit of an asset that does not exist. */
const titleEdit = { ids: ['999'], changes: [{ field: 'title', op: 'set', values: ['x'] }] };

const matrix: Row[] = [
  { call: info.healthCall, status: 200 },
  // Open to everyone; this app has not loaded its search index, so everyone hears 503 unavailable.
  { call: info.readyCall, status: 503 },
  { call: info.checkVersionCall, status: 200 },
  { call: info.allLanguagesCall, query: { lang: 'en' }, status: 200 },
  {
    call: session.getSessionCall,
    status: 200,
    answer: {
      guest: { user: null, isAssetUser: true, isGuiAdmin: false },
      expired: { user: null, isAssetUser: true, isGuiAdmin: false },
      assetUser: { isAssetUser: true, isGuiAdmin: false },
      adminAssetUser: { isAssetUser: true, isGuiAdmin: true },
      adminOnly: { isAssetUser: false, isGuiAdmin: true },
      otherGroup: { isAssetUser: true, isGuiAdmin: false },
      noGroup: { isAssetUser: false, isGuiAdmin: false },
    },
  },
  {
    call: session.checkSessionCall,
    status: 200,
    answer: {
      guest: { isGuiAdmin: false, sessionValid: false },
      expired: { isGuiAdmin: false, sessionValid: false },
      assetUser: { isGuiAdmin: false, sessionValid: true },
      adminAssetUser: { isGuiAdmin: true, sessionValid: true },
      adminOnly: { isGuiAdmin: true, sessionValid: true },
      otherGroup: { isGuiAdmin: false, sessionValid: true },
      noGroup: { isGuiAdmin: false, sessionValid: true },
    },
  },
  { call: session.setLocaleCall, query: { locale: 'en' }, status: { ...everyone(200), expired: 401 } },
  { call: session.forgotPasswordCall, body: { user: 'someone' }, status: 200 },
  // Anyone may try a reset link; a wrong one is refused (400 link_invalid) whoever asks.
  { call: session.resetPasswordCall, body: { token: 'not-a-reset-token', pass: 'long enough' }, status: 400 },
  // The config is read before login (login page, texts), so anyone may read it; nothing here writes.
  { call: config.getGlobalConfigCall, status: 200 },
  { call: config.availableFilesCall, status: 200 },
  { call: config.listTranslationsCall, status: 200 },
  { call: config.listTranslationsCall, query: { lang: 'de' }, status: 200 },
  { call: config.configImageCall, params: { name: 'logo' }, status: 404 },
  { call: config.configStyleCall, status: 404 },
  { call: config.configFontCall, status: 404 },
  { call: config.configThumbnailCall, query: { id: '999' }, status: 404 },
  { call: config.customPageCall, status: 200 },
  { call: config.customPageCall, query: { lang: 'de' }, status: 404 },
  // Writing the config belongs to GUI admins (admin-spec §6 "Roles and permissions").
  { call: config.storedConfigCall, status: adminOnly(200) },
  { call: config.saveGlobalConfigCall, body: defaultGlobalConfig, status: adminOnly(200) },
  { call: config.configHistoryCall, status: adminOnly(200) },
  { call: config.configRollbackCall, body: { id: 999999 }, status: adminOnly(404) },
  { call: config.storedTranslationsCall, status: adminOnly(200) },
  { call: config.saveTranslationsCall, query: { lang: 'de' }, body: {}, status: adminOnly(200) },
  { call: config.saveCustomPageCall, query: { lang: 'de' }, body: { heading: 'h', html: '' }, status: adminOnly(200) },
  { call: config.uploadConfigFileCall, params: { name: 'logo' }, status: adminOnly(200) },
  // The catalogue is for asset users only (portal-spec §6).
  { call: search.searchCall, query: { solr_q: '*' }, status: portal },
  { call: search.assetsCall, query: { assetid: '1' }, status: portal },
  // The admin area reads the index fields too (admin-spec §2 "Admin entry guard").
  { call: search.indexFieldsCall, status: { ...portal, adminOnly: 200 } },
  { call: search.contentLocalesCall, status: { ...portal, adminOnly: 200 } },
  { call: search.suggestionsCall, query: { text: 'ab' }, status: portal },
  { call: collection.listCollectionsCall, query: { operation: 'list' }, status: portal },
  // Every DAM collection by name, for the admin who chooses those the dashboard shows.
  { call: collection.damCollectionsCall, status: adminOnly(200) },
  {
    call: collection.getCollectionCall,
    query: { collection: 'collection_1' },
    status: { ...portal, assetUser: 404, adminAssetUser: 404, otherGroup: 404, guest: 404 },
  },
  // Downloads (portal-spec §4 "Download flow"): an asset the caller may not see (here: none exists)
  // is 404 for asset users; a zip names it in rejected_asset_ids.
  { call: session.convertSetsCall, query: { asset_id: '999' }, status: portalNotFound },
  { call: info.downloadInfoCall, status: portal },
  { call: download.previewCall, query: { id: '999' }, status: portalNotFound },
  { call: download.downloadCall, query: { id: '999', csetid: '0' }, status: portalNotFound },
  {
    call: download.zipDownloadCall,
    query: { operation: 'zip', csetid: '0', id: '999' },
    status: portal,
    answer: { guest: { rejected_asset_ids: ['999'] }, assetUser: { rejected_asset_ids: ['999'] } },
  },
  // The same zip of a list sent in the body (decision 0269).
  {
    call: download.zipListCall,
    body: { csetid: 0, ids: ['999'] },
    status: portal,
    answer: { guest: { rejected_asset_ids: ['999'] }, assetUser: { rejected_asset_ids: ['999'] } },
  },
  { call: download.videoCall, params: { id: '999' }, status: portalNotFound },
  // The order process is off until an admin enables run_order_process.
  { call: download.orderCall, body: { id: ['999'], message: 'm' }, status: { ...everyone(403), expired: 401 } },
  // Bookmarks are per user (portal-spec §6): guests keep theirs in the browser, so they must log in.
  { call: bookmark.getBookmarksCall, status: { ...portal, guest: 401 }, answer: { assetUser: [] } },
  { call: bookmark.saveBookmarksCall, body: [], status: { ...portal, guest: 401 }, answer: { assetUser: [] } },
  // Share links (docs/security.md "Share links"): groups named in shareLinks.groups (default users,
  // admins) create them; every logged-in user lists and revokes only their own.
  {
    call: share.shareSettingsCall,
    status: portal,
    answer: { guest: { mayCreate: false }, assetUser: { mayCreate: true }, otherGroup: { mayCreate: false } },
  },
  {
    call: share.createShareCall,
    body: { assetIds: ['999'] },
    status: { ...everyone(403), guest: 401, expired: 401, assetUser: 400, adminAssetUser: 400 },
  },
  { call: share.listSharesCall, status: { ...portal, guest: 401 }, answer: { assetUser: { shares: [] } } },
  {
    call: share.revokeShareCall,
    body: { id: 999 },
    status: { ...portal, guest: 401, assetUser: 404, adminAssetUser: 404, otherGroup: 404 },
  },
  // Anyone may try a link; an unknown one is not found.
  { call: share.openShareCall, body: { token: 'x'.repeat(43) }, status: 404 },
  { call: share.currentShareCall, status: { ...everyone(404), expired: 401 } },
  // Editing (docs/editing.md): editors are the editors group and admins; no role here is in the
  // group, so admins get through (a missing asset or batch is 404) and every other account hears 403.
  { call: edit.editOptionsCall, status: editorOnly(200) },
  { call: edit.editAssetCall, query: { id: '999' }, status: editorOnly(404) },
  { call: edit.editPreviewCall, body: titleEdit, status: editorOnly(404) },
  { call: edit.editApplyCall, body: titleEdit, status: editorOnly(404) },
  { call: edit.binAssetsCall, body: { ids: ['999'] }, status: editorOnly(404) },
  { call: edit.restoreAssetsCall, body: { ids: ['999'] }, status: editorOnly(404) },
  { call: edit.binListCall, status: editorOnly(200), answer: { adminAssetUser: { total: 0, assets: [] } } },
  { call: edit.removeAssetsCall, body: { ids: ['999'] }, status: editorOnly(404) },
  { call: edit.editHistoryCall, query: { id: '999' }, status: editorOnly(404) },
  { call: edit.undoEditCall, body: { batch: 999 }, status: editorOnly(404) },
  { call: edit.resetFieldCall, body: { id: '999', field: 'title' }, status: editorOnly(404) },
  { call: edit.createCollectionCall, body: { name: 'Uploads' }, status: editorOnly(200) },
  // The duplicates report (issue #52) is the editors' like the editing calls.
  { call: alike.duplicatesCall, status: editorOnly(200), answer: { adminAssetUser: { total: 0, groups: [] } } },
  // Statistics (docs/security.md "Statistics"): the report is the admins'; any portal user's asset
  // page counts a view, of an asset the caller may see (this one does not exist).
  { call: insights.insightsCall, status: adminOnly(200) },
  { call: insights.insightViewCall, body: { id: '999' }, status: portalNotFound },
  // Groups and their rights (issue #50): admins only. The changes are refused after the check of
  // the caller (a group that does not exist, a version that does not exist, a group still named).
  { call: groups.listGroupsCall, status: adminOnly(200) },
  { call: groups.createGroupCall, body: { name: 'x', downloadSets: [999] }, status: adminOnly(400) },
  { call: groups.changeGroupCall, params: { name: 'nonesuch' }, body: { shareLinks: true }, status: adminOnly(404) },
  { call: groups.removeGroupCall, params: { name: 'users' }, status: adminOnly(409) },
  { call: groups.groupHistoryCall, status: adminOnly(200) },
  { call: groups.groupRollbackCall, params: { id: '999999' }, status: adminOnly(404) },
  // People (docs/security.md "People"): the admins'; an account that does not exist is 404 to them.
  { call: people.peopleCall, status: adminOnly(200) },
  { call: people.personCall, params: { id: '999999' }, status: adminOnly(404) },
  {
    call: people.createPersonCall,
    body: { name: 'invited', email: 'invited@example.org', groups: ['nosuchgroup'] },
    status: adminOnly(400),
  },
  { call: people.updatePersonCall, params: { id: '999999' }, body: { disabled: true }, status: adminOnly(404) },
  {
    call: people.deletePersonCall,
    params: { id: '999999' },
    query: { bookmarks: '0', shareLinks: '0' },
    status: adminOnly(404),
  },
  // Last, because it ends the session.
  { call: session.logoutCall, status: 200 },
];

describe('authorization matrix (portal-spec §6 "Roles and permissions", §7 "Calls")', () => {
  let t: TestApp;
  const headers = {} as Record<Role, Record<string, string>>;

  beforeAll(async () => {
    const settings = {
      // Every role asks for a reset mail for the same name.
      login: { resetMailsPerAccount: 20 },
      groups: [
        { name: 'public', portalAccess: true },
        { name: 'users', portalAccess: true },
        { name: 'admins', portalAccess: true, guiAdmin: true },
        { name: 'gui', portalAccess: false, guiAdmin: true },
        { name: 'partners', portalAccess: true },
      ],
    };
    t = await startTestApp({ settings });
    headers.guest = { ...xsrfHeaders };
    headers.expired = { ...xsrfHeaders, authorization: 'Bearer expired-or-unknown-token' };
    for (const [role, groups] of Object.entries(groupsOf)) {
      headers[role as Role] = (await signIn(t, { name: role, groups })).headers;
    }
  });
  afterAll(async () => t.close());

  for (const row of matrix) {
    for (const role of roles) {
      const status = typeof row.status === 'number' ? row.status : row.status[role];
      it(`${row.call.method} ${row.call.path} as ${role} → ${status}`, async () => {
        const res = await t.app.inject({
          method: row.call.method,
          url: API_BASE_PATH + row.call.path.replace(/:(\w+)/g, (_m, n: string) => row.params?.[n] ?? ''),
          query: row.query,
          headers: headers[role],
          ...(row.body === undefined ? {} : { payload: row.body as object }),
        });
        expect(res.statusCode, res.body).toBe(status);
        if (status >= 400) expect(res.json()).toHaveProperty('error');
        const answer = row.answer?.[role];
        if (answer) expect(res.json()).toMatchObject(answer);
      });
    }
  }

  it('has a row for every call the server registers', () => {
    const covered = new Set(matrix.map((r) => r.call));
    const registered = contractCalls.filter((c) => t.app.hasRoute({ method: c.method, url: API_BASE_PATH + c.path }));
    expect(registered.length).toBeGreaterThanOrEqual(covered.size);
    expect(registered.filter((c) => !covered.has(c)).map((c) => `${c.method} ${c.path}`)).toEqual([]);
  });
});
