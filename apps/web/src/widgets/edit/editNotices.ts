import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/apiClient.ts';
import { toast } from '../../lib/toast.ts';
import {
  binAssets,
  dropFromResults,
  refreshAfterBin,
  refreshAfterEdit,
  restoreAssets,
  undoBatch,
} from '../../stores/edit.ts';

function failed(error: unknown): void {
  toast.show('edit.error', 'error', undefined, error instanceof ApiError ? error.message : undefined);
}

/** Undoes a batch of the history and says how many assets went back (and how many had changed since). */
export function undoWithNotice(client: QueryClient, batch: number): void {
  undoBatch(batch)
    .then((answer) => {
      refreshAfterEdit(client);
      if (answer.skipped > 0)
        toast.show('edit.undone_skipped', 'info', { count: answer.undone, skipped: answer.skipped });
      else toast.show('edit.undone', 'success', { count: answer.undone }, undefined, true);
    })
    .catch(failed);
}

/** Brings assets back from the bin. */
export function restoreWithNotice(client: QueryClient, ids: string[]): Promise<void> {
  return restoreAssets(ids)
    .then((answer) => {
      refreshAfterEdit(client);
      toast.show('edit.restored', 'success', { count: answer.changed }, undefined, true);
    })
    .catch(failed);
}

/**
 * Moves assets to the bin: they leave the results shown at once, and the notice offers to bring them
 * back. `left` runs once the server agreed (the asset page goes back), before the screens ask again.
 */
export function binWithNotice(client: QueryClient, ids: string[], left?: () => void): Promise<void> {
  dropFromResults(client, ids);
  return binAssets(ids)
    .then((answer) => {
      left?.();
      refreshAfterBin(client);
      toast.offer(
        'edit.binned',
        { count: answer.changed },
        { key: 'edit.undo', run: () => void restoreWithNotice(client, ids) },
      );
    })
    .catch((error: unknown) => {
      refreshAfterEdit(client);
      failed(error);
    });
}
