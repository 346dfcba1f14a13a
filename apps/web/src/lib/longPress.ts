import { useEffect, useLayoutEffect, useMemo, useRef, type MouseEvent, type PointerEvent } from 'react';

/** How long a touch must rest on an item before it counts as a long press. */
export const LONG_PRESS_MS = 500;
/** A finger that moves further than this (px) is scrolling or swiping, not pressing. */
export const LONG_PRESS_SLOP = 10;
/** The click a browser may still send after a long press arrives within this time of lifting the finger. */
const TRAILING_CLICK_MS = 400;

/** Handlers to spread on the element that can be long-pressed. */
export interface LongPressHandlers {
  onPointerDown: (event: PointerEvent) => void;
  onPointerMove: (event: PointerEvent) => void;
  onPointerUp: () => void;
  onPointerCancel: () => void;
  onClickCapture: (event: MouseEvent) => void;
  onContextMenu: (event: MouseEvent) => void;
}

interface Press {
  pointerId: number;
  x: number;
  y: number;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The touch counterpart of ctrl/meta-click (portal-spec §4 "Selection" on phones): a touch that rests
 * for 500 ms without moving more than 10 px calls `onLongPress`. The click the browser may send when
 * that finger lifts, and its context menu, are swallowed, so a long press never also opens the item.
 * Mouse and pen are left alone: they have modifier keys.
 */
export function useLongPress(onLongPress: () => void): LongPressHandlers {
  const latest = useRef(onLongPress);
  useLayoutEffect(() => {
    latest.current = onLongPress;
  });
  const press = useRef<Press | null>(null);
  // Set from the moment a press fired until its trailing click has passed.
  const fired = useRef(false);
  const clearFired = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(
    () => () => {
      if (press.current) clearTimeout(press.current.timer);
      clearTimeout(clearFired.current);
    },
    [],
  );

  return useMemo(() => {
    const cancel = () => {
      if (press.current) clearTimeout(press.current.timer);
      press.current = null;
    };
    return {
      onPointerDown: (event) => {
        if (event.pointerType !== 'touch' || !event.isPrimary) return;
        cancel();
        clearTimeout(clearFired.current);
        fired.current = false;
        const timer = setTimeout(() => {
          press.current = null;
          fired.current = true;
          latest.current();
        }, LONG_PRESS_MS);
        press.current = { pointerId: event.pointerId, x: event.clientX, y: event.clientY, timer };
      },
      onPointerMove: (event) => {
        const p = press.current;
        if (p?.pointerId !== event.pointerId) return;
        if (Math.hypot(event.clientX - p.x, event.clientY - p.y) > LONG_PRESS_SLOP) cancel();
      },
      onPointerUp: () => {
        cancel();
        if (fired.current) clearFired.current = setTimeout(() => (fired.current = false), TRAILING_CLICK_MS);
      },
      onPointerCancel: cancel,
      onClickCapture: (event) => {
        if (!fired.current) return;
        fired.current = false;
        event.preventDefault();
        event.stopPropagation();
      },
      onContextMenu: (event) => {
        if (fired.current || press.current) event.preventDefault();
      },
    };
  }, []);
}
