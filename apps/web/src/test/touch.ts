import type { UserEvent } from '@testing-library/user-event';
import { LONG_PRESS_MS } from '../lib/longPress.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A finger on `target`: it rests `holdMs` (moving `moveX` px to the side first, if asked), `whileHeld`
 * looks at the page, then the finger lifts. The events are those user-event sends for a touch
 * pointer, with the click on lifting that a browser sends after a tap (user-event also sends it after
 * a finger moved, where a browser would be scrolling).
 */
export async function touch(
  user: UserEvent,
  target: Element,
  {
    holdMs = LONG_PRESS_MS + 150,
    moveX = 0,
    whileHeld,
  }: { holdMs?: number; moveX?: number; whileHeld?: () => void } = {},
): Promise<void> {
  await user.pointer({ keys: '[TouchA>]', target, coords: { clientX: 20, clientY: 20 } });
  if (moveX !== 0) await user.pointer({ pointerName: 'TouchA', target, coords: { clientX: 20 + moveX, clientY: 20 } });
  await wait(holdMs);
  whileHeld?.();
  await user.pointer({ keys: '[/TouchA]', target });
}
