import { useQuery } from '@tanstack/react-query';
import { getCollectionCall, listCollectionsCall } from '@vitrine/contract/endpoints';
import type { Collection } from '@vitrine/contract/collection';
import type { AssetDoc } from '@vitrine/contract/search';
import { arrivedEarly, callApi } from '../../lib/apiClient.ts';
import { useArrivedEarly } from '../../lib/useArrivedEarly.ts';
import { COLLECTION_ROWS, inOrder } from './collectionCalls.ts';

export { COLLECTION_ROWS } from './collectionCalls.ts';

/** Labels and pre-search results depend on the content language, so it is part of every key. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  collections: (lang: string) => [...dashboardKeys.all, 'collections', lang] as const,
  collection: (lang: string, indicator: string) => [...dashboardKeys.all, 'collection', lang, indicator] as const,
};

const staleTime = 60_000;

export function useCollections(lang: string) {
  const query = { operation: 'list' } as const;
  const queryKey = dashboardKeys.collections(lang);
  useArrivedEarly(queryKey, () => {
    const early = arrivedEarly(listCollectionsCall, { query });
    return early && inOrder(early.collections);
  });
  return useQuery({
    queryKey,
    queryFn: async ({ signal }): Promise<Collection[]> =>
      inOrder((await callApi(listCollectionsCall, { query, signal })).collections),
    staleTime,
  });
}

export interface CollectionContent {
  docs: AssetDoc[];
  numFound: number;
}

const empty: CollectionContent = { docs: [], numFound: 0 };

/** The first rows of a collection; one that fails to load counts as empty (portal-spec §8). */
export function useCollectionContent(lang: string, indicator: string, enabled = true) {
  const query = { collection: indicator, rows: COLLECTION_ROWS };
  const queryKey = dashboardKeys.collection(lang, indicator);
  useArrivedEarly(queryKey, () => arrivedEarly(getCollectionCall, { query })?.response);
  return useQuery({
    enabled,
    queryKey,
    queryFn: async ({ signal }): Promise<CollectionContent> => {
      try {
        const answer = await callApi(getCollectionCall, { query, signal });
        return answer.response;
      } catch (error) {
        if (signal.aborted) throw error;
        return empty;
      }
    },
    staleTime,
  });
}
