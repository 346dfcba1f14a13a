import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { assetsCall, downloadInfoCall, getBookmarksCall, saveBookmarksCall } from '@vitrine/contract/endpoints';
import type { AssetDoc } from '@vitrine/contract/search';
import { useSession } from './session.ts';
import { arrivedEarly, callApi, callUrl } from '../lib/apiClient.ts';
import { useArrivedEarly } from '../lib/useArrivedEarly.ts';
import { toast } from '../lib/toast.ts';

/** Where a guest's bookmarks are kept (portal-spec §4 "Bookmark toggle": guests keep them locally only). */
export const GUEST_BOOKMARKS_KEY = 'bookmarks';

/** portal-spec §7: a verification request stays under this many characters, counting 8 per id. */
export const URL_LIMIT = 2048;
export const CHARS_PER_ID = 8;
const ENCODED_COMMA = '%2C';

/**
 * Splits ids into batches whose request stays under URL_LIMIT characters on top of `baseLength`
 * (the request without ids). Each id counts CHARS_PER_ID characters, or its encoded length with
 * the encoded comma that joins it when that is longer, so long ids never pass the limit. Each batch
 * has at least one id, so a too long base never loses ids.
 */
export function bookmarkBatches(ids: readonly string[], baseLength: number): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let length = baseLength;
  for (const id of ids) {
    const cost = Math.max(CHARS_PER_ID, encodeURIComponent(id).length + ENCODED_COMMA.length);
    if (batch.length > 0 && length + cost >= URL_LIMIT) {
      batches.push(batch);
      batch = [];
      length = baseLength;
    }
    batch.push(id);
    length += cost;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

function readGuestBookmarks(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(GUEST_BOOKMARKS_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export const bookmarkKeys = {
  all: ['bookmarks'] as const,
  /** The list of a user (by id) or of the guest in this browser. */
  list: (owner: string) => [...bookmarkKeys.all, 'list', owner] as const,
  docs: (owner: string, lang: string, ids: readonly string[]) => [...bookmarkKeys.all, 'docs', owner, lang, ...ids],
  maxAssets: () => [...bookmarkKeys.all, 'maxAssets'] as const,
};

/** Whose bookmarks this browser shows: 'guest' for a guest session, else the user's name. */
function useOwner(): { owner: string; guest: boolean; ready: boolean } {
  const { session, status } = useSession();
  const guest = session?.user === null || session === null;
  return { owner: session?.user ? `user:${session.user}` : 'guest', guest, ready: status === 'success' };
}

async function persist(guest: boolean, ids: string[]): Promise<string[]> {
  if (guest) {
    localStorage.setItem(GUEST_BOOKMARKS_KEY, JSON.stringify(ids));
    return ids;
  }
  const saved = await callApi(saveBookmarksCall, { body: ids.map((id) => ({ id })) });
  return saved.map((b) => b.id);
}

export interface Bookmarks {
  ids: string[];
  isLoading: boolean;
  isBookmarked(id: string): boolean;
  /** Adds or removes one asset, shown at once and rolled back when saving fails. */
  toggle(id: string): void;
  add(ids: readonly string[]): void;
  remove(ids: readonly string[]): void;
  /** Replaces the list (after verification found assets gone), saying "Bookmarks saved" once it is. */
  replace(ids: readonly string[]): void;
}

/**
 * The caller's bookmarks (portal-spec §4 "Bookmark toggle"): from the server for users, from local
 * storage for guests, which never reach the server. Every change is optimistic: the list changes at
 * once and returns to what it was when the save fails.
 */
export function useBookmarks(): Bookmarks {
  const queryClient = useQueryClient();
  const { owner, guest, ready } = useOwner();
  const key = bookmarkKeys.list(owner);
  const query = useQuery({
    queryKey: key,
    enabled: ready,
    queryFn: async ({ signal }): Promise<string[]> =>
      guest ? readGuestBookmarks() : (await callApi(getBookmarksCall, { signal })).map((b) => b.id),
    staleTime: 5 * 60_000,
  });
  const mutation = useMutation({
    mutationFn: ({ next }: { next: string[]; toast: string }) => persist(guest, next),
    onMutate: async ({ next }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<string[]>(key);
      queryClient.setQueryData(key, next);
      return { previous };
    },
    onError: (_error, _vars, context) => {
      queryClient.setQueryData(key, context?.previous ?? []);
      toast.show('toast.bookmark.error', 'error');
    },
    onSuccess: (saved, vars) => {
      queryClient.setQueryData(key, saved);
      // "Saved" follows the verification's warning: it waits its turn instead of cutting that short.
      const polite = vars.toast === 'toast.bookmark.saved';
      toast.show(vars.toast, 'success', undefined, undefined, polite);
    },
  });
  const ids = query.data ?? [];
  const current = () => queryClient.getQueryData<string[]>(key) ?? ids;
  const save = (next: string[], message: string) => mutation.mutate({ next, toast: message });
  return {
    ids,
    isLoading: query.isPending,
    isBookmarked: (id) => ids.includes(id),
    toggle: (id) => {
      const list = current();
      if (list.includes(id))
        save(
          list.filter((b) => b !== id),
          'toast.bookmark.removed',
        );
      else save([...list, id], 'toast.bookmark.added');
    },
    add: (more) => save([...new Set([...current(), ...more])], 'toast.bookmark.added'),
    remove: (gone) => {
      const drop = new Set(gone);
      save(
        current().filter((b) => !drop.has(b)),
        'toast.bookmark.removed',
      );
    },
    replace: (next) => save([...next], 'toast.bookmark.saved'),
  };
}

/** The request length of an asset lookup without ids, as the browser sends it. */
function assetsBaseLength(): number {
  return window.location.origin.length + callUrl(assetsCall, { query: { assetid: '' } }).length;
}

/**
 * Bookmark verification (portal-spec §4, §7): the docs of the bookmarked assets, asked in batches
 * that keep each request under 2048 characters. When some are gone, the notice is shown and the
 * list is saved again without them.
 */
export function useBookmarkDocs(bookmarks: Bookmarks, lang: string) {
  const { owner } = useOwner();
  return useQuery({
    queryKey: bookmarkKeys.docs(owner, lang, bookmarks.ids),
    enabled: !bookmarks.isLoading,
    queryFn: async ({ signal }): Promise<AssetDoc[]> => {
      const batches = bookmarkBatches(bookmarks.ids, assetsBaseLength());
      const answers = await Promise.all(
        batches.map((batch) => callApi(assetsCall, { query: { assetid: batch.join(',') }, signal })),
      );
      const docs = answers.flatMap((a) => a.response.docs);
      const found = new Set(docs.map((d) => d.id));
      const kept = bookmarks.ids.filter((id) => found.has(id));
      if (kept.length < bookmarks.ids.length) {
        toast.show('toast.bookmark.verify_error', 'warning');
        bookmarks.replace(kept);
      }
      const byId = new Map(docs.map((d) => [d.id, d]));
      return kept.flatMap((id) => byId.get(id) ?? []);
    },
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
}

/**
 * maxAssets of info/downloads (-1: unlimited), for the confirmation before bookmarking many assets;
 * undefined until it is known.
 */
export function useMaxAssets(): number | undefined {
  const queryKey = bookmarkKeys.maxAssets();
  useArrivedEarly(queryKey, () => arrivedEarly(downloadInfoCall, {})?.max_assets);
  const query = useQuery({
    queryKey,
    queryFn: async ({ signal }) => (await callApi(downloadInfoCall, { signal })).max_assets,
    staleTime: 10 * 60_000,
  });
  return query.data;
}
