import { useState } from 'react';
import type { AssetDoc } from '@vitrine/contract/search';
import { nextSelection, type ClickModifiers } from '../../lib/selection.ts';
import { useOnChange } from '../../lib/useOnChange.ts';
import { useStableCallback } from '../../lib/useStableCallback.ts';
import { initialView, VIEW_KEY, type ViewKey } from './searchState.ts';

/**
 * The results' view (portal-spec §4 "Search"): the one chosen in this tab, else the config's default
 * when it is shown, else the first shown.
 */
export function useSearchView(
  options: readonly { key: ViewKey; visible: boolean }[],
  configured: ViewKey,
): [ViewKey, (next: ViewKey) => void] {
  const [view, setView] = useState<ViewKey>(() => initialView(options, configured));
  const choose = useStableCallback((next: ViewKey) => {
    setView(next);
    sessionStorage.setItem(VIEW_KEY, next);
  });
  return [view, choose];
}

export interface ResultSelection {
  /** The asset whose info panel is open. */
  activeId: string | null;
  /** The selected assets, in the order they were chosen. */
  selected: string[];
  /** A click on a result: selects (with Ctrl/Cmd and Shift as portal-spec §4 "Selection" says) and opens or closes its panel. */
  onItemClick: (doc: AssetDoc, click: ClickModifiers) => void;
  /** Closes the info panel. */
  closeInfo: () => void;
  /** Opens the first result's panel when none is open (the guided tour's info panel step). */
  openFirstInfo: () => void;
  /** Empties the selection (its assets left the results: moved to the bin). */
  clearSelection: () => void;
}

/**
 * The active asset and the selection (portal-spec §4 "Active asset", "Selection"), about the search
 * `searchKey` names: a new search, sort or filter clears both (no frame shows the old panel).
 */
export function useResultSelection(searchKey: string, docs: readonly AssetDoc[]): ResultSelection {
  const [activeId, setActiveId] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  useOnChange(searchKey, () => {
    setActiveId(null);
    setSelected([]);
  });
  const onItemClick = useStableCallback((doc: AssetDoc, click: ClickModifiers) => {
    setSelected((s) =>
      nextSelection(
        s,
        docs.map((d) => d.id),
        doc.id,
        click,
      ),
    );
    if (!click.ctrlKey && !click.metaKey && !click.shiftKey) setActiveId((a) => (a === doc.id ? null : doc.id));
  });
  const closeInfo = useStableCallback(() => setActiveId(null));
  const openFirstInfo = useStableCallback(() => setActiveId((a) => a ?? docs[0]?.id ?? null));
  const clearSelection = useStableCallback(() => setSelected([]));
  return { activeId, selected, onItemClick, closeInfo, openFirstInfo, clearSelection };
}
