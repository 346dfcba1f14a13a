import { mediaSigned, type MediaFile, type MediaGrant } from '@vitrine/contract/paths';
import type { Auth, ShareGrant } from '../auth/caller.ts';
import { forbidden, notFound } from '../http/errors.ts';
import type { AccessRepository } from './access.repository.ts';
import { hiddenFieldsOf, restrictedFields, type FieldSetting } from './field-audience.ts';
import { mediaWindows, signMediaUrl, verifyMediaUrl } from './media-url.ts';
import {
  downloadIn,
  grant,
  noDownloadRights,
  permits,
  scopedIds,
  type DownloadRights,
  type Permission,
} from './rule.ts';

/**
 * The settings the rule reads: the download rights, and the fields' audiences with the guest groups
 * that callers without an account are judged by (access/field-audience.ts). The audiences are given
 * as the fields' settings (`fields`) or worked out already (`restricted`: field → groups that see it,
 * as GroupRights gives them).
 */
export type AccessRights = DownloadRights & {
  readonly fields?: readonly FieldSetting[];
  readonly restricted?: ReadonlyMap<string, readonly string[]>;
  readonly guest?: { readonly groups: readonly string[] };
};

/** The rights as they are, or where to read the rights in force at each call (GroupRights). */
export type AccessRightsSource = AccessRights | (() => AccessRights);

const rightsNow = (source: AccessRightsSource): AccessRights => (typeof source === 'function' ? source() : source);

/** Field audiences worked out once per rights object. */
const restrictedOf = new WeakMap<AccessRights, ReadonlyMap<string, readonly string[]>>();

/** The index fields only some groups see, with those groups. */
function restrictedIn(rights: AccessRights): ReadonlyMap<string, readonly string[]> {
  let restricted = rights.restricted ?? restrictedOf.get(rights);
  if (!restricted) {
    restricted = restrictedFields(rights.fields ?? []);
    restrictedOf.set(rights, restricted);
  }
  return restricted;
}

/** How a media URL checks out: `revoked` when the share link it was minted for is no longer live. */
export type MediaUrlCheck = 'ok' | 'expired' | 'invalid' | 'revoked';

/** The notices of portal-spec §4 "Shared links" (text keys views…open_share.none_visible / part_visible). */
export type SharedNotice = 'none_visible' | 'part_visible' | null;

export interface SharedLinkView {
  /** The shared ids the caller may see, in the order of the link. */
  visibleIds: number[];
  notice: SharedNotice;
  /** A guest who sees none of the shared assets is asked to log in first. */
  loginFirst: boolean;
}

/**
 * The one door to the asset access rule (access/rule.ts), in the manner of immich's
 * `requireAccess(auth, permission, ids)`. Every call that names assets or answers them asks here:
 * by ids (`checkAccess`, `requireAccess`), for a whole-catalogue search (`searchGroups`), or for a
 * media file (`mediaUrl` signs a URL after a check, `verifyMediaUrl` checks it when it is loaded).
 * `test/access-matrix.test.ts` fails for a route that does not.
 */
export class AccessService {
  constructor(
    private readonly access: AccessRepository,
    /** SECRET, which signs media URLs; without it no media URL is made or accepted. */
    private readonly secret?: string,
    /**
     * The conversion sets and the groups' download rights (the `asset.download` permission), the
     * fields' audiences: fixed, or read at each call from GroupRights (groups saved in the admin area).
     */
    private readonly rights: AccessRightsSource = noDownloadRights,
  ) {}

  /**
   * The index fields the caller may not see (field audiences): left out of every answer that carries
   * asset fields, and unknown to its searches, filters, facets, sorts and suggestions.
   */
  hiddenFields(auth: Auth): ReadonlySet<string> {
    const rights = rightsNow(this.rights);
    return hiddenFieldsOf(auth, restrictedIn(rights), rights.guest?.groups ?? []);
  }

  private mediaSecret(): string {
    if (!this.secret) throw new Error('AccessService was built without the secret that signs media URLs');
    return this.secret;
  }

  /** Of `ids`, those the caller may access with `permission`. */
  async checkAccess(auth: Auth, permission: Permission, ids: readonly number[]): Promise<Set<number>> {
    const scoped = scopedIds(auth, ids);
    if (scoped.length === 0) return new Set();
    const granted = grant(auth, permission, rightsNow(this.rights));
    return this.access.visibleIds(granted.groups, scoped, granted.kinds);
  }

  /**
   * For calls about given assets: unless the caller may access every one of them, the call is
   * answered as not found, so the existence of an asset the caller may not see is not revealed.
   */
  async requireAccess(auth: Auth, permission: Permission, ids: readonly number[]): Promise<void> {
    const allowed = await this.checkAccess(auth, permission, ids);
    const missing = ids.find((id) => !allowed.has(id));
    if (missing !== undefined) throw notFound(`The asset ${missing}`);
  }

  /** `requireAccess` for one asset and reading (preview, video). */
  async requireVisible(auth: Auth, assetId: number): Promise<void> {
    await this.requireAccess(auth, 'asset.read', [assetId]);
  }

  /**
   * Of `ids`, those an editor may change (decision 0250): the assets it may see, and with `binned`
   * also those in the bin it would see once restored. Whether the caller is an editor at all is
   * `requireEditor` (access/editor.ts), asked first.
   */
  async editableIds(auth: Auth, ids: readonly number[], binned = false): Promise<Set<number>> {
    const scoped = scopedIds(auth, ids);
    if (scoped.length === 0) return new Set();
    return this.access.editableIds(grant(auth, 'asset.read').groups, scoped, binned);
  }

  /** `editableIds` for calls about given assets: any one the caller may not edit is not found. */
  async requireEditable(auth: Auth, ids: readonly number[], binned = false): Promise<void> {
    const allowed = await this.editableIds(auth, ids, binned);
    const missing = ids.find((id) => !allowed.has(id));
    if (missing !== undefined) throw notFound(`The asset ${missing}`);
  }

  /** The groups whose assets an editor may change (the bin list filters by them with `editableTo`). */
  editGroups(auth: Auth): readonly string[] {
    return auth.share ? [] : grant(auth, 'asset.read').groups;
  }

  /** The shared-link notice (`none_visible` / `part_visible`) and whether a guest must log in first. */
  async sharedLink(auth: Auth, ids: number[]): Promise<SharedLinkView> {
    const unique = [...new Set(ids)];
    const allowed = await this.checkAccess(auth, 'asset.read', unique);
    const visibleIds = unique.filter((id) => allowed.has(id));
    const notice: SharedNotice =
      visibleIds.length === unique.length ? null : visibleIds.length === 0 ? 'none_visible' : 'part_visible';
    return { visibleIds, notice, loginFirst: notice === 'none_visible' && auth.name === null };
  }

  /**
   * The groups a search filters the whole catalogue by: the search index applies the rule in its
   * bit-mask form (access/rule.ts `groupMask`) to exactly these.
   */
  searchGroups(auth: Auth, permission: Permission = 'asset.read'): readonly string[] {
    return grant(auth, permission, rightsNow(this.rights)).groups;
  }

  /**
   * The asset ids a search over `searchGroups` is limited to: for a share link's visitor the link's
   * assets (of `asked`, when the search names ids), otherwise `asked` as it is (undefined: all).
   */
  searchIds(auth: Auth, asked?: readonly number[]): readonly number[] | undefined {
    return scopedIds(auth, asked);
  }

  /** What a share link grants while it is live; undefined once it is revoked or expired. */
  async shareGrant(shareId: number, now = Date.now()): Promise<ShareGrant | undefined> {
    return this.access.shareGrant(shareId, now);
  }

  /**
   * A signed URL under /media/ for an asset the caller was found to see (by `checkAccess` or by a
   * search over `searchGroups`): the signature is the permission the media route checks. `by`: the
   * downloader a download URL is handed to.
   */
  mediaUrl(
    auth: Auth,
    file: MediaFile,
    options: { window?: keyof typeof mediaWindows; by?: string; now?: number } = {},
  ): string {
    // A URL minted for a share link's visitor names the link, so it stops working with the link.
    const signed = mediaSigned(file, { by: options.by, share: auth.share?.id });
    return signMediaUrl(this.mediaSecret(), signed, mediaWindows[options.window ?? 'view'], options.now);
  }

  /**
   * Whether a media URL for `file` carries a valid signature for `grant` (its `by` and `share`
   * parameters) and, when it was minted for a share link, whether the link is still live.
   * (A download through a link is counted on it when it was delivered: DownloadRepository.)
   */
  async verifyMediaUrl(
    file: MediaFile,
    grant: MediaGrant,
    exp: string | undefined,
    sig: string | undefined,
  ): Promise<MediaUrlCheck> {
    if (!this.secret) return 'invalid';
    const { share } = grant;
    if (share !== undefined && !/^[1-9]\d{0,15}$/.test(String(share))) return 'invalid';
    const check = verifyMediaUrl(this.secret, mediaSigned(file, grant), exp, sig);
    if (check !== 'ok' || share === undefined) return check;
    if (!(await this.access.shareIsLive(Number(share), Date.now()))) return 'revoked';
    return 'ok';
  }

  /** Like `verifyMediaUrl` for a picture, video or caption URL: anything but 'ok' is a 403 that says why. */
  async requireMediaUrl(file: MediaFile, grant: MediaGrant, exp: string | undefined, sig: string | undefined) {
    const check = await this.verifyMediaUrl(file, grant, exp, sig);
    if (check === 'invalid') throw forbidden('This media link is not valid.');
    if (check === 'expired') throw forbidden('This media link has expired; reload the page to get a new one.');
    if (check === 'revoked') throw forbidden('The share link this media link came from was revoked or has expired.');
  }

  /** The conversion sets the caller may download in at all (each of the kinds it applies to). */
  usableSetIds(auth: Auth): number[] {
    const rights = rightsNow(this.rights);
    return [0, ...rights.conversionSets.map((s) => s.id)].filter(
      (setId) => grant(auth, downloadIn(setId), rights).groups.length > 0,
    );
  }

  /** The sets the caller may download one asset in; an asset it may not see is not found. */
  async setIdsFor(auth: Auth, assetId: number): Promise<number[]> {
    const asset = await this.access.ruleFacts(assetId);
    if (!asset || scopedIds(auth, [assetId]).length === 0 || !permits(grant(auth, 'asset.read').groups, asset))
      throw notFound(`The asset ${assetId}`);
    const rights = rightsNow(this.rights);
    return [0, ...rights.conversionSets.map((s) => s.id)].filter((setId) => {
      const granted = grant(auth, downloadIn(setId), rights);
      return permits(granted.groups, asset, granted.kinds);
    });
  }

  /** Of `ids`, those the caller may download in set `setId`, in the order asked. */
  async downloadableIds(auth: Auth, setId: number, ids: number[]): Promise<number[]> {
    const allowed = await this.checkAccess(auth, downloadIn(setId), ids);
    return ids.filter((id) => allowed.has(id));
  }

  /** For a download of one asset: 404 when the caller may not see it, 403 when it may not download it. */
  async requireDownloadable(auth: Auth, setId: number, assetId: number): Promise<void> {
    await this.requireVisible(auth, assetId);
    const [ok] = await this.downloadableIds(auth, setId, [assetId]);
    if (ok === undefined) throw forbidden('You may not download this asset in this conversion set.');
  }
}
