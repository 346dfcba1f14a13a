import type { BookmarkList } from '@vitrine/contract/bookmark';
import type { AccessService } from '../access/access.service.ts';
import { requireAssetUser, type Auth } from '../auth/caller.ts';
import { unauthorized, validation } from '../http/errors.ts';
import type { BookmarkRepository } from './bookmark.repository.ts';

const numericId = /^[1-9]\d{0,15}$/;

/**
 * A user's bookmarks (portal-spec §3 "Bookmark", §4 "Bookmark toggle", §7 `config/bookmarks`).
 * Guests keep bookmarks in their browser only (§6), so they have none here. Only assets the caller
 * may see are answered or accepted.
 */
export class BookmarkService {
  constructor(
    private readonly bookmarks: BookmarkRepository,
    private readonly access: AccessService,
  ) {}

  private user(auth: Auth): number {
    requireAssetUser(auth);
    if (auth.userId === null) throw unauthorized('Guests keep bookmarks in their browser; log in to save them.');
    return auth.userId;
  }

  /** The caller's bookmarks it may still see, in saved order. */
  async list(auth: Auth): Promise<BookmarkList> {
    const userId = this.user(auth);
    const ids = await this.bookmarks.list(userId);
    const visible = await this.access.checkAccess(auth, 'asset.read', ids);
    return ids.filter((id) => visible.has(id)).map((id) => ({ id: String(id) }));
  }

  /**
   * Replaces the caller's bookmarks. Every id must name an asset the caller may see; otherwise the
   * list is refused as a whole and the saved one stays. Repeated ids are kept once.
   */
  async save(auth: Auth, list: BookmarkList): Promise<BookmarkList> {
    const userId = this.user(auth);
    const malformed = list.flatMap((b, i) =>
      numericId.test(b.id) ? [] : [{ path: `[${i}].id`, message: 'not an asset id' }],
    );
    if (malformed.length) throw validation('Bookmarks name assets by their numeric id.', malformed.slice(0, 20));
    const ids = [...new Set(list.map((b) => Number(b.id)))];
    const visible = await this.access.checkAccess(auth, 'asset.read', ids);
    const missing = ids.filter((id) => !visible.has(id));
    if (missing.length) {
      throw validation(
        `${missing.length} of the bookmarked assets are not available.`,
        missing.slice(0, 20).map((id) => ({ path: 'id', message: `the asset ${id} is not available` })),
      );
    }
    await this.bookmarks.replace(userId, ids);
    return ids.map((id) => ({ id: String(id) }));
  }

  /** Of the assets `ids`, those the caller bookmarked (for `isBookmarked` in search answers). */
  async bookmarkedOf(auth: Auth, ids: readonly number[]): Promise<Set<number>> {
    if (auth.userId === null) return new Set();
    return this.bookmarks.bookmarkedOf(auth.userId, ids);
  }
}
