import { describe, expect, it } from 'vitest';
import { gridNeighbour } from './gridKeys.ts';

/** Items at fixed places, as a poster grid lays them out (rows of varying widths). */
function item(left: number, top: number, width: number, height = 100): HTMLElement {
  const el = document.createElement('button');
  el.getBoundingClientRect = () => DOMRect.fromRect({ x: left, y: top, width, height });
  return el;
}

describe('arrow keys in poster and thumbnail grids', () => {
  // Row 1: a wide and a narrow poster; row 2: three posters.
  const [a, b, c, d, e] = [
    item(0, 0, 300),
    item(304, 0, 100),
    item(0, 104, 120),
    item(124, 104, 120),
    item(248, 104, 160),
  ];
  const items = [a, b, c, d, e];

  it('moves left and right in result order, across rows, and stops at the ends', () => {
    expect(gridNeighbour(items, b, 'ArrowRight')).toBe(c);
    expect(gridNeighbour(items, c, 'ArrowLeft')).toBe(b);
    expect(gridNeighbour(items, a, 'ArrowLeft')).toBeUndefined();
    expect(gridNeighbour(items, e, 'ArrowRight')).toBeUndefined();
  });

  it('moves up and down to the item of the next row whose centre is nearest', () => {
    expect(gridNeighbour(items, a, 'ArrowDown')).toBe(d);
    expect(gridNeighbour(items, b, 'ArrowDown')).toBe(e);
    expect(gridNeighbour(items, c, 'ArrowUp')).toBe(a);
    expect(gridNeighbour(items, e, 'ArrowUp')).toBe(b);
    expect(gridNeighbour(items, a, 'ArrowUp')).toBeUndefined();
    expect(gridNeighbour(items, d, 'ArrowDown')).toBeUndefined();
  });

  it('goes to the first and last item with Home and End', () => {
    expect(gridNeighbour(items, c, 'Home')).toBe(a);
    expect(gridNeighbour(items, c, 'End')).toBe(e);
  });
});
