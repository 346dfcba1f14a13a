import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getCollectionCall, listCollectionsCall, type Collection } from '@vitrine/contract/collection';
import {
  indexFieldsCall,
  suggestionsCall,
  type AssetDoc,
  type IndexField,
  type SuggestionGroup,
} from '@vitrine/contract/search';
import { callApi } from '../../lib/apiClient.ts';

/** A pre-search collection shows 20 rows by default (admin-spec §9). */
export const COLLECTION_ROWS = 20;

/** Labels and pre-search results depend on the content language, so it is part of every key. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  collections: (lang: string) => [...dashboardKeys.all, 'collections', lang] as const,
  collection: (lang: string, indicator: string) => [...dashboardKeys.all, 'collection', lang, indicator] as const,
  fields: () => [...dashboardKeys.all, 'fields'] as const,
  suggestions: (lang: string, text: string, fields: readonly string[]) =>
    [...dashboardKeys.all, 'suggestions', lang, text, fields] as const,
};

/** Suggestions are asked for from this many typed characters on. */
export const SUGGESTION_MIN_CHARS = 2;

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

/** The index fields, for the labels of suggestion groups (default_labels per language). */
export function useIndexFields() {
  return useQuery({
    queryKey: dashboardKeys.fields(),
    queryFn: async ({ signal }): Promise<IndexField[]> => (await callApi(indexFieldsCall, { signal })).visible_fields,
    staleTime,
  });
}

/**
 * Suggestion groups for the typed text (portal-spec §2 "Search"); the last groups stay while the
 * next answer loads or the text is too short, so the menu does not flicker.
 */
export function useSuggestions(lang: string, text: string, fields: readonly string[]) {
  const trimmed = text.trim();
  return useQuery({
    enabled: trimmed.length >= SUGGESTION_MIN_CHARS,
    queryKey: dashboardKeys.suggestions(lang, trimmed, fields),
    queryFn: async ({ signal }): Promise<SuggestionGroup[]> => {
      // No fields: the server's default suggestion fields.
      const query = { text: trimmed, fields: fields.length > 0 ? [...fields] : undefined };
      return (await callApi(suggestionsCall, { query, signal })).suggestions;
    },
    placeholderData: keepPreviousData,
    staleTime,
  });
}
