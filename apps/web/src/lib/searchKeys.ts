/**
 * Query keys of the search's answers (the search page's request, features/search/request.ts, is
 * their last part), here so the asset page reads the loaded results by them
 * (features/asset/queries.ts) without loading the search page's code.
 */
export const searchKeys = {
  all: ['search'] as const,
  allResults: () => [...searchKeys.all, 'results'] as const,
  results: (request: object) => [...searchKeys.allResults(), request] as const,
};
