import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { API_BASE_PATH } from '@vitrine/contract/call';
import { UPLOAD_ASSET_HEADER, UPLOAD_PATH } from '@vitrine/contract/edit';
import { requireEditor } from '../access/editor.ts';
import {
  parseUploadMetadata,
  TusUploads,
  type TusAnswer,
  type TusPartsStore,
  type TusUpload,
} from '../adapters/tus.ts';
import type { Auth } from '../auth/caller.ts';
import type { CatalogueRepository } from '../catalogue/catalogue.repository.ts';
import { fileTypeOf, unsupportedTypeReason } from '../catalogue/file-types.ts';
import type { ImportService } from '../catalogue/import.service.ts';
import { bucketSourcePath } from '../derivatives/source-file.ts';
import {
  notFound,
  payloadTooLarge,
  rateLimited,
  unreadableFile,
  unsupportedMediaType,
  validation,
} from '../http/errors.ts';
import { GroupRights } from '../access/group-rights.ts';
import { Foreground } from '../jobs/foreground.ts';
import type { Settings } from '../settings.ts';
import type { UploadRepository, UploadRow } from './upload.repository.ts';

const MB = 1024 * 1024;
/** Upload ids: 128 random bits in hex. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** States of uploads that ended without an asset: nothing of them is left to resume. */
const ENDED: readonly UploadRow['state'][] = ['failed', 'cancelled', 'expired'];
/** Folders of a dropped folder below the chosen collection, at most. */
const MAX_FOLDER_DEPTH = 32;

/** What each tus request of an editor carries to the hooks. */
interface UploadCall {
  auth: Auth;
  /** The upload's row: the one a creation recorded, or the one a later request names. */
  row: UploadRow;
}

/** Called after an upload became an asset (the edit history records it). */
export type OnUploaded = (auth: Auth, assetId: number) => Promise<void>;

interface Log {
  warn(obj: object, msg: string): void;
}

/** What an upload's `Upload-Metadata` says, checked. */
interface UploadTarget {
  filename: string;
  collection: number;
  /** The folders of the file's path in a dropped folder, outermost first. */
  folders: string[];
}

/** A name of a file or folder that stays one name: no separators, no . or .., no control characters. */
function isPlainName(name: string): boolean {
  return (
    name.length > 0 &&
    Buffer.byteLength(name) <= 255 &&
    name !== '.' &&
    name !== '..' &&
    // eslint-disable-next-line no-control-regex
    !/[/\\\u0000-\u001f\u007f]/.test(name)
  );
}

const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/** Midnight (server time) of the day of `now`, in ms. */
function startOfDay(now: number): number {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/**
 * Resumable uploads (the tus protocol at upload/files, docs/security.md "Uploads"): editors only,
 * each upload belongs to the editor who began it, sizes are checked per file and per editor and day
 * before a byte is stored, and a file whose last byte arrives goes through the import (the same step
 * as a file of an imported folder) into the collection the editor chose.
 */
export class UploadService {
  private readonly tus: TusUploads<UploadCall>;

  constructor(
    private readonly repo: UploadRepository,
    private readonly catalogue: CatalogueRepository,
    private readonly importer: () => ImportService,
    private readonly settings: Settings,
    private readonly log: Log,
    /** Told of each upload that became an asset (the edit history's recordUpload). */
    private readonly onUploaded?: OnUploaded,
    /** The groups and their rights in force (who is an editor). */
    private readonly rights: GroupRights = new GroupRights(settings.file),
    /** Marks a finishing upload's import as work a person waits for (this process's jobs give way to it). */
    private readonly foreground = new Foreground(),
  ) {
    this.tus = new TusUploads<UploadCall>({
      path: API_BASE_PATH + UPLOAD_PATH,
      store: this.partsStore(),
      maxBytes: this.maxFileBytes(),
      exposedHeaders: [UPLOAD_ASSET_HEADER],
      hooks: { finish: (call, upload) => this.foreground.run(() => this.finish(call, upload)) },
    });
  }

  private get editing() {
    return this.settings.file.editing;
  }

  private maxFileBytes(): number {
    return Math.floor(this.editing.maxFileMb * MB);
  }

  /** Parts of uploads under way: a folder of DATA_DIR the import never walks, or a prefix of the media bucket. */
  private partsStore(): TusPartsStore {
    const store = this.settings.mediaStore;
    return store.kind === 'folder'
      ? { kind: 'folder', directory: path.join(this.settings.dataDir, 'upload-parts') }
      : { kind: 's3', settings: store, prefix: 'upload-parts/' };
  }

  /** What the caller uploaded since midnight (server time), for `edit/options`. */
  async usedTodayBytes(auth: Auth, now = Date.now()): Promise<number> {
    requireEditor(auth, this.rights.current().editorGroups);
    return this.repo.usedSince(auth.userId ?? 0, startOfDay(now));
  }

  /**
   * One tus request of an editor: a creation (`id` undefined), or a request about the upload `id`,
   * which must be the caller's own (another's is not found).
   */
  async handle(auth: Auth, raw: IncomingMessage, id: string | undefined): Promise<TusAnswer> {
    requireEditor(auth, this.rights.current().editorGroups);
    if (id === undefined) return this.create(auth, raw);
    const row = UPLOAD_ID.test(id) ? await this.repo.find(id) : undefined;
    if (!row || row.account !== auth.userId || ENDED.includes(row.state)) throw notFound('The upload');
    if (row.state === 'done') {
      // A client that resumes a finished upload (after a reload) learns it is whole, and its asset.
      if (raw.method !== 'HEAD') throw notFound('The upload');
      return {
        status: 200,
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': String(row.bytes),
          'upload-length': String(row.bytes),
          'cache-control': 'no-store',
          [UPLOAD_ASSET_HEADER.toLowerCase()]: String(row.asset_id ?? ''),
        },
        body: null,
      };
    }
    const answer = await this.tus.handle(raw, `${API_BASE_PATH}${UPLOAD_PATH}/${id}`, { auth, row });
    if (raw.method === 'DELETE' && answer.status === 204) await this.repo.end(id, 'cancelled');
    return answer;
  }

  /**
   * The purge (jobs/purge.jobs.ts): uploads still open `editing.uploadExpiryHours` after they began
   * lose their parts and stop counting against their editor's day. Answers how many were removed.
   */
  async expireUnfinished(now: number): Promise<number> {
    const before = now - this.editing.uploadExpiryHours * 3600_000;
    let removed = 0;
    for (;;) {
      const ids = await this.repo.openBefore(before);
      for (const id of ids) {
        // Marked first: a PATCH that comes now is answered 404 rather than writing into removed parts.
        if (!(await this.repo.expire(id))) continue;
        await this.tus.remove(id);
        removed++;
      }
      if (ids.length === 0) return removed;
    }
  }

  /** Checks a new upload's name, place, type and size against the limits, records it, and lets tus make it. */
  private async create(auth: Auth, raw: IncomingMessage): Promise<TusAnswer> {
    if (raw.headers['upload-defer-length'] !== undefined)
      throw validation('An upload must state its length (Upload-Length).', [
        { path: 'Upload-Length', message: 'is required' },
      ]);
    const lengthHeader = raw.headers['upload-length'];
    const size = typeof lengthHeader === 'string' && /^\d{1,15}$/.test(lengthHeader) ? Number(lengthHeader) : NaN;
    if (!Number.isSafeInteger(size))
      throw validation('An upload must state its length in bytes (Upload-Length).', [
        { path: 'Upload-Length', message: 'must be a whole number of bytes' },
      ]);
    const header = raw.headers['upload-metadata'];
    const target = await this.target(parseUploadMetadata(typeof header === 'string' ? header : undefined));
    if (size > this.maxFileBytes())
      throw payloadTooLarge(
        `${target.filename} has ${megabytes(size)}; one upload may bring at most ${this.editing.maxFileMb} MB.`,
      );
    const now = Date.now();
    const since = startOfDay(now);
    const maxDaily = Math.floor(this.editing.maxDailyMb * MB);
    const row: UploadRow = {
      id: randomBytes(16).toString('hex'),
      account: auth.userId ?? 0,
      bytes: size,
      filename: target.filename,
      created_at: now,
      state: 'open',
      asset_id: null,
    };
    const used = await this.repo.open(row, { since, maxBytes: maxDaily });
    if (used !== undefined) {
      const untilMidnight = Math.max(1, Math.ceil((since + 24 * 3600_000 - now) / 1000));
      throw rateLimited(
        `${target.filename} (${megabytes(size)}) would pass your daily upload limit of ${this.editing.maxDailyMb} MB: ` +
          `${megabytes(Math.max(0, maxDaily - used))} remain for today.`,
        untilMidnight,
      );
    }
    let answer: TusAnswer | undefined;
    try {
      answer = await this.tus.handle(raw, API_BASE_PATH + UPLOAD_PATH, { auth, row }, row.id);
      return answer;
    } finally {
      // Refused by the protocol (or failed): nothing was made, so nothing counts.
      if (answer === undefined || answer.status >= 300) await this.repo.end(row.id, 'failed');
    }
  }

  /** The checked `Upload-Metadata` of a new upload: file name, collection, folders. */
  private async target(metadata: Record<string, string | null> | undefined): Promise<UploadTarget> {
    if (!metadata)
      throw validation('Upload-Metadata is not valid.', [{ path: 'Upload-Metadata', message: 'malformed' }]);
    const filename = metadata.filename ?? '';
    if (!isPlainName(filename))
      throw validation('An upload needs the name of its file (filename in Upload-Metadata).', [
        { path: 'filename', message: 'must be a file name without folders' },
      ]);
    const collection = /^[1-9]\d{0,15}$/.test(metadata.collection ?? '') ? Number(metadata.collection) : undefined;
    if (collection === undefined)
      throw validation('An upload needs the collection it goes into (collection in Upload-Metadata).', [
        { path: 'collection', message: 'must be a collection id' },
      ]);
    if (!(await this.repo.collection(collection))) throw notFound(`The collection ${collection}`);
    const relative = metadata.relativePath ?? '';
    const folders = relative.replace(/^\/+/, '').split('/').slice(0, -1);
    if (folders.length > MAX_FOLDER_DEPTH || !folders.every(isPlainName))
      throw validation('relativePath in Upload-Metadata is not a path of folders.', [
        { path: 'relativePath', message: `must be names separated by /, at most ${MAX_FOLDER_DEPTH} deep` },
      ]);
    if (!fileTypeOf(filename)) throw unsupportedMediaType(`${filename}: ${unsupportedTypeReason(filename)}`);
    return { filename, collection, folders };
  }

  /**
   * The last byte arrived: the file goes where originals are kept and through the import. A file the
   * import cannot read is removed again and answered 422 with the import's reason; the catalogue
   * stays as it was.
   */
  private async finish(call: UploadCall, upload: TusUpload): Promise<Record<string, string>> {
    const { row, auth } = call;
    const target = await this.target(upload.metadata);
    const created = new Date(row.created_at);
    const folder = ['uploads', String(created.getFullYear()), String(created.getMonth() + 1).padStart(2, '0'), row.id];
    const store = this.settings.mediaStore;
    const placed =
      store.kind === 'folder'
        ? path.join(this.settings.dataDir, ...folder, target.filename)
        : `${store.prefix}${[...folder, target.filename].join('/')}`;
    const source = store.kind === 'folder' ? placed : bucketSourcePath(store.bucket, placed);
    await this.tus.place(row.id, placed);
    let result: Awaited<ReturnType<ImportService['importFile']>>;
    try {
      result = await this.importer().importFile(source, async () => [await this.folderCollection(target)]);
    } catch (err) {
      await this.forget(row.id, placed);
      throw err;
    }
    if ('reason' in result) {
      await this.forget(row.id, placed);
      throw unreadableFile(`${target.filename}: ${result.reason}`);
    }
    await this.repo.done(row.id, result.id);
    await this.onUploaded?.(auth, result.id).catch((err: unknown) =>
      this.log.warn({ assetId: result.id, error: (err as Error).message }, 'an upload was not recorded in the history'),
    );
    return { [UPLOAD_ASSET_HEADER]: String(result.id) };
  }

  /** A refused file leaves nothing behind: its placed copy goes, and its bytes no longer count. */
  private async forget(id: string, placed: string): Promise<void> {
    await this.tus
      .unplace(placed)
      .catch((err: unknown) =>
        this.log.warn({ uploadId: id, error: (err as Error).message }, 'a refused upload could not be removed'),
      );
    await this.repo.end(id, 'failed');
  }

  /** The collection an upload goes into: the chosen one, or the one of its folder below it. */
  private async folderCollection(target: UploadTarget): Promise<number> {
    let parent = await this.repo.collection(target.collection);
    if (!parent) throw notFound(`The collection ${target.collection}`);
    for (const name of target.folders) parent = await this.ensureCollection(name, parent);
    return parent.id;
  }

  /**
   * `edit/collection`: the DAM collection `name` under `parent` (made when missing). Its path is the
   * parent's and its name; a top-level one's `#name`, as collections named in sidecars.
   */
  async createCollection(
    auth: Auth,
    input: { name: string; parent?: number | undefined },
  ): Promise<{ id: number; name: string; path: string }> {
    requireEditor(auth, this.rights.current().editorGroups);
    const name = input.name.trim();
    if (!isPlainName(name))
      throw validation('A collection name may not hold / or \\ or control characters.', [
        { path: 'name', message: 'must be a plain name' },
      ]);
    const parent = input.parent === undefined ? undefined : await this.repo.collection(input.parent);
    if (input.parent !== undefined && !parent)
      throw validation(`The collection ${input.parent} does not exist.`, [
        { path: 'parent', message: `the collection ${input.parent} does not exist` },
      ]);
    return this.ensureCollection(name, parent);
  }

  private async ensureCollection(
    name: string,
    parent: { id: number; path: string } | undefined,
  ): Promise<{ id: number; name: string; path: string }> {
    const at = parent ? `${parent.path}/${name}` : `#${name}`;
    const id = await this.catalogue.ensureCollection(at, name, parent?.id ?? null);
    return { id, name, path: at };
  }
}
