import { Box, type BoxProps } from '@mui/material';
import { useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

export type Placement = 'top' | 'bottom' | 'bottom-end';

/** Distance kept from the edges of the window. */
export const EDGE = 8;

interface Rect {
  top: number;
  left: number;
  width: number;
  height: number;
}

export interface Position {
  top: number;
  left: number;
  /** The side it went to: the asked one, or the other when only that one has room. */
  side: 'top' | 'bottom';
}

/**
 * Where an element of `size` goes beside `anchor`: above or below it (centred, or right-aligned for
 * 'bottom-end') at `gap`, on the other side when only that one has room, and moved sideways to stay
 * inside the window.
 */
export function placeBeside(
  anchor: Rect,
  size: { width: number; height: number },
  placement: Placement,
  viewport: { width: number; height: number },
  gap: number,
): Position {
  const above = anchor.top - gap - size.height;
  const below = anchor.top + anchor.height + gap;
  const roomAbove = above >= EDGE;
  const roomBelow = below + size.height <= viewport.height - EDGE;
  const wanted = placement === 'top' ? 'top' : 'bottom';
  let side: Position['side'] = wanted;
  if (wanted === 'top' && !roomAbove && roomBelow) side = 'bottom';
  if (wanted === 'bottom' && !roomBelow && roomAbove) side = 'top';
  const left =
    placement === 'bottom-end'
      ? anchor.left + anchor.width - size.width
      : anchor.left + (anchor.width - size.width) / 2;
  const maxLeft = Math.max(EDGE, viewport.width - EDGE - size.width);
  return { top: side === 'top' ? above : below, left: Math.min(Math.max(left, EDGE), maxLeft), side };
}

const same = (a: Position | null, b: Position) =>
  a !== null && a.side === b.side && Math.abs(a.top - b.top) < 0.5 && Math.abs(a.left - b.left) < 0.5;

/**
 * An element floating beside `anchor` above the page (tooltips, the tour, pop-up menus), following it
 * when the page scrolls or either one changes size. Marked with `data-placement` (top or bottom).
 */
export function Anchored({
  anchor,
  placement,
  gap = 0,
  style,
  ...rest
}: { anchor: HTMLElement; placement: Placement; gap?: number } & BoxProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<Position | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const next = placeBeside(
        anchor.getBoundingClientRect(),
        { width: el.offsetWidth, height: el.offsetHeight },
        placement,
        { width: document.documentElement.clientWidth || window.innerWidth, height: window.innerHeight },
        gap,
      );
      setPosition((old) => (same(old, next) ? old : next));
    };
    update();
    // Scrolling anywhere moves it along, once per frame: reading positions in every scroll event
    // would lay the page out again each time.
    let frame = 0;
    const onScroll = () => {
      if (frame === 0)
        frame = requestAnimationFrame(() => {
          frame = 0;
          update();
        });
    };
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', onScroll);
    const sizes = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    sizes?.observe(el);
    sizes?.observe(anchor);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', onScroll);
      sizes?.disconnect();
    };
  }, [anchor, placement, gap]);
  return createPortal(
    <Box
      ref={ref}
      data-placement={position?.side ?? (placement === 'top' ? 'top' : 'bottom')}
      {...rest}
      style={{
        ...style,
        position: 'fixed',
        top: position?.top ?? 0,
        // Placed before the first paint (a layout effect); it stays visible meanwhile, so that what is
        // inside can take the focus as it mounts.
        left: position?.left ?? 0,
      }}
    />,
    document.body,
  );
}
