import type { KeyboardEvent } from 'react';

type Direction = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';
const directions = new Set<string>(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End']);

/**
 * Where an arrow key leads in a grid of items laid out in rows (posters of varying width,
 * thumbnails): left and right to the previous and next item, up and down to the item of the row
 * above or below whose centre is nearest, Home and End to the first and last item shown.
 */
export function gridNeighbour(items: HTMLElement[], current: HTMLElement, key: Direction): HTMLElement | undefined {
  const i = items.indexOf(current);
  if (i === -1) return undefined;
  if (key === 'ArrowLeft') return items[i - 1];
  if (key === 'ArrowRight') return items[i + 1];
  if (key === 'Home') return items[0];
  if (key === 'End') return items.at(-1);
  const from = current.getBoundingClientRect();
  const centre = from.left + from.width / 2;
  const down = key === 'ArrowDown';
  const rows = items
    .map((el) => ({ el, box: el.getBoundingClientRect() }))
    .filter(({ box }) => (down ? box.top >= from.bottom - 1 : box.bottom <= from.top + 1));
  if (rows.length === 0) return undefined;
  // The nearest row in that direction, then the item in it nearest to the current one's centre.
  const rowTop = down ? Math.min(...rows.map((r) => r.box.top)) : Math.max(...rows.map((r) => r.box.top));
  const row = rows.filter((r) => Math.abs(r.box.top - rowTop) < 2);
  const distance = (box: DOMRect) => Math.abs(box.left + box.width / 2 - centre);
  return row.reduce((best, r) => (distance(r.box) < distance(best.box) ? r : best)).el;
}

/**
 * A keydown handler for a container of grid items matching `selector`: arrow keys, Home and End
 * move the focus between them (the items stay in the tab order, so Tab still reaches what is
 * between them, such as the icon set).
 */
export function gridKeyHandler(selector: string) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (!directions.has(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target as HTMLElement;
    if (!target.matches(selector)) return;
    const items = [...event.currentTarget.querySelectorAll<HTMLElement>(selector)];
    const next = gridNeighbour(items, target, event.key as Direction);
    if (!next) return;
    event.preventDefault();
    next.focus();
    next.scrollIntoView({ block: 'nearest' });
  };
}
