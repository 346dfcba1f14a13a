import { useEffect } from 'react';
import { useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { assetsCall, insightViewCall, previewCall, searchCall, videoCall } from '@vitrine/contract/endpoints';
import type { AssetDoc } from '@vitrine/contract/search';
import { arrivedEarly, callApi } from '../../lib/apiClient.ts';
import { useArrivedEarly } from '../../lib/useArrivedEarly.ts';
import { searchKeys } from '../../lib/searchKeys.ts';

/** Query keys of the asset page; docs depend on the content language. */
export const assetKeys = {
  all: ['asset'] as const,
  doc: (lang: string, id: string) => [...assetKeys.all, 'doc', lang, id] as const,
  preview: (id: string, page: number) => [...assetKeys.all, 'preview', id, page] as const,
  video: (lang: string, id: string) => [...assetKeys.all, 'video', lang, id] as const,
  similar: (lang: string, id: string) => [...assetKeys.all, 'similar', lang, id] as const,
};

/** The most assets the "similar" row shows (issue #52). */
export const SIMILAR_ROWS = 12;

/** The search term of assets that look like `id` (issue #52), closest first. */
export const similarQuery = (id: string) => `similar:${id}`;

/**
 * Assets that look like the asset, closest first, without itself: a search `similar:<id>` (the
 * search answers only what the caller may see). None is asked before `enabled`, so the row waits for
 * the page's own answers.
 */
export function useSimilar(lang: string, id: string, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: assetKeys.similar(lang, id),
    queryFn: async ({ signal }) => {
      const answer = await callApi(searchCall, {
        query: { solr_q: similarQuery(id), solr_rows: SIMILAR_ROWS, solr_facetfields: [], facet_sort: [] },
        signal,
      });
      return answer.response.docs.filter((d) => d.id !== id);
    },
    staleTime,
  });
}

/** Signed URLs stay valid for hours; refetching them earlier only costs requests. */
const staleTime = 5 * 60_000;

const docOf = (answer: { response: { docs: AssetDoc[] } }): AssetDoc | null => answer.response.docs[0] ?? null;

/**
 * The asset as a loaded search result in the same content language holds it: the search answers
 * the same document the asset call does, so the page can draw it at once while that call
 * confirms it (portal-spec §3 "Asset": the page takes the asset from the loaded results).
 */
export function loadedResult(client: QueryClient, lang: string, id: string): AssetDoc | undefined {
  const answers = client.getQueriesData<InfiniteData<{ docs: AssetDoc[] }>>({ queryKey: searchKeys.allResults() });
  for (const [key, data] of answers) {
    const request = key[2] as { lang?: string } | undefined;
    if (request?.lang !== lang) continue;
    for (const page of data?.pages ?? []) {
      const doc = page.docs.find((d) => d.id === id);
      if (doc) return doc;
    }
  }
  return undefined;
}

/** The asset by id; null when the caller may not see it (or it does not exist). */
export function useAssetDoc(lang: string, id: string) {
  const client = useQueryClient();
  const query = { assetid: id };
  const queryKey = assetKeys.doc(lang, id);
  useArrivedEarly(queryKey, () => {
    const early = arrivedEarly(assetsCall, { query });
    return early && docOf(early);
  });
  return useQuery<AssetDoc | null>({
    queryKey,
    queryFn: async ({ signal }): Promise<AssetDoc | null> => docOf(await callApi(assetsCall, { query, signal })),
    placeholderData: (): AssetDoc | undefined => loadedResult(client, lang, id),
    staleTime,
  });
}

/**
 * Counts one view of the asset's page for the portal's statistics, when the page shows the asset:
 * the answers the page reads come from caches and the first paint, so none of them says that it was
 * opened. A beacon that fails changes nothing on the page.
 */
export function useCountedView(id: string, shown: boolean): void {
  useEffect(() => {
    if (shown) callApi(insightViewCall, { body: { id } }).catch(() => undefined);
  }, [id, shown]);
}

/** The preview (page 0) or a page of a document; without url the caller may not download it. */
export function usePreview(id: string, page: number) {
  const query = { id, target: 'view', page } as const;
  const queryKey = assetKeys.preview(id, page);
  useArrivedEarly(queryKey, () => arrivedEarly(previewCall, { query }));
  return useQuery({
    queryKey,
    queryFn: ({ signal }) => callApi(previewCall, { query, signal }),
    staleTime,
  });
}

/** The player's sources and caption tracks; the tracks are named in the interface language `lang`. */
export function useVideoSource(lang: string, id: string, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: assetKeys.video(lang, id),
    queryFn: ({ signal }) => callApi(videoCall, { params: { id }, signal }),
    staleTime,
    retry: false,
  });
}
