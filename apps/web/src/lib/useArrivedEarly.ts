import { useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * On a first visit, the first screen's answers (an asset and its preview, the search's first results)
 * were asked for before the app's code ran (src/first-paint/earlyAnswers.ts); when they have come by
 * the screen's first render, they go into the cache before its queries start, so that render draws
 * them, in the first render's transition, instead of a loading state and a second, synchronous
 * render when the query's answer comes. Not as initialData: a reset for another caller
 * (app/Providers.tsx) would bring that first caller's answer back.
 */
export function useArrivedEarly<T>(queryKey: QueryKey, take: () => T | undefined): void {
  const client = useQueryClient();
  if (client.getQueryState(queryKey)) return;
  const data = take();
  if (data !== undefined) client.setQueryData(queryKey, data);
}
