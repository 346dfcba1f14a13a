import { useSyncExternalStore } from 'react';
import { Upload, defaultOptions, type DetailedError, type PreviousUpload } from 'tus-js-client';
import { API_BASE_PATH, UPLOAD_ASSET_HEADER, UPLOAD_PATH } from '@vitrine/contract/endpoints';
import { apiHeaders } from '../../lib/apiClient.ts';
import { onCallerChange } from '../../stores/session.ts';
import { refusalOf, type PickedFile, type Refusal, type UploadLimits } from './files.ts';

/**
 * The editor's uploads through the tus protocol (issue #49), one tus upload per file, a few at a
 * time. They belong to the page's code, not to the page: they go on while the editor looks
 * elsewhere in the portal, and stop when the caller changes (a logout, another login).
 *
 * Each upload's address is kept in local storage under a fingerprint of the file and its target
 * (tus-js-client's URL store), so that the same file chosen again, after a lost connection or a
 * reload, continues where the server says it stopped; a finished upload forgets its address.
 */

export type UploadState = 'refused' | 'waiting' | 'uploading' | 'paused' | 'done' | 'failed';

export interface UploadItem {
  readonly id: number;
  readonly file: File;
  /** The path inside the folder it came in, '' for a file on its own. */
  readonly relativePath: string;
  readonly collection: number;
  readonly state: UploadState;
  /** Bytes the server has. */
  readonly sent: number;
  readonly refusal?: Refusal;
  /** Why the server refused it, in its own words, or 'network' when no answer came. */
  readonly failure?: { status: number; message?: string } | 'network';
  readonly assetId?: string;
  /** It continued an upload begun before (another visit, a reload). */
  readonly resumed?: boolean;
  /** When it finished (ms since the epoch). */
  readonly doneAt?: number;
}

/** An upload begun before and not finished, as the URL store keeps it. */
export interface UnfinishedUpload {
  key: string;
  filename: string;
  relativePath: string;
  size: number | null;
  createdAt: string;
}

/** How many files are sent at once. */
const AT_ONCE = 3;
/** Waits between tries after a lost connection (ms): about a minute in all before the file fails. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000];
/** Fingerprints of this portal's uploads start so: the URL store may hold other pages' too. */
const FINGERPRINT_PREFIX = 'vitrine-upload';

/** Answers after which the same file would be refused again: too large, of a type or content the import cannot read. */
const FINAL_REFUSALS = [413, 415, 422];

const endpoint = () => new URL(`${API_BASE_PATH}${UPLOAD_PATH}`, window.location.href).href;

/**
 * The same file for the same target is the same upload: its name and path, size and date, the
 * collection, and the server.
 */
/** The most bytes one request of an upload carries. */
const CHUNK_BYTES = 16 * 1024 * 1024;

const fingerprintOf = (file: File, relativePath: string, collection: number) =>
  [FINGERPRINT_PREFIX, collection, relativePath || file.name, file.size, file.lastModified, endpoint()]
    .map((part) => encodeURIComponent(String(part)))
    .join('/');

function failureOf(error: Error | DetailedError): NonNullable<UploadItem['failure']> {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  if (!response) return 'network';
  let message: string | undefined;
  try {
    const body = JSON.parse(response.getBody()) as { message?: unknown };
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // Not the server's JSON (a proxy's page): the status says enough.
  }
  return { status: response.getStatus(), ...(message ? { message } : {}) };
}

export interface UploadsSnapshot {
  items: readonly UploadItem[];
  /** The last change worth announcing: an item that finished, failed or was refused. */
  announcement: { id: number; item: UploadItem } | undefined;
}

class UploadQueue {
  private snapshot: UploadsSnapshot = { items: [], announcement: undefined };
  private readonly uploads = new Map<number, Upload>();
  private readonly listeners = new Set<() => void>();
  private nextId = 1;
  private nextAnnouncement = 1;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get = () => this.snapshot;

  private change(id: number, next: Partial<UploadItem>, announce = false): void {
    const items = this.snapshot.items.map((item) => (item.id === id ? { ...item, ...next } : item));
    const item = items.find((i) => i.id === id);
    const announcement = announce && item ? { id: this.nextAnnouncement++, item } : this.snapshot.announcement;
    this.snapshot = { items, announcement };
    for (const listener of this.listeners) listener();
  }

  /**
   * Adds files for `collection`: those the limits refuse are listed as refused and never sent, the
   * others wait their turn. What is left of today's amount shrinks with each file taken.
   */
  add(files: readonly PickedFile[], collection: number, limits: UploadLimits): void {
    let left = limits.leftTodayBytes;
    const added = files.map(({ file, relativePath }): UploadItem => {
      const refusal = refusalOf(file, { ...limits, leftTodayBytes: left });
      if (!refusal) left -= file.size;
      return {
        id: this.nextId++,
        file,
        relativePath,
        collection,
        state: refusal ? 'refused' : 'waiting',
        sent: 0,
        ...(refusal ? { refusal } : {}),
      };
    });
    const refused = added.filter((item) => item.state === 'refused');
    this.snapshot = {
      items: [...this.snapshot.items, ...added],
      announcement: refused[0] ? { id: this.nextAnnouncement++, item: refused[0] } : this.snapshot.announcement,
    };
    for (const listener of this.listeners) listener();
    this.pump();
  }

  /** Starts waiting files while fewer than AT_ONCE are on their way. */
  private pump(): void {
    const running = this.snapshot.items.filter((item) => item.state === 'uploading').length;
    const next = this.snapshot.items.filter((item) => item.state === 'waiting').slice(0, AT_ONCE - running);
    for (const item of next) this.begin(item);
  }

  private begin(item: UploadItem): void {
    this.change(item.id, { state: 'uploading', failure: undefined });
    const known = this.uploads.get(item.id);
    if (known) {
      known.start();
      return;
    }
    // A file's first start looks for an upload of it begun before, to go on with that one.
    const upload = this.tusUpload(item);
    void upload
      .findPreviousUploads()
      .catch((): PreviousUpload[] => [])
      .then((previous) => {
        // Paused meanwhile, or started again by a later look-up.
        if (this.state(item.id) !== 'uploading' || this.uploads.has(item.id)) return;
        this.uploads.set(item.id, upload);
        const last = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
        if (last) {
          upload.resumeFromPreviousUpload(last);
          this.change(item.id, { resumed: true });
        }
        upload.start();
      });
  }

  private state(id: number): UploadState | undefined {
    return this.snapshot.items.find((item) => item.id === id)?.state;
  }

  private tusUpload(item: UploadItem): Upload {
    const { id, file, relativePath, collection } = item;
    return new Upload(file, {
      endpoint: endpoint(),
      metadata: { filename: file.name, collection: String(collection), ...(relativePath ? { relativePath } : {}) },
      fingerprint: () => Promise.resolve(fingerprintOf(file, relativePath, collection)),
      retryDelays: RETRY_DELAYS,
      // Each request ends well within the server's request timeout, and a cut one costs at most a
      // chunk (on an object store an interrupted request keeps none of its bytes).
      chunkSize: CHUNK_BYTES,
      removeFingerprintOnSuccess: true,
      // The session and XSRF tokens of the moment: a request after a while may carry newer ones.
      onBeforeRequest: (req) => {
        for (const [name, value] of Object.entries(apiHeaders())) req.setHeader(name, value);
      },
      onProgress: (sent) => {
        if (this.state(id) === 'uploading') this.change(id, { sent });
      },
      onSuccess: ({ lastResponse }) => {
        const assetId = lastResponse.getHeader(UPLOAD_ASSET_HEADER) || undefined;
        this.uploads.delete(id);
        this.change(id, { state: 'done', sent: file.size, doneAt: Date.now(), ...(assetId ? { assetId } : {}) }, true);
        this.pump();
      },
      onError: (error) => {
        const failure = failureOf(error);
        this.uploads.delete(id);
        // A file the server will not take is nothing to go on with later (a day's limit is).
        if (failure !== 'network' && FINAL_REFUSALS.includes(failure.status)) {
          void forgetFingerprint(fingerprintOf(file, relativePath, collection));
        }
        this.change(id, { state: 'failed', failure }, true);
        this.pump();
      },
    });
  }

  /** Stops a file where it is (it keeps its address, so it goes on from there) or keeps it from starting. */
  pause(id: number): void {
    const state = this.state(id);
    if (state !== 'uploading' && state !== 'waiting') return;
    this.change(id, { state: 'paused' });
    void this.uploads.get(id)?.abort();
    this.pump();
  }

  /** Lets a paused or failed file go on (a failed one asks the server where it stopped). */
  resume(id: number): void {
    const state = this.state(id);
    if (state !== 'paused' && state !== 'failed') return;
    this.change(id, { state: 'waiting' });
    this.pump();
  }

  pauseAll(): void {
    for (const item of this.snapshot.items)
      if (item.state === 'uploading' || item.state === 'waiting') this.pause(item.id);
  }

  resumeAll(): void {
    for (const item of this.snapshot.items) if (item.state === 'paused') this.resume(item.id);
  }

  /** Takes finished, failed and refused files off the list. */
  clearFinished(): void {
    const kept = this.snapshot.items.filter((item) => !['done', 'failed', 'refused'].includes(item.state));
    for (const item of this.snapshot.items) if (!kept.includes(item)) this.uploads.delete(item.id);
    this.snapshot = { items: kept, announcement: this.snapshot.announcement };
    for (const listener of this.listeners) listener();
  }

  /** Stops every upload and forgets the list (their addresses stay stored, to go on later). */
  reset(): void {
    for (const upload of this.uploads.values()) void upload.abort();
    this.uploads.clear();
    this.snapshot = { items: [], announcement: undefined };
    for (const listener of this.listeners) listener();
  }
}

/** Forgets the stored addresses of a file's uploads. */
async function forgetFingerprint(fingerprint: string): Promise<void> {
  const stored = await defaultOptions.urlStorage.findUploadsByFingerprint(fingerprint);
  await Promise.all(stored.map((upload) => defaultOptions.urlStorage.removeUpload(upload.urlStorageKey)));
}

export const uploads = new UploadQueue();

// Another caller's uploads are not this one's to see or go on with.
onCallerChange(() => uploads.reset());

export function useUploads(): UploadsSnapshot {
  return useSyncExternalStore(uploads.subscribe, uploads.get);
}

/** Whether a file is still on its way (so leaving the page would cut it). */
export const isPending = (item: UploadItem) => item.state === 'waiting' || item.state === 'uploading';

/** The uploads begun before and not finished that the URL store keeps, latest first. */
export async function unfinishedUploads(): Promise<UnfinishedUpload[]> {
  const stored: PreviousUpload[] = await defaultOptions.urlStorage.findAllUploads();
  return stored
    .filter((upload) => upload.urlStorageKey.startsWith(`tus::${FINGERPRINT_PREFIX}/`))
    .map((upload) => ({
      key: upload.urlStorageKey,
      filename: upload.metadata.filename ?? '',
      relativePath: upload.metadata.relativePath ?? '',
      size: upload.size,
      createdAt: upload.creationTime,
    }))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Forgets an unfinished upload: choosing its file again starts it anew. */
export function forgetUnfinished(key: string): Promise<void> {
  return defaultOptions.urlStorage.removeUpload(key);
}
