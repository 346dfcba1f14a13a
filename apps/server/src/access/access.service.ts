import { forbidden, notFound } from '../http/errors.ts';
import type { ConversionSet, FileSettings } from '../settings.ts';
import type { Auth } from '../session/auth.ts';
import type { AccessRepository } from './access.repository.ts';

/** The notices of portal-spec §4 "Shared links" (text keys views…open_share.none_visible / part_visible). */
export type SharedNotice = 'none_visible' | 'part_visible' | null;

export interface SharedLinkView {
  /** The shared ids the caller may see, in the order of the link. */
  visibleIds: number[];
  notice: SharedNotice;
  /** A guest who sees none of the shared assets is asked to log in first. */
  loginFirst: boolean;
}

/** Which assets a caller may see; services that return or serve assets ask here first. */
export class AccessService {
  constructor(
    private readonly access: AccessRepository,
    private readonly downloads: Pick<FileSettings, 'conversionSets' | 'groups'> = { conversionSets: [], groups: [] },
  ) {}

  async sharedLink(auth: Auth, ids: number[]): Promise<SharedLinkView> {
    const unique = [...new Set(ids)];
    const visibleIds = await this.access.visibleIds(auth.groups, unique);
    const notice: SharedNotice =
      visibleIds.length === unique.length ? null : visibleIds.length === 0 ? 'none_visible' : 'part_visible';
    return { visibleIds, notice, loginFirst: notice === 'none_visible' && auth.name === null };
  }

  /**
   * For calls about one asset (preview, download, video): an asset the caller may not see is answered
   * as not found, so its existence is not revealed.
   */
  async requireVisible(auth: Auth, assetId: number): Promise<void> {
    const [visible] = await this.access.visibleIds(auth.groups, [assetId]);
    if (visible === undefined) throw notFound(`The asset ${assetId}`);
  }

  /**
   * The conversion sets the caller may use at all: set 0 (the original) for groups that list it in
   * their `downloadSets`; another set for the groups it names in `userGroups` or that list it.
   */
  usableSetIds(auth: Auth): number[] {
    const mine = this.downloads.groups.filter((g) => auth.groups.includes(g.name));
    const listed = (id: number) => mine.some((g) => g.downloadSets.includes(id));
    const ids = listed(0) ? [0] : [];
    for (const set of this.downloads.conversionSets) {
      if (listed(set.id) || set.userGroups.some((g) => auth.groups.includes(g))) ids.push(set.id);
    }
    return ids;
  }

  /** Whether a set applies to an asset of this kind (set 0 applies to all). */
  appliesTo(setId: number, assetGroup: string): boolean {
    if (setId === 0) return true;
    const set: ConversionSet | undefined = this.downloads.conversionSets.find((s) => s.id === setId);
    return Boolean(set && (set.assetGroups.length === 0 || (set.assetGroups as string[]).includes(assetGroup)));
  }

  /** The sets the caller may download one asset in; an asset it may not see is not found. */
  async setIdsFor(auth: Auth, assetId: number): Promise<number[]> {
    const kind = (await this.access.visibleKinds(auth.groups, [assetId])).get(assetId);
    if (kind === undefined) throw notFound(`The asset ${assetId}`);
    return this.usableSetIds(auth).filter((id) => this.appliesTo(id, kind));
  }

  /**
   * Of `ids`, those the caller may download in set `setId`, in the order asked: visible, the set
   * usable by one of its groups and applicable to the asset's kind.
   */
  async downloadableIds(auth: Auth, setId: number, ids: number[]): Promise<number[]> {
    if (!this.usableSetIds(auth).includes(setId)) return [];
    const kinds = await this.access.visibleKinds(auth.groups, [...new Set(ids)]);
    return ids.filter((id) => {
      const kind = kinds.get(id);
      return kind !== undefined && this.appliesTo(setId, kind);
    });
  }

  /** For a download of one asset: 404 when the caller may not see it, 403 when it may not download it. */
  async requireDownloadable(auth: Auth, setId: number, assetId: number): Promise<void> {
    await this.requireVisible(auth, assetId);
    const [ok] = await this.downloadableIds(auth, setId, [assetId]);
    if (ok === undefined) throw forbidden('You may not download this asset in this conversion set.');
  }
}
