import { useEffect } from 'react';
import { useStableCallback } from './useStableCallback.ts';

/**
 * Escape anywhere on the page calls `onEscape` while `active` holds, wherever the focus is: a
 * tooltip shown by the pointer (WCAG 1.4.13), or a panel or drawer in the moment before it takes
 * the focus (portal-spec §9: the sidebar after 250 ms, the info panel after 350 ms), while the
 * focus is still on what opened it, outside its own Escape handling.
 */
export function useEscapeKey(active: boolean, onEscape: () => void): void {
  const escape = useStableCallback(onEscape);
  useEffect(() => {
    if (!active) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') escape();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, escape]);
}
