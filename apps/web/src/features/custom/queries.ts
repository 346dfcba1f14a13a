import { useQuery } from '@tanstack/react-query';
import { customPageCall } from '@vitrine/contract/endpoints';
import { callApi, nullIfNotFound } from '../../lib/apiClient.ts';

export const customKeys = {
  page: (lang: string) => ['custom', 'page', lang] as const,
};

/** The custom page of a language (served sanitised), or null when that language has none. */
export function usePublishedPage(lang: string) {
  return useQuery({
    queryKey: customKeys.page(lang),
    queryFn: async ({ signal }) => {
      const answer = await nullIfNotFound(callApi(customPageCall, { signal, query: { lang } }));
      return answer && 'html' in answer ? answer : null;
    },
    staleTime: 60_000,
  });
}
