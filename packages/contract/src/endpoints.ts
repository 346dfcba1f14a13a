import type * as alike from './alike.ts';
import type { CallDefinition } from './call.ts';
import type * as bookmark from './bookmark.ts';
import type * as collection from './collection.ts';
import type * as config from './config.ts';
import type * as download from './download.ts';
import type * as edit from './edit.ts';
import type * as groups from './groups.ts';
import type * as info from './info.ts';
import type * as insights from './insights.ts';
import type * as people from './people.ts';
import type * as search from './search.ts';
import type * as session from './session.ts';
import type * as share from './share.ts';

/**
 * Where each call of the portal API lives (method and path), without its schemas, for the browser.
 * The web app reads only these at run time and takes the request and answer types from the calls
 * (`import type`), so zod is not part of its JavaScript; the server validates every request and
 * serialises every answer with the calls' schemas. `endpoints.test.ts` checks each entry against
 * its call.
 */
export interface Endpoint<C extends CallDefinition = CallDefinition> {
  readonly method: C['method'];
  readonly path: string;
  /** Never set: carries the call's types to the web client. */
  readonly call?: C;
}

/** Calls' paths are relative to this. */
export const API_BASE_PATH = '/assetportal/api/';

/** The most rows one search call answers. */
export const MAX_SEARCH_ROWS = 1000;

/** One facet's value order in a search call's `facet_sort`: 'field:count|alphabetical:asc|desc'. */
export const facetSortEntry = (field: string, order: search.FacetOrder): string =>
  `${field}:${order.sort}:${order.orientation}`;

/** The shortest password a share link may have: it guards the link against anyone who learns its address. */
export const SHARE_PASSWORD_MIN_LENGTH = 8;

/** The most assets one edit, bin, restore or removal may name. */
export const MAX_EDIT_ASSETS = 10_000;
/** The most rows one page of the bin answers. */
export const MAX_BIN_ROWS = 200;
/** The most groups one page of the duplicates report answers. */
export const MAX_DUPLICATE_GROUPS = 50;

/** Where uploads go (tus, edit.ts says what they carry), relative to API_BASE_PATH. */
export const UPLOAD_PATH = 'upload/files';
/** The answer header of an upload's last request that names the new asset's id. */
export const UPLOAD_ASSET_HEADER = 'Vitrine-Asset-Id';

/* @__NO_SIDE_EFFECTS__ */
const endpoint = <C extends CallDefinition>(method: C['method'], path: string): Endpoint<C> => ({ method, path });

export const duplicatesCall = endpoint<typeof alike.duplicatesCall>('GET', 'alike/duplicates');
export const getBookmarksCall = endpoint<typeof bookmark.getBookmarksCall>('GET', 'config/bookmarks');
export const saveBookmarksCall = endpoint<typeof bookmark.saveBookmarksCall>('POST', 'config/bookmarks');
export const damCollectionsCall = endpoint<typeof collection.damCollectionsCall>('GET', 'collection/dam');
export const getCollectionCall = endpoint<typeof collection.getCollectionCall>('GET', 'collection/get');
export const listCollectionsCall = endpoint<typeof collection.listCollectionsCall>('GET', 'collection');
export const availableFilesCall = endpoint<typeof config.availableFilesCall>('GET', 'config');
export const configFontCall = endpoint<typeof config.configFontCall>('GET', 'config/custom_font');
export const configHistoryCall = endpoint<typeof config.configHistoryCall>('GET', 'config/history');
export const configImageCall = endpoint<typeof config.configImageCall>('GET', 'config/:name');
export const configRollbackCall = endpoint<typeof config.configRollbackCall>('POST', 'config/history/rollback');
export const configStyleCall = endpoint<typeof config.configStyleCall>('GET', 'config/style');
export const configThumbnailCall = endpoint<typeof config.configThumbnailCall>('GET', 'config/thumbnail');
export const customPageCall = endpoint<typeof config.customPageCall>('GET', 'config/custom_html');
export const getGlobalConfigCall = endpoint<typeof config.getGlobalConfigCall>('GET', 'config/global');
export const listTranslationsCall = endpoint<typeof config.listTranslationsCall>('GET', 'config/translations');
export const saveCustomPageCall = endpoint<typeof config.saveCustomPageCall>('POST', 'config/custom_html');
export const saveGlobalConfigCall = endpoint<typeof config.saveGlobalConfigCall>('POST', 'config/global');
export const saveTranslationsCall = endpoint<typeof config.saveTranslationsCall>('POST', 'config/translations');
export const storedConfigCall = endpoint<typeof config.storedConfigCall>('GET', 'config/global/stored');
export const storedTranslationsCall = endpoint<typeof config.storedTranslationsCall>(
  'GET',
  'config/translations/stored',
);
export const uploadConfigFileCall = endpoint<typeof config.uploadConfigFileCall>('POST', 'config/:name');
export const downloadCall = endpoint<typeof download.downloadCall>('GET', 'download/');
export const orderCall = endpoint<typeof download.orderCall>('POST', 'download/order');
export const previewCall = endpoint<typeof download.previewCall>('GET', 'download/preview');
export const videoCall = endpoint<typeof download.videoCall>('GET', 'download/video/:id');
export const zipDownloadCall = endpoint<typeof download.zipDownloadCall>('GET', 'download');
export const zipListCall = endpoint<typeof download.zipListCall>('POST', 'download/zip');
export const editOptionsCall = endpoint<typeof edit.editOptionsCall>('GET', 'edit/options');
export const editAssetCall = endpoint<typeof edit.editAssetCall>('GET', 'edit/asset');
export const editPreviewCall = endpoint<typeof edit.editPreviewCall>('POST', 'edit/preview');
export const editApplyCall = endpoint<typeof edit.editApplyCall>('POST', 'edit/apply');
export const binAssetsCall = endpoint<typeof edit.binAssetsCall>('POST', 'edit/bin');
export const restoreAssetsCall = endpoint<typeof edit.restoreAssetsCall>('POST', 'edit/restore');
export const binListCall = endpoint<typeof edit.binListCall>('GET', 'edit/bin');
export const removeAssetsCall = endpoint<typeof edit.removeAssetsCall>('POST', 'edit/remove');
export const editHistoryCall = endpoint<typeof edit.editHistoryCall>('GET', 'edit/history');
export const undoEditCall = endpoint<typeof edit.undoEditCall>('POST', 'edit/undo');
export const resetFieldCall = endpoint<typeof edit.resetFieldCall>('POST', 'edit/reset');
export const createCollectionCall = endpoint<typeof edit.createCollectionCall>('POST', 'edit/collection');
export const allLanguagesCall = endpoint<typeof info.allLanguagesCall>('GET', 'info/all_languages');
export const checkVersionCall = endpoint<typeof info.checkVersionCall>('GET', 'info/check_version');
export const downloadInfoCall = endpoint<typeof info.downloadInfoCall>('GET', 'info/downloads');
export const healthCall = endpoint<typeof info.healthCall>('GET', 'health');
export const readyCall = endpoint<typeof info.readyCall>('GET', 'ready');
export const insightsCall = endpoint<typeof insights.insightsCall>('GET', 'admin/insights');
export const insightViewCall = endpoint<typeof insights.insightViewCall>('POST', 'insights/view');
export const peopleCall = endpoint<typeof people.peopleCall>('GET', 'admin/people');
export const personCall = endpoint<typeof people.personCall>('GET', 'admin/people/:id');
export const createPersonCall = endpoint<typeof people.createPersonCall>('POST', 'admin/people');
export const updatePersonCall = endpoint<typeof people.updatePersonCall>('POST', 'admin/people/:id');
export const deletePersonCall = endpoint<typeof people.deletePersonCall>('DELETE', 'admin/people/:id');
export const listGroupsCall = endpoint<typeof groups.listGroupsCall>('GET', 'admin/groups');
export const createGroupCall = endpoint<typeof groups.createGroupCall>('POST', 'admin/groups');
export const changeGroupCall = endpoint<typeof groups.changeGroupCall>('POST', 'admin/groups/:name');
export const removeGroupCall = endpoint<typeof groups.removeGroupCall>('DELETE', 'admin/groups/:name');
export const groupHistoryCall = endpoint<typeof groups.groupHistoryCall>('GET', 'admin/groups/history');
export const groupRollbackCall = endpoint<typeof groups.groupRollbackCall>('POST', 'admin/groups/rollback/:id');
export const assetsCall = endpoint<typeof search.assetsCall>('GET', 'assets');
export const contentLocalesCall = endpoint<typeof search.contentLocalesCall>('GET', 'index/content_locales');
export const indexFieldsCall = endpoint<typeof search.indexFieldsCall>('GET', 'index/fields');
export const searchCall = endpoint<typeof search.searchCall>('GET', 'search');
export const suggestionsCall = endpoint<typeof search.suggestionsCall>('GET', 'search/suggestions');
export const checkSessionCall = endpoint<typeof session.checkSessionCall>('GET', 'session/check');
export const convertSetsCall = endpoint<typeof session.convertSetsCall>('GET', 'session/csets');
export const forgotPasswordCall = endpoint<typeof session.forgotPasswordCall>('POST', 'user/forgot-password');
export const getSessionCall = endpoint<typeof session.getSessionCall>('POST', 'session/get');
export const logoutCall = endpoint<typeof session.logoutCall>('GET', 'session/logout');
export const resetPasswordCall = endpoint<typeof session.resetPasswordCall>('POST', 'user/reset-password');
export const setLocaleCall = endpoint<typeof session.setLocaleCall>('GET', 'session/set_locale');
export const createShareCall = endpoint<typeof share.createShareCall>('POST', 'share/create');
export const currentShareCall = endpoint<typeof share.currentShareCall>('GET', 'share/current');
export const listSharesCall = endpoint<typeof share.listSharesCall>('GET', 'share/list');
export const openShareCall = endpoint<typeof share.openShareCall>('POST', 'share/open');
export const revokeShareCall = endpoint<typeof share.revokeShareCall>('POST', 'share/revoke');
export const shareSettingsCall = endpoint<typeof share.shareSettingsCall>('GET', 'share/settings');
