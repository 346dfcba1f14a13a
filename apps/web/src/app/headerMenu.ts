import { useState, type MouseEvent, type PointerEvent } from 'react';
import { useDelay } from '../lib/delay.ts';

/** Header menus open when the pointer rests on their button and close after it leaves (portal-spec §9). */
export const MENU_OPEN_DELAY = 300;
export const MENU_CLOSE_DELAY = 250;

/** What a header menu needs to show itself; `hover` says it was opened by resting the pointer on it. */
export interface HeaderMenuState {
  id: string;
  anchor: HTMLElement;
  hover: boolean;
  onClose: () => void;
  onPointerEnter: () => void;
  onPointerLeave: (e: PointerEvent) => void;
}

export interface HeaderMenuTrigger {
  'aria-haspopup': 'menu';
  'aria-expanded': 'true' | undefined;
  'aria-controls': string | undefined;
  onClick: (e: MouseEvent<HTMLElement>) => void;
  onPointerEnter: (e: PointerEvent<HTMLElement>) => void;
  onPointerLeave: (e: PointerEvent) => void;
}

/**
 * The open state of a header menu. A click or key opens it at once (and makes it modal, with focus
 * in the menu); a mouse resting 300 ms on the button opens it without taking focus, and it closes
 * 250 ms after the mouse has left both the button and the menu.
 */
export function useHeaderMenu(id: string): { trigger: HeaderMenuTrigger; menu: HeaderMenuState | null } {
  const [open, setOpen] = useState<{ anchor: HTMLElement; hover: boolean } | null>(null);
  const delay = useDelay();
  const cancel = () => delay.cancel();
  const close = () => {
    cancel();
    setOpen(null);
  };
  const leave = (e: PointerEvent) => {
    if (e.pointerType !== 'mouse' || !open?.hover) return cancel();
    delay.run(MENU_CLOSE_DELAY, close);
  };
  const trigger: HeaderMenuTrigger = {
    'aria-haspopup': 'menu',
    'aria-expanded': open ? 'true' : undefined,
    'aria-controls': open ? id : undefined,
    onClick: (e) => {
      cancel();
      // A click on a menu the pointer opened keeps it open and makes it an ordinary (modal) menu.
      setOpen(open && !open.hover ? null : { anchor: e.currentTarget, hover: false });
    },
    onPointerEnter: (e) => {
      cancel();
      if (e.pointerType !== 'mouse' || open) return;
      const anchor = e.currentTarget;
      delay.run(MENU_OPEN_DELAY, () => setOpen({ anchor, hover: true }));
    },
    onPointerLeave: leave,
  };
  const menu = open && {
    id,
    anchor: open.anchor,
    hover: open.hover,
    onClose: close,
    onPointerEnter: cancel,
    onPointerLeave: leave,
  };
  return { trigger, menu };
}
