import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CallAnswer } from '@vitrine/contract/call';
import {
  binAssetsCall,
  binListCall,
  createCollectionCall,
  editApplyCall,
  editAssetCall,
  editHistoryCall,
  editOptionsCall,
  editPreviewCall,
  MAX_BIN_ROWS,
  MAX_EDIT_ASSETS,
  removeAssetsCall,
  resetFieldCall,
  restoreAssetsCall,
  searchCall,
  undoEditCall,
} from '@vitrine/contract/endpoints';
import type { EditBody, editOptionsCall as optionsCall } from '@vitrine/contract/edit';
import type { AssetDoc } from '@vitrine/contract/search';
import { callApi } from '../lib/apiClient.ts';
import { useSession } from './session.ts';
import { bookmarkKeys } from './bookmarks.ts';

/** Query keys of the editors' screens (issue #49); only editors' code loads this module. */
export const editKeys = {
  all: ['edit'] as const,
  options: (user: string) => [...editKeys.all, 'options', user] as const,
  asset: (id: string) => [...editKeys.all, 'asset', id] as const,
  history: (id: string) => [...editKeys.all, 'history', id] as const,
  bin: (start: number, rows: number) => [...editKeys.all, 'bin', start, rows] as const,
  vocabulary: (field: string) => [...editKeys.all, 'vocabulary', field] as const,
};

/*
 * The prefixes of the keys under which the search and asset screens keep assets
 * (features/search/queries.ts `searchKeys`, features/asset/queries.ts `assetKeys`): stores may not
 * import features, and an edit has to reach both.
 */
const SEARCH_KEY = ['search'] as const;
const SEARCH_RESULTS_KEY = ['search', 'results'] as const;
const ASSET_KEY = ['asset'] as const;

/**
 * What the editor may change (fields, languages, groups, collections), whether they may remove for
 * good, and the upload limits. `fresh`: asked again on each mount (the upload page shows what was
 * uploaded today).
 */
export function useEditOptions({ fresh = false } = {}) {
  const { session } = useSession();
  const user = session?.user ?? '';
  return useQuery({
    enabled: session?.isEditor === true,
    queryKey: editKeys.options(user),
    queryFn: ({ signal }) => callApi(editOptionsCall, { signal }),
    staleTime: fresh ? 0 : 5 * 60_000,
  });
}

/** edit/collection: makes a collection (or answers the one of that name); the options list it at once. */
export function useCreateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => callApi(createCollectionCall, { body: { name } }),
    // Listed at once, so that it can be chosen before the options are asked again.
    onSuccess: (made) => {
      queryClient.setQueriesData<CallAnswer<typeof optionsCall>>({ queryKey: [...editKeys.all, 'options'] }, (old) =>
        old && !old.collections.some((c) => c.id === made.id)
          ? { ...old, collections: [...old.collections, made] }
          : old,
      );
    },
  });
}

/** One asset's editable values now, and which fields were edited by whom. */
export function useEditAsset(id: string, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: editKeys.asset(id),
    queryFn: ({ signal }) => callApi(editAssetCall, { query: { id }, signal }),
    // The dialog starts from the values as they are now, not as they were when it last opened.
    staleTime: 0,
  });
}

export function useEditHistory(id: string) {
  return useQuery({
    queryKey: editKeys.history(id),
    queryFn: ({ signal }) => callApi(editHistoryCall, { query: { id }, signal }),
  });
}

export function useBinList(start: number, rows: number) {
  return useQuery({
    queryKey: editKeys.bin(start, rows),
    queryFn: ({ signal }) => callApi(binListCall, { query: { start, rows }, signal }),
  });
}

/** The ids of everything in the bin the caller may edit, up to what one call may name (MAX_EDIT_ASSETS). */
export async function allBinnedIds(): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; ids.length < MAX_EDIT_ASSETS; start += MAX_BIN_ROWS) {
    const page = await callApi(binListCall, { query: { start, rows: MAX_BIN_ROWS } });
    ids.push(...page.assets.map((a) => a.id));
    if (page.assets.length < MAX_BIN_ROWS || start + MAX_BIN_ROWS >= page.total) break;
  }
  return ids.slice(0, MAX_EDIT_ASSETS);
}

/** The values a facet knows (a controlled vocabulary), most used first; none before `enabled`. */
export function useVocabulary(field: string, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: editKeys.vocabulary(field),
    queryFn: async ({ signal }) => {
      const answer = await callApi(searchCall, {
        query: { solr_q: '*', solr_facetfields: [field], facet_sort: [], solr_rows: 0, facet_limit: 1000 },
        signal,
      });
      return (answer.facetCounts.facetFields[field] ?? []).map((v) => v.value);
    },
    staleTime: 60_000,
  });
}

export const previewEdit = (body: EditBody) => callApi(editPreviewCall, { body });
export const applyEdit = (body: EditBody) => callApi(editApplyCall, { body });
export const binAssets = (ids: string[]) => callApi(binAssetsCall, { body: { ids } });
export const restoreAssets = (ids: string[]) => callApi(restoreAssetsCall, { body: { ids } });
export const removeAssets = (ids: string[]) => callApi(removeAssetsCall, { body: { ids } });
export const undoBatch = (batch: number) => callApi(undoEditCall, { body: { batch } });
export const resetField = (id: string, field: string) => callApi(resetFieldCall, { body: { id, field } });

/** After a change, every screen that shows the assets asks again: results, facets, the asset page, the history, the bin. */
export function refreshAfterEdit(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: SEARCH_KEY });
  void client.invalidateQueries({ queryKey: ASSET_KEY });
  void client.invalidateQueries({ queryKey: bookmarkKeys.all });
  void client.invalidateQueries({ queryKey: editKeys.all });
}

/**
 * After assets went to the bin: the asset page asks again only when next shown (asking at once would
 * tell the page being left that its asset is gone).
 */
export function refreshAfterBin(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: ASSET_KEY, refetchType: 'none' });
  void client.invalidateQueries({ queryKey: SEARCH_KEY });
  void client.invalidateQueries({ queryKey: bookmarkKeys.all });
  void client.invalidateQueries({ queryKey: editKeys.all });
}

interface ResultPages {
  pages: { docs: AssetDoc[]; numFound: number }[];
  pageParams: unknown[];
}

const isResultPages = (data: unknown): data is ResultPages =>
  typeof data === 'object' && data !== null && Array.isArray((data as ResultPages).pages);

/**
 * Takes assets out of the results shown, before the server's next answer: an asset moved to the bin
 * leaves the results at once.
 */
export function dropFromResults(client: QueryClient, ids: readonly string[]): void {
  const gone = new Set(ids);
  client.setQueriesData<unknown>({ queryKey: SEARCH_RESULTS_KEY }, (data: unknown) => {
    if (!isResultPages(data)) return data;
    const removed = data.pages.reduce((n, page) => n + page.docs.filter((d) => gone.has(d.id)).length, 0);
    if (removed === 0) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        docs: page.docs.filter((d) => !gone.has(d.id)),
        numFound: Math.max(0, page.numFound - removed),
      })),
    };
  });
}
