import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A function that stays the same object between renders and calls the latest `fn`: a handler for
 * memoised children that only runs in events (not while rendering, where it could be one render old).
 */
export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}
