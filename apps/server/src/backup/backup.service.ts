import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BACKEND_VERSION } from '@vitrine/contract/version';
import { SharedFolderStore, type MediaStore, type WalkedFile } from '../adapters/media-store.ts';
import { dumpDatabase } from '../adapters/pg-dump.ts';
import { writeTarGz, type TarSource } from '../adapters/tar.ts';
import { backupSqlite } from '../db/sqlite-backup.ts';
import { bucketSourcePath } from '../derivatives/source-file.ts';
import type { MediaStoreSettings, Settings } from '../settings.ts';
import {
  ARCHIVE_FORMAT,
  DATA_PREFIX,
  DATABASE_ENTRY,
  DATABASE_HOLDS,
  FORMAT_VERSION,
  MADE_UPLOADS,
  MANIFEST,
  NOT_INCLUDED,
  PRODUCT,
  SETTINGS_ENTRY,
  UPLOADED_ORIGINALS,
  type Manifest,
} from './backup-manifest.ts';

/** A backup or restore that cannot be done, with the reason an operator reads. */
export class BackupError extends Error {}

export type BackupStage = 'database' | 'files' | 'archive';

export interface BackupResult {
  file: string;
  manifest: Manifest;
  /** Size of the archive file. */
  bytes: number;
  seconds: number;
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Files of a store that a backup carries, as `data/<item>/<key>`. */
interface StoreFiles {
  store: MediaStore;
  item: string;
  files: WalkedFile[];
}

const listStore = async (store: MediaStore, item: string, skip: (key: string) => boolean): Promise<StoreFiles> => ({
  store,
  item,
  files: (await store.walk('')).filter((f) => !skip(f.key)),
});

/**
 * Copies the listed files into `dir`, streamed, telling `onBytes` each chunk's size, and answers them
 * as archive entries; a file removed meanwhile is skipped. The archive is then written from these
 * copies, so it and its manifest agree even when a file is replaced during the backup.
 */
async function copyFiles(
  { store, item, files }: StoreFiles,
  dir: string,
  onBytes: (bytes: number) => void,
): Promise<TarSource[]> {
  const sources: TarSource[] = [];
  for (const [i, f] of files.entries()) {
    const opened = await store.open(f.key).catch(async (err: unknown) => {
      if ((await store.exists(f.key).catch(() => true)) === false) return undefined;
      throw err;
    });
    if (!opened) continue;
    const copy = path.join(dir, `${item}-${i}`);
    await pipeline(
      opened.stream,
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          onBytes(chunk.length);
          done(null, chunk);
        },
      }),
      createWriteStream(copy, { mode: 0o600 }),
    );
    sources.push({
      name: DATA_PREFIX + path.posix.join(item, f.key),
      size: (await stat(copy)).size,
      data: { file: copy },
    });
  }
  return sources;
}

/** Where a backup reads the files it carries (services.ts `mediaStores`). */
export interface BackupStores {
  /** The admins' uploads (DATA_DIR/config-files, or the bucket's `config-files/` keys). */
  uploads: MediaStore;
  /** Originals editors uploaded (DATA_DIR/uploads, or the bucket's `uploads/` keys). */
  originals: MediaStore;
}

/** Where a portal keeps uploaded originals, as its assets' source paths begin (upload.service.ts `finish`). */
export function uploadedOriginalsAt(dataDir: string, store: MediaStoreSettings): string {
  return store.kind === 'folder'
    ? path.join(dataDir, UPLOADED_ORIGINALS)
    : bucketSourcePath(store.bucket, `${store.prefix}${UPLOADED_ORIGINALS}`);
}

/** A file read whole now; one replaced meanwhile (uploads are renamed into place) is skipped. */
async function readNow(file: string): Promise<Buffer | undefined> {
  return readFile(file).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  });
}

/**
 * Writes a backup of the portal into `target` while it may be serving: the database (SQLite's online
 * backup, or pg_dump's snapshot), the settings file, the data folder's secret, the admins' uploads
 * and the originals editors uploaded, with a manifest of sizes and checksums. The archive is written under a temporary name
 * beside `target` and renamed at the end, so a file of that name is always a whole archive.
 */
export async function makeBackup(
  settings: Settings,
  settingsFile: string,
  target: string,
  onProgress: (stage: BackupStage, done: number, total: number) => void = () => undefined,
  /** Default: the folders of DATA_DIR. */
  stores: BackupStores = {
    uploads: new SharedFolderStore(path.join(settings.dataDir, 'config-files')),
    originals: new SharedFolderStore(path.join(settings.dataDir, UPLOADED_ORIGINALS)),
  },
): Promise<BackupResult> {
  const started = performance.now();
  const file = path.resolve(target);
  if (existsSync(file))
    throw new BackupError(`${file} exists already; a backup never replaces a file, name a new one.`);
  if (!existsSync(path.dirname(file))) throw new BackupError(`The folder ${path.dirname(file)} does not exist.`);
  const work = await mkdtemp(path.join(path.dirname(file), '.vitrine-backup-'));
  try {
    const { dialect } = settings.database;
    const dbCopy = path.join(work, path.basename(DATABASE_ENTRY[dialect]));
    if (settings.database.dialect === 'sqlite') {
      if (!existsSync(settings.database.file))
        throw new BackupError(`There is no database at ${settings.database.file}.`);
      await backupSqlite(settings.database.file, dbCopy, (done, total) => onProgress('database', done, total));
    } else {
      onProgress('database', 0, 1);
      await dumpDatabase(settings.database.url, dbCopy).catch((err: unknown) => {
        throw new BackupError(`pg_dump could not dump the database: ${(err as Error).message}`);
      });
      onProgress('database', 1, 1);
    }
    const sources: TarSource[] = [
      { name: DATABASE_ENTRY[dialect], size: (await stat(dbCopy)).size, data: { file: dbCopy } },
    ];
    const settingsData = await readNow(settingsFile);
    if (settingsData) sources.push({ name: SETTINGS_ENTRY, size: settingsData.length, data: settingsData });
    const secret = await readNow(path.join(settings.dataDir, 'secret'));
    if (secret) sources.push({ name: `${DATA_PREFIX}secret`, size: secret.length, data: secret });
    const listed = [
      await listStore(
        stores.uploads,
        'config-files',
        // Names ending in .tmp are uploads being written (config-admin.service.ts renames them into place).
        (key) => key.startsWith(`${MADE_UPLOADS}/`) || key.endsWith('.tmp'),
      ),
      // Uploaded originals are placed whole (adapters/tus.ts `place`); for their assets they are the only copy.
      await listStore(stores.originals, UPLOADED_ORIGINALS, () => false),
    ];
    // Originals may be large: their copying is a stage of its own, counted in bytes.
    const toCopy = listed.reduce((sum, l) => sum + l.files.reduce((n, f) => n + f.size, 0), 0);
    let copied = 0;
    onProgress('files', 0, toCopy);
    for (const l of listed) {
      sources.push(
        ...(await copyFiles(l, work, (bytes) => {
          copied += bytes;
          onProgress('files', Math.min(copied, toCopy), toCopy);
        })),
      );
    }
    const manifest: Manifest = {
      product: PRODUCT,
      format: ARCHIVE_FORMAT,
      formatVersion: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      serverVersion: BACKEND_VERSION,
      database: { dialect, entry: DATABASE_ENTRY[dialect], holds: DATABASE_HOLDS },
      notIncluded: NOT_INCLUDED,
      uploadedOriginalsAt: uploadedOriginalsAt(settings.dataDir, settings.mediaStore),
      entries: await Promise.all(
        sources.map(async (s) => ({
          path: s.name,
          size: s.size,
          sha256: Buffer.isBuffer(s.data) ? sha256(s.data) : await sha256OfFile(s.data.file),
        })),
      ),
    };
    const manifestData = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    const total = sources.reduce((sum, s) => sum + s.size, 0);
    const archive = path.join(work, 'archive.tar.gz');
    await writeTarGz(archive, [{ name: MANIFEST, size: manifestData.length, data: manifestData }, ...sources], (done) =>
      onProgress('archive', Math.min(done, total), total),
    );
    await rename(archive, file);
    return { file, manifest, bytes: (await stat(file)).size, seconds: (performance.now() - started) / 1000 };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
