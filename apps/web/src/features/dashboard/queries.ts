import { useQuery } from '@tanstack/react-query';
import { getCollectionCall, listCollectionsCall } from '@vitrine/contract/endpoints';
import type { Collection } from '@vitrine/contract/collection';
import type { AssetDoc } from '@vitrine/contract/search';
import { callApi } from '../../lib/apiClient.ts';

/** A pre-search collection shows 20 rows by default (admin-spec §9). */
export const COLLECTION_ROWS = 20;

/** Labels and pre-search results depend on the content language, so it is part of every key. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  collections: (lang: string) => [...dashboardKeys.all, 'collections', lang] as const,
  collection: (lang: string, indicator: string) => [...dashboardKeys.all, 'collection', lang, indicator] as const,
};

const staleTime = 60_000;

export function useCollections(lang: string) {
  return useQuery({
    queryKey: dashboardKeys.collections(lang),
    queryFn: async ({ signal }): Promise<Collection[]> => {
      const answer = await callApi(listCollectionsCall, { query: { operation: 'list' }, signal });
      return [...answer.collections].sort((a, b) => a.position - b.position);
    },
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
  return useQuery({
    enabled,
    queryKey: dashboardKeys.collection(lang, indicator),
    queryFn: async ({ signal }): Promise<CollectionContent> => {
      try {
        const answer = await callApi(getCollectionCall, {
          query: { collection: indicator, rows: COLLECTION_ROWS },
          signal,
        });
        return answer.response;
      } catch (error) {
        if (signal.aborted) throw error;
        return empty;
      }
    },
    staleTime,
  });
}
