/**
 * The status values of admin-spec §4, each derived once per resource from its load and its save,
 * so that every screen of a resource shows and announces the same one (`data-status`, `aria-busy`).
 */
export type ConfigStatus = 'initial' | 'loading' | 'success' | 'unavailable' | 'saving';
export type TranslationsStatus = 'initial' | 'loading' | 'saving' | 'success';
export type CustomPageStatus = 'initial' | 'loading' | 'success';

/** What the status is told from: a query's state as TanStack Query reports it. */
export interface Load {
  isPending: boolean;
  isError: boolean;
  fetchStatus: 'fetching' | 'paused' | 'idle';
}

/** Asked and not answered yet. */
const loading = (load: Load) => load.isPending && load.fetchStatus !== 'idle';

/** Unavailable stays unavailable (admin-spec §4 "Other transitions"): nothing can be saved then. */
export function configStatus(load: Load, saving: boolean): ConfigStatus {
  if (load.isError) return 'unavailable';
  if (saving) return 'saving';
  if (loading(load)) return 'loading';
  return load.isPending ? 'initial' : 'success';
}

/** A language's texts beside the English ones: success once both are there. */
export function translationsStatus(loads: readonly Load[], saving: boolean): TranslationsStatus {
  if (saving) return 'saving';
  if (loads.some(loading)) return 'loading';
  return loads.some((l) => l.isPending || l.isError) ? 'initial' : 'success';
}

export function customPageStatus(load: Load): CustomPageStatus {
  if (loading(load)) return 'loading';
  return load.isPending || load.isError ? 'initial' : 'success';
}

/** Whether a screen in this status waits for the server (its `aria-busy`). */
export const busy = (status: ConfigStatus | TranslationsStatus | CustomPageStatus) =>
  status === 'loading' || status === 'saving';
