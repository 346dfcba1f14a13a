import { describe, expect, it } from 'vitest';
import { EDGE, placeBeside } from './Anchored.tsx';

const viewport = { width: 1000, height: 800 };
const size = { width: 100, height: 30 };

describe('floating elements beside their anchor (tooltips, tour, menus)', () => {
  it('go above or below, centred, at the gap', () => {
    const button = { top: 200, left: 400, width: 40, height: 40 };
    expect(placeBeside(button, size, 'top', viewport, 14)).toEqual({ top: 156, left: 370, side: 'top' });
    expect(placeBeside(button, size, 'bottom', viewport, 8)).toEqual({ top: 248, left: 370, side: 'bottom' });
  });

  it('right-align for bottom-end', () => {
    const button = { top: 10, left: 900, width: 40, height: 40 };
    expect(placeBeside(button, size, 'bottom-end', viewport, 0)).toEqual({ top: 50, left: 840, side: 'bottom' });
  });

  it('flip to the other side only when that one has room', () => {
    const atTop = { top: 10, left: 400, width: 40, height: 40 };
    expect(placeBeside(atTop, size, 'top', viewport, 14).side).toBe('bottom');
    const atBottom = { top: 760, left: 400, width: 40, height: 40 };
    expect(placeBeside(atBottom, size, 'bottom', viewport, 8).side).toBe('top');
    // No room on either side: the asked side stays.
    expect(placeBeside(atTop, size, 'top', { width: 1000, height: 60 }, 14).side).toBe('top');
  });

  it(`stay ${EDGE} px inside the window sideways`, () => {
    expect(placeBeside({ top: 200, left: 0, width: 20, height: 20 }, size, 'top', viewport, 0).left).toBe(EDGE);
    expect(placeBeside({ top: 200, left: 990, width: 10, height: 20 }, size, 'top', viewport, 0).left).toBe(
      1000 - EDGE - 100,
    );
  });
});
