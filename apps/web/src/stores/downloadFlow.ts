import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { convertSetsCall, downloadCall, orderCall, zipListCall } from '@vitrine/contract/endpoints';
import type { ConvertSet } from '@vitrine/contract/session';
import { ApiError, callApi, fetchFile } from '../lib/apiClient.ts';
import { needsConfirmation } from '../lib/maxAssets.ts';
import { toast } from '../lib/toast.ts';

/** Download status of portal-spec §4 ("Download: ready, downloading"). */
export type DownloadStatus = 'ready' | 'downloading';

export type DownloadDialog =
  | { kind: 'sets'; ids: string[]; sets: ConvertSet[] }
  | { kind: 'order'; ids: string[] }
  /** "Do you really want to download {0} assets?" (views.search.modal.download), above maxAssets. */
  | { kind: 'confirm'; ids: string[] }
  | null;

export interface DownloadProgress {
  name: string;
  loaded: number;
  total: number | null;
}

export interface DownloadState {
  status: DownloadStatus;
  dialog: DownloadDialog;
  progress: DownloadProgress | null;
}

/** What the flow needs from the global config. */
export interface DownloadOptions {
  /** global.run_order_process */
  orderProcess: boolean;
  /** terms_of_use.show */
  termsShown: boolean;
  /**
   * maxAssets of info/downloads (-1: unlimited; undefined: not known yet). More assets than this are
   * downloaded after a question, as several zips of at most this many.
   */
  maxAssets?: number;
}

let state: DownloadState = { status: 'ready', dialog: null, progress: null };
const listeners = new Set<() => void>();

function set(next: Partial<DownloadState>): void {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

export function useDownloadState(): DownloadState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

/** The flow's state outside React (tests, and callers that read it once). */
export function downloadState(): DownloadState {
  return state;
}

export function closeDownloadDialog(): void {
  set({ dialog: null });
}

/** Hands the browser a loaded file under its name (the blob's object URL is freed afterwards). */
function save(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A busy media server (429 `busy`) is asked again after its Retry-After, this many times at most. */
const BUSY_RETRIES = 3;
const isBusy = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 429 && error.body?.error === 'busy';

/**
 * Asks until the media server has room: while its pools are full it answers 429 `busy`, and the
 * "try later" notice is shown (politely announced) until the next try, a few times before giving up.
 */
async function whenNotBusy<T>(ask: () => Promise<T>, onBusy: () => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await ask();
    } catch (error) {
      if (!isBusy(error) || attempt >= BUSY_RETRIES) throw error;
      onBusy();
      const notice = toast.show('toast.download.backend_rate_limit_reached', 'info', undefined, undefined, true);
      const seconds = error.retryWaitSeconds();
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      toast.dismiss(notice);
    }
  }
}

/**
 * Maps a failed download to the toasts of portal-spec §8 "Download": the download call refused (no
 * rights, one conversion at a time, a busy server), the file a conversion could not make (failed,
 * with the server's reason), the signed file refused where it is served (failed_backend: a revoked
 * share link, an expired URL), else the generic error.
 */
function failed(error: unknown): void {
  if (isBusy(error)) toast.show('toast.download.backend_rate_limit_reached', 'warning', undefined, undefined, true);
  else if (!(error instanceof ApiError)) toast.show('toast.download.error', 'error');
  else if (error.status === 429) toast.show('toast.download.rate_limit_reached', 'warning');
  // A call's refusal names its error id; the signed file's answer is read as a file, without one.
  else if (error.status === 403 && error.body === undefined) toast.show('toast.download.failed_backend', 'error');
  // A conversion of long media refused to a caller without an account: the server says which limit.
  else if (error.body?.error === 'too_long')
    toast.show('toast.download.failed', 'warning', undefined, error.body.message);
  else if (error.status === 403) toast.show('toast.download.unauthorized', 'warning');
  else if (error.body?.error === 'unsupported_media_type')
    toast.show('toast.download.failed', 'error', undefined, error.body.message);
  else toast.show('toast.download.error', 'error');
}

/** Loads a signed file with progress and saves it: under the server's name, or `name` when `named`. */
async function fetchAndSave(url: string, name: string, named = false): Promise<void> {
  set({ progress: { name, loaded: 0, total: null } });
  const file = await fetchFile(url, (loaded, total) => set({ progress: { name, loaded, total } }));
  save(file.blob, named ? name : (file.filename ?? name));
}

/** The zips a download of `ids` takes: one, or parts of at most `maxAssets` (unless -1). */
export function zipParts(ids: readonly string[], maxAssets: number | undefined): string[][] {
  if (maxAssets === undefined || maxAssets <= 0) return [[...ids]];
  const parts: string[][] = [];
  for (let i = 0; i < ids.length; i += maxAssets) parts.push(ids.slice(i, i + maxAssets));
  return parts;
}

/**
 * Downloads `ids` in conversion set `csetid`: one asset as its file, several as a zip (several zips
 * above maxAssets) whose
 * refused assets are named and, with the order process on, offered in the order dialog.
 */
export async function runDownload(ids: string[], csetid: number, options: DownloadOptions): Promise<void> {
  if (state.status === 'downloading') {
    toast.show('toast.download.wait', 'info');
    return;
  }
  set({ status: 'downloading', dialog: null });
  const startsSoon = toast.show('toast.download.starts_soon', 'info');
  const rejected: string[] = [];
  // While the server is busy, its notice takes the place of "starts soon".
  const busy = () => toast.dismiss(startsSoon);
  try {
    if (ids.length === 1) {
      const id = ids[0] ?? '';
      const { url } = await whenNotBusy(() => callApi(downloadCall, { query: { id, csetid, target: 'down' } }), busy);
      await fetchAndSave(url, `asset-${id}`);
    } else {
      const parts = zipParts(ids, options.maxAssets);
      for (const [i, part] of parts.entries()) {
        // The ids go in the body and the zip's URL names the list the server keeps, so neither call
        // grows with the selection (a URL of hundreds of ids is refused by proxies, 414).
        const answer = await whenNotBusy(() => callApi(zipListCall, { body: { csetid, ids: part } }), busy);
        rejected.push(...answer.rejected_asset_ids);
        // The parts are numbered, so that they do not all arrive as "assets-500.zip".
        if (parts.length === 1) {
          if (answer.url) await fetchAndSave(answer.url, 'assets.zip');
        } else if (answer.url) await fetchAndSave(answer.url, `assets-${i + 1}-of-${parts.length}.zip`, true);
      }
      if (rejected.length > 0) toast.show('toast.download.some_unauthorized', 'warning');
    }
  } catch (error) {
    // It will not start: the reason replaces the notice at once.
    toast.dismiss(startsSoon);
    failed(error);
  } finally {
    set({ status: 'ready', progress: null });
  }
  if (rejected.length > 0 && options.orderProcess) set({ dialog: { kind: 'order', ids: rejected } });
}

/**
 * The download flow of portal-spec §4: fetch the conversion sets of the (first) asset; more than
 * one, or terms of use to accept, opens the dialog; exactly one downloads at once; none opens the
 * order dialog when the order process is on, otherwise warns. A running download refuses a second.
 * More assets than maxAssets are asked about first (`confirmed` once the visitor said yes).
 */
export async function startDownload(ids: string[], options: DownloadOptions, confirmed = false): Promise<void> {
  if (state.status === 'downloading') {
    toast.show('toast.download.wait', 'info');
    return;
  }
  const first = ids[0];
  if (!first) return;
  if (!confirmed && options.maxAssets !== undefined && needsConfirmation(ids.length, options.maxAssets)) {
    set({ dialog: { kind: 'confirm', ids } });
    return;
  }
  let sets: ConvertSet[];
  try {
    sets = (await callApi(convertSetsCall, { query: { asset_id: first } })).convert_sets;
  } catch (error) {
    failed(error);
    return;
  }
  const only = sets[0];
  if (sets.length > 1 || (options.termsShown && only)) set({ dialog: { kind: 'sets', ids, sets } });
  else if (only) await runDownload(ids, only.id, options);
  else if (options.orderProcess) set({ dialog: { kind: 'order', ids } });
  else toast.show('toast.download.unauthorized', 'warning');
}

/**
 * The conversion sets the caller may download an asset in (`session/csets`), once the page knows the
 * asset is visible: an asset page says before any click when there are none. Kept per account, so a
 * login asks again.
 */
export function useConvertSets(assetId: string, user: string | null | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['session', 'csets', user ?? null, assetId] as const,
    queryFn: async ({ signal }) =>
      (await callApi(convertSetsCall, { query: { asset_id: assetId }, signal })).convert_sets,
    enabled: enabled && assetId !== '',
    staleTime: 60_000,
  });
}

/** Sends the order of portal-spec §1 ("a mail to a configured order address"). */
export async function sendOrder(ids: string[], message: string): Promise<boolean> {
  try {
    await callApi(orderCall, { body: { id: ids, message } });
    toast.show('toast.order.success', 'success');
    set({ dialog: null });
    return true;
  } catch {
    toast.show('toast.order.error', 'error');
    return false;
  }
}
