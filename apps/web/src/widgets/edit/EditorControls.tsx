import { lazy, Suspense } from 'react';
import { useSession } from '../../stores/session.ts';

/*
 * The doors to the editors' screens (issue #49). Nothing behind them is drawn, nor is its code
 * loaded, unless the session says the caller is an editor: the screens everyone sees carry only
 * this module.
 */
const EditTools = () => import('./EditTools.tsx');
const LazyAssetEditTools = lazy(() => EditTools().then((m) => ({ default: m.AssetEditTools })));
const LazySelectionEditTools = lazy(() => EditTools().then((m) => ({ default: m.SelectionEditTools })));
const LazyHistorySection = lazy(() => import('./HistorySection.tsx').then((m) => ({ default: m.HistorySection })));

export function useIsEditor(): boolean {
  return useSession().session?.isEditor === true;
}

/** Edit and "Move to bin" for one asset (asset page: icon buttons; info panel: `compact` text buttons). */
export function AssetEditorActions(props: { id: string; compact?: boolean; onBinned?: () => void }) {
  if (!useIsEditor()) return null;
  return (
    <Suspense fallback={null}>
      <LazyAssetEditTools id={props.id} compact={props.compact === true} onBinned={props.onBinned} />
    </Suspense>
  );
}

/** Edit and "Move to bin" for the selected results. */
export function SelectionEditorActions({ ids, onBinned }: { ids: string[]; onBinned?: () => void }) {
  if (!useIsEditor() || ids.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <LazySelectionEditTools ids={ids} onBinned={onBinned} />
    </Suspense>
  );
}

/** The asset's history, for editors. */
export function AssetHistory({ id }: { id: string }) {
  if (!useIsEditor()) return null;
  return (
    <Suspense fallback={null}>
      <LazyHistorySection id={id} />
    </Suspense>
  );
}
