/** How a click changes a selection (portal-spec §4 "Selection"). */
export interface ClickModifiers {
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/**
 * Plain click replaces the selection; ctrl/meta click toggles the item; shift click adds the range
 * between the item and the nearest already selected one in `order`.
 */
export function nextSelection(
  selected: readonly string[],
  order: readonly string[],
  id: string,
  click: ClickModifiers,
): string[] {
  if (click.shiftKey && selected.length > 0) {
    const at = order.indexOf(id);
    const picked = selected.map((s) => order.indexOf(s)).filter((i) => i >= 0);
    const nearest = picked.reduce((best, i) => (Math.abs(i - at) < Math.abs(best - at) ? i : best), picked[0] ?? at);
    const [from, to] = at < nearest ? [at, nearest] : [nearest, at];
    const range = order.slice(from, to + 1);
    return order.filter((o) => selected.includes(o) || range.includes(o));
  }
  if (click.ctrlKey || click.metaKey) {
    return selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id];
  }
  return [id];
}
