import { notFound } from '../http/errors.ts';
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
  constructor(private readonly access: AccessRepository) {}

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
}
