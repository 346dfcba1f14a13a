import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { BACKEND_VERSION } from '@vitrine/contract/version';
import type { MediaStore } from '../adapters/media-store.ts';
import { restoreDatabase, tablesInDump } from '../adapters/pg-dump.ts';
import { isGzip, readTarGz, TarError, type TarEntry } from '../adapters/tar.ts';
import { openDatabase, tableNames, type Db } from '../db/database.ts';
import type { MediaStoreSettings, Settings } from '../settings.ts';
import {
  DATA_ITEMS,
  DATA_PREFIX,
  DATABASE_ENTRY,
  FORMAT_VERSION,
  identityOf,
  MANIFEST,
  manifestSchema,
  SETTINGS_ENTRY,
  UPLOADED_ORIGINALS,
  type Manifest,
  type ManifestEntry,
} from './backup-manifest.ts';
import { BackupError, uploadedOriginalsAt, type BackupStores } from './backup.service.ts';
import { forgetMadeFiles, moveUploadedOriginals } from './restore.repository.ts';

/** Where a restore writes: the places the environment names for the portal it restores. */
export interface RestoreTarget {
  dataDir: string;
  settingsFile: string;
  database: Settings['database'];
  /** Where uploaded originals go (services.ts `mediaStores`); none: the data folder. */
  mediaStore?: MediaStoreSettings;
}

export interface RestoreResult {
  manifest: Manifest;
  /** Assets whose derivatives the server makes again. */
  assets: number;
  seconds: number;
}

export type RestoreStage = 'archive' | 'database';

/** Entries of the admins' uploads. */
const UPLOADS_PREFIX = `${DATA_PREFIX}config-files/`;
/** Entries of the originals editors uploaded. */
const ORIGINALS_PREFIX = `${DATA_PREFIX}${UPLOADED_ORIGINALS}/`;

/** Names of what a restore writes before it moves it into place; a leftover of a stopped restore. */
const STAGING = '.vitrine-restore-';
const MAX_MANIFEST_BYTES = 16 << 20;
const dialectName = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

/** A database URL without its password, to be shown. */
function shown(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** A place the restore writes, first under a staging name beside it, moved there at the end. */
interface Placement {
  final: string;
  staged: string;
}

/**
 * Restores a backup archive (backup.service.ts) into an empty target: an empty data folder and a new
 * SQLite file, or an empty PostgreSQL database. Everything is written under staging names first and
 * checked against the manifest; the database is migrated to this version's schema; only then are the
 * files moved into place (the SQLite file last). A restore that fails removes what it wrote, so the
 * target is as empty as it was.
 */
export async function restoreBackup(
  target: RestoreTarget,
  archive: string,
  onProgress: (stage: RestoreStage, done: number, total: number) => void = () => undefined,
  /**
   * The object stores admins' uploads and uploaded originals go to (S3_BUCKET; services.ts
   * `mediaStores`); none: DATA_DIR/config-files and DATA_DIR/uploads.
   */
  stores?: BackupStores,
): Promise<RestoreResult> {
  const started = performance.now();
  const file = path.resolve(archive);
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  const foreign = (why: string) => new BackupError(`${file} is not a Vitrine backup archive: ${why}.`);
  const damaged = (why: string) => new BackupError(`The archive ${file} is damaged: ${why}.`);
  if (!(await isGzip(file))) throw foreign('it is not a gzipped tar file');
  const size = (await stat(file)).size;

  const id = randomBytes(4).toString('hex');
  const beside = (final: string): Placement => ({
    final,
    staged: path.join(path.dirname(final), `${STAGING}${id}-${path.basename(final)}`),
  });
  const written: string[] = [];
  const moved: string[] = [];
  const uploaded: { store: MediaStore; key: string }[] = [];
  // Entries that go into a store of the bucket rather than into the data folder.
  const bucketPlaces: [prefix: string, store: MediaStore][] = stores
    ? [
        [UPLOADS_PREFIX, stores.uploads],
        [ORIGINALS_PREFIX, stores.originals],
      ]
    : [];
  let createdDataDir = false;
  let dropTables: (() => Promise<void>) | undefined;

  const entries = readTarGz(file, (read) => onProgress('archive', read, size));
  const next = async (): Promise<TarEntry | undefined> => {
    try {
      const r = await entries.next();
      return r.done ? undefined : r.value;
    } catch (err) {
      if (err instanceof TarError) throw damaged(err.message);
      throw err;
    }
  };

  try {
    const first = await next();
    if (!first) throw foreign('it holds no files');
    if (first.name !== MANIFEST) throw foreign(`it has no ${MANIFEST} (its first file is ${first.name})`);
    if (first.size > MAX_MANIFEST_BYTES) throw foreign(`its ${MANIFEST} is too large to be one`);
    const manifest = await readManifest(first, file, damaged, foreign);

    if (manifest.database.dialect !== target.database.dialect) {
      const configured =
        target.database.dialect === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'SQLite (DATABASE_URL not set)';
      throw new BackupError(
        `The archive ${file} holds a ${dialectName[manifest.database.dialect]} database, but the target is ` +
          `${configured}. Restore into the same kind of database it was made from.`,
      );
    }

    const dbEntry = DATABASE_ENTRY[manifest.database.dialect];
    if (manifest.database.entry !== dbEntry || !manifest.entries.some((e) => e.path === dbEntry)) {
      throw damaged(`its manifest lists no database (${dbEntry})`);
    }
    // Where each entry goes; refused before anything is written when the target is not empty.
    const placements = new Map<string, Placement>();
    for (const entry of manifest.entries) placements.set(entry.path, placementOf(entry.path, target, beside, damaged));
    await refuseUnlessEmpty(target, manifest, placements);
    for (const [prefix, store] of bucketPlaces) {
      const stored = await store.walk('');
      if (stored.length === 0) continue;
      const what = prefix === UPLOADS_PREFIX ? "uploads'" : "uploaded originals'";
      throw new BackupError(
        `The ${what} place in the bucket is not empty (it holds ${stored
          .slice(0, 5)
          .map((f) => f.key)
          .join(', ')}${stored.length > 5 ? ', …' : ''}). A restore writes only where nothing of the portal is ` +
          'yet; point S3_BUCKET or S3_PREFIX at a new place.',
      );
    }

    if (!existsSync(target.dataDir)) {
      await mkdir(target.dataDir, { recursive: true });
      createdDataDir = true;
    }
    const expected = new Map(manifest.entries.map((e) => [e.path, e]));
    for (let entry = await next(); entry; entry = await next()) {
      const listed = expected.get(entry.name);
      if (!listed) throw damaged(`it holds ${entry.name}, which its manifest does not list (or lists twice)`);
      expected.delete(entry.name);
      const place = placements.get(entry.name)!;
      await mkdir(path.dirname(place.staged), { recursive: true });
      written.push(topStaged(place, target));
      await writeChecked(entry, place.staged, listed, damaged);
    }
    const missing = [...expected.keys()];
    if (missing.length > 0) throw damaged(`it lacks ${missing.join(', ')}, which its manifest lists`);

    // Uploaded assets name their originals where the restore puts them, not where the backup found them.
    const pointAtRestoredOriginals = async (db: Db) => {
      const from = manifest.uploadedOriginalsAt;
      const to = uploadedOriginalsAt(target.dataDir, target.mediaStore ?? { kind: 'folder' });
      if (from !== undefined && from !== to) await moveUploadedOriginals(db, from, to);
    };
    onProgress('database', 0, 1);
    const dbPlace = placements.get(manifest.database.entry)!;
    let assets: number;
    if (target.database.dialect === 'sqlite') {
      const db = await openDatabase({ dialect: 'sqlite', file: dbPlace.staged });
      try {
        assets = await forgetMadeFiles(db);
        await pointAtRestoredOriginals(db);
        await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db.kysely);
      } finally {
        await db.close();
      }
    } else {
      const { url } = target.database;
      const existing = await withDatabase(target.database, tableNames);
      const clashes = (await tablesInDump(dbPlace.staged)).filter((t) => existing.includes(t));
      if (clashes.length > 0) throw notEmptyDatabase(url, clashes);
      dropTables = async () => {
        await withDatabase(target.database, async (db) => {
          const restored = (await tableNames(db)).filter((t) => !existing.includes(t));
          for (const t of restored) await sql`drop table if exists ${sql.table(t)} cascade`.execute(db.kysely);
        });
      };
      await restoreDatabase(url, dbPlace.staged).catch((err: unknown) => {
        throw new BackupError(`pg_restore could not restore the database: ${(err as Error).message}`);
      });
      const db = await openDatabase(target.database);
      try {
        assets = await forgetMadeFiles(db);
        await pointAtRestoredOriginals(db);
      } finally {
        await db.close();
      }
      await rm(dbPlace.staged, { force: true });
    }
    onProgress('database', 1, 1);

    // The files move into place; the SQLite database last, so a target with a database is whole.
    const order = [...placements.entries()]
      .filter(([name]) => !(name === manifest.database.entry && target.database.dialect === 'postgres'))
      .sort(([a], [b]) => Number(a === manifest.database.entry) - Number(b === manifest.database.entry));
    const tops = new Map<string, string>();
    const stagedUploads = new Set<string>();
    for (const [name, place] of order) {
      // Files for a bucket go there from their staged copies, which are removed with the rest.
      const bucket = bucketPlaces.find(([prefix]) => name.startsWith(prefix));
      if (bucket) {
        const [prefix, store] = bucket;
        const key = name.slice(prefix.length);
        await store.write([key], ([scratch = '']) => copyFile(place.staged, scratch));
        uploaded.push({ store, key });
        stagedUploads.add(topStaged(place, target));
      } else tops.set(topStaged(place, target), topFinal(place, target));
    }
    for (const [staged, final] of tops) {
      await rename(staged, final);
      moved.push(final);
    }
    for (const top of stagedUploads) await rm(top, { recursive: true, force: true });
    return { manifest, assets, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    await entries.return(undefined).catch(() => undefined);
    for (const { store, key } of uploaded) await store.remove(key).catch(() => undefined);
    for (const p of [...written, ...moved]) await rm(p, { recursive: true, force: true });
    if (target.database.dialect === 'sqlite') {
      for (const suffix of ['-wal', '-shm', '-journal']) {
        for (const p of written) await rm(`${p}${suffix}`, { force: true });
      }
    }
    await dropTables?.().catch(() => undefined);
    if (createdDataDir) await rmdir(target.dataDir).catch(() => undefined);
    throw err;
  }
}

async function readManifest(
  entry: TarEntry,
  file: string,
  damaged: (why: string) => BackupError,
  foreign: (why: string) => BackupError,
): Promise<Manifest> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of entry.body) chunks.push(chunk);
  } catch (err) {
    if (err instanceof TarError) throw damaged(err.message);
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw damaged(`its ${MANIFEST} cannot be read`);
  }
  const identity = identityOf(json);
  if (!identity.success) throw foreign(`its ${MANIFEST} is not that of a Vitrine backup`);
  if (identity.data.formatVersion > FORMAT_VERSION) {
    throw new BackupError(
      `The archive ${file} is of backup format version ${identity.data.formatVersion}; this Vitrine ` +
        `(${BACKEND_VERSION}) restores versions up to ${FORMAT_VERSION}. Restore it with a newer Vitrine.`,
    );
  }
  const manifest = manifestSchema.safeParse(json);
  if (!manifest.success) throw damaged(`its ${MANIFEST} is incomplete`);
  return manifest.data;
}

/** Where an entry of the archive goes in the target. */
function placementOf(
  name: string,
  target: RestoreTarget,
  beside: (final: string) => Placement,
  damaged: (why: string) => BackupError,
): Placement {
  if (name === DATABASE_ENTRY.sqlite && target.database.dialect === 'sqlite') return beside(target.database.file);
  if (name === DATABASE_ENTRY.postgres) return beside(path.join(target.dataDir, 'vitrine.pgdump'));
  if (name === SETTINGS_ENTRY) return beside(target.settingsFile);
  if (name.startsWith(DATA_PREFIX)) {
    const parts = name.slice(DATA_PREFIX.length).split('/');
    const [item, ...rest] = parts;
    const safe = parts.every((p) => p !== '' && p !== '.' && p !== '..');
    if (safe && item !== undefined && (DATA_ITEMS as readonly string[]).includes(item)) {
      const top = beside(path.join(target.dataDir, item));
      return { final: path.join(top.final, ...rest), staged: path.join(top.staged, ...rest) };
    }
  }
  throw damaged(`its manifest lists ${name}, which is no part of a Vitrine backup`);
}

/** The first path below the folder a placement lies in, the one moved into place whole. */
function topOf(p: string, target: RestoreTarget): string {
  const rel = path.relative(target.dataDir, p);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return p;
  return path.join(target.dataDir, rel.split(path.sep)[0] ?? '');
}
const topStaged = (place: Placement, target: RestoreTarget) => topOf(place.staged, target);
const topFinal = (place: Placement, target: RestoreTarget) => topOf(place.final, target);

/** Streams an entry into `file`, refusing it when its size or SHA-256 differ from the manifest's. */
async function writeChecked(
  entry: TarEntry,
  file: string,
  listed: ManifestEntry,
  damaged: (why: string) => BackupError,
): Promise<void> {
  const hash = createHash('sha256');
  let bytes = 0;
  const body = entry.body;
  async function* counted(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of body) {
        hash.update(chunk);
        bytes += chunk.length;
        yield chunk;
      }
    } catch (err) {
      if (err instanceof TarError) throw damaged(err.message);
      throw err;
    }
  }
  await pipeline(counted(), createWriteStream(file, { mode: 0o600 }));
  if (bytes !== listed.size || hash.digest('hex') !== listed.sha256) {
    throw damaged(`${entry.name} does not match its checksum in the manifest`);
  }
}

async function withDatabase<T>(
  config: Settings['database'],
  run: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>,
): Promise<T> {
  const db = await openDatabase(config, undefined, { migrate: false });
  try {
    return await run(db);
  } finally {
    await db.close();
  }
}

function notEmptyDatabase(url: string, tables: string[]): BackupError {
  const named = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ', …' : '');
  return new BackupError(
    `The database ${shown(url)} is not empty: it has Vitrine tables (${named}). A restore writes only into an ` +
      'empty database; create a new one (createdb) and point DATABASE_URL at it.',
  );
}

/** Refuses a target that holds anything the restore would write, or (SQLite) anything at all. */
async function refuseUnlessEmpty(
  target: RestoreTarget,
  manifest: Manifest,
  placements: Map<string, Placement>,
): Promise<void> {
  if (target.database.dialect === 'sqlite') {
    const present = (await readdir(target.dataDir).catch(() => [] as string[])).filter((n) => !n.startsWith(STAGING));
    if (present.length > 0) {
      const named = present.slice(0, 5).join(', ') + (present.length > 5 ? ', …' : '');
      throw new BackupError(
        `The data folder ${target.dataDir} is not empty (it holds ${named}). A restore writes only into an empty ` +
          'data folder; point DATA_DIR at a new folder, or move the contents of this one away.',
      );
    }
    const db = target.database.file;
    for (const f of [db, `${db}-wal`, `${db}-shm`]) {
      if (existsSync(f)) throw new BackupError(`The database file ${f} exists already; a restore writes a new one.`);
    }
  } else {
    const { url } = target.database;
    const existing = await withDatabase(target.database, tableNames).catch((err: unknown) => {
      throw new BackupError(`The database ${shown(url)} cannot be reached: ${(err as Error).message}`);
    });
    if (existing.includes('kysely_migration')) throw notEmptyDatabase(url, existing);
  }
  for (const [name, place] of placements) {
    if (name === manifest.database.entry) continue;
    const final = topFinal(place, target);
    if (existsSync(final)) {
      throw new BackupError(`${final} exists already; a restore writes only where nothing of the portal is yet.`);
    }
  }
}
