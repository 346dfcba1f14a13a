import FocusTrap, { type TrapFocusProps } from '@mui/material/Unstable_TrapFocus';
import { modalClasses } from '@mui/material/Modal';
import { useCallback, useEffect, useRef, type RefObject } from 'react';

/** Layers above the page that take focus: MUI modals (dialogs, drawers, menus) and any other dialog (the tour). */
const LAYER_SELECTOR = `.${modalClasses.root}:not(.${modalClasses.hidden}), [role="dialog"], [role="alertdialog"]`;

/**
 * Whether a layer other than `own` (and not around it) is open and so owns focus. A closed drawer
 * that stays mounted keeps its `role="dialog"` paper inside a hidden modal: that is no open layer.
 */
function otherLayerOpen(own: Element | null): boolean {
  return Array.from(document.querySelectorAll(LAYER_SELECTOR)).some(
    (layer) =>
      !layer.closest(`.${modalClasses.hidden}`) && (own === null || (!own.contains(layer) && !layer.contains(own))),
  );
}

/**
 * Keeps keyboard focus in a panel of the page (the info panel) once `open`: Tab cycles inside it.
 * It is one owner of focus among others and gives way to them: while a modal, a drawer, a menu or
 * the tour is open it stands down (two traps enforcing focus at once hand it to each other without
 * end), and when the visitor presses the pointer outside the panel it lets focus go there, so a
 * dialog opened from outside returns focus to its opener. Focus coming back into the panel
 * holds it again.
 */
export function PanelFocusTrap({
  open,
  rootRef,
  children,
}: {
  open: boolean;
  /** The panel element, the trap's child. */
  rootRef: RefObject<HTMLElement | null>;
  children: TrapFocusProps['children'];
}) {
  const released = useRef(false);
  useEffect(() => {
    const inside = (target: EventTarget | null) => target instanceof Node && !!rootRef.current?.contains(target);
    const onPointerDown = (e: PointerEvent) => {
      released.current = !inside(e.target);
    };
    const onFocusIn = (e: FocusEvent) => {
      if (inside(e.target)) released.current = false;
    };
    // Capturing, so the trap knows before its own focusin handler on the document runs.
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('focusin', onFocusIn, true);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('focusin', onFocusIn, true);
    };
  }, [rootRef]);
  const isEnabled = useCallback(() => !released.current && !otherLayerOpen(rootRef.current), [rootRef]);
  // A panel that opens while a layer owns focus (the tour pointing at it) does not take it. The
  // panel is never inside such a layer, so any open layer counts.
  const otherOwnsFocus = open && otherLayerOpen(null);
  return (
    <FocusTrap open={open} isEnabled={isEnabled} disableAutoFocus={otherOwnsFocus}>
      {children}
    </FocusTrap>
  );
}
