import { useEffect } from 'react';
import { useStableCallback } from './useStableCallback.ts';

/**
 * Escape anywhere on the page calls `onEscape` while `waiting` holds: for a panel or drawer that
 * takes the focus some time after it opens (portal-spec §9: the sidebar after 250 ms, the info panel
 * after 350 ms). Until then the focus is outside it, on what opened it, where its own Escape handling
 * does not hear keys; a visitor who presses Escape at once still closes it.
 */
export function useEscapeBeforeFocus(waiting: boolean, onEscape: () => void): void {
  const escape = useStableCallback(onEscape);
  useEffect(() => {
    if (!waiting) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      escape();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [waiting, escape]);
}
