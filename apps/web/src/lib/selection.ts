/** How a click changes a selection (portal-spec §4 "Selection"). */
export interface ClickModifiers {
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/**
 * The one selection rule of the search results and the bookmark list (portal-spec §4 "Selection"):
 * a plain click replaces the selection; ctrl/meta click toggles the item; shift click adds the range
 * between the item and the nearest already selected one in `order` (the result order). The
 * selection keeps the order in which items were chosen (a range's new items in result order after
 * them), and items that are not in `order` (no longer loaded or listed) stay selected.
 */
export function nextSelection(
  selected: readonly string[],
  order: readonly string[],
  id: string,
  click: ClickModifiers,
): string[] {
  if (click.shiftKey && selected.length > 0) {
    const at = order.indexOf(id);
    let nearest = -1;
    for (const s of selected) {
      const i = order.indexOf(s);
      if (i !== -1 && (nearest === -1 || Math.abs(i - at) < Math.abs(nearest - at))) nearest = i;
    }
    if (at === -1 || nearest === -1) return selected.includes(id) ? [...selected] : [...selected, id];
    const [from, to] = at < nearest ? [at, nearest] : [nearest, at];
    return [...selected, ...order.slice(from, to + 1).filter((r) => !selected.includes(r))];
  }
  if (click.ctrlKey || click.metaKey) {
    return selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id];
  }
  return [id];
}
