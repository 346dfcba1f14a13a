import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { insightsCall } from '@vitrine/contract/endpoints';
import type { InsightsQuery } from '@vitrine/contract/insights';
import { callApi } from '../../../lib/apiClient.ts';

/*
 * The Statistics section's queries, apart from the admin area's (../queries.ts): the section loads
 * on entry with its charts, and a module both import would be split out of the admin chunk.
 */
export const insightsKeys = {
  all: ['admin', 'insights'] as const,
  period: (query: InsightsQuery) => [...insightsKeys.all, query] as const,
};

/**
 * The portal's use in a period (issue #51). Today's figures grow while the admin looks, so an answer
 * is kept a minute; the previous period stays on screen while another loads.
 */
export function useInsights(query: InsightsQuery) {
  return useQuery({
    queryKey: insightsKeys.period(query),
    queryFn: ({ signal }) => callApi(insightsCall, { signal, query }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
