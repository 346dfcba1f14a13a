import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultGlobalConfig, type GlobalConfig } from '@vitrine/contract/global-config';
import { importWithDerivatives, putUpload, startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { vitrineCli } from '../../test/cli.ts';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { makeImage } from '../../test/media-fixtures.ts';
import { rgbaToPng } from '../adapters/media.ts';
import { S3Bucket } from '../adapters/s3-store.ts';
import { writeTarGz } from '../adapters/tar.ts';
import { openDatabase, type Db } from '../db/database.ts';
import type { Settings } from '../settings.ts';

const api = '/assetportal/api/';

const withTitle = (title: string): GlobalConfig => ({
  ...defaultGlobalConfig,
  global: { ...defaultGlobalConfig.global, website_title: title },
});

const form = (content: Buffer, filename: string): FormData => {
  const data = new FormData();
  data.append('file', new Blob([new Uint8Array(content)]), filename);
  return data;
};

const envOf = (dataDir: string, database: Settings['database']) => ({
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: database.dialect === 'sqlite' ? `sqlite:${database.file}` : database.url,
  LOG_LEVEL: 'silent',
});

type Env = ReturnType<typeof envOf>;

const vitrine = (args: string[], env: Env) =>
  spawnSync(process.execPath, [...vitrineCli, ...args], { env, encoding: 'utf8' });

/** The command as a child process that runs while the test goes on. */
const vitrineAsync = (args: string[], env: Env) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [...vitrineCli, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });

/** What a restore must bring back, row for row, in an order that does not depend on the database. */
async function portalState(db: Db, bookmarksOf: number) {
  const k = db.kysely;
  const sorted = (rows: object[]) => rows.map((r) => JSON.stringify(r)).sort();
  return {
    assets: sorted(await k.selectFrom('asset').selectAll().execute()),
    values: sorted(await k.selectFrom('asset_value').selectAll().execute()),
    users: sorted(await k.selectFrom('user_account').selectAll().execute()),
    bookmarks: sorted(await k.selectFrom('bookmark').selectAll().where('user_id', '=', bookmarksOf).execute()),
    shareLinks: sorted(await k.selectFrom('share_link').selectAll().execute()),
    shareLinkAssets: sorted(await k.selectFrom('share_link_asset').selectAll().execute()),
    config: sorted(await k.selectFrom('config_document').selectAll().execute()),
    configHistory: sorted(await k.selectFrom('config_history').selectAll().execute()),
  };
}

async function stateOf(database: Settings['database'], bookmarksOf: number) {
  const db = await openDatabase(database);
  try {
    return await portalState(db, bookmarksOf);
  } finally {
    await db.close();
  }
}

describe.each(dialects)('vitrine backup and restore on %s (README "Backups")', (dialect) => {
  let t: TestApp;
  let dir: string;
  let archive: string;
  let bobId: number;
  const targets: TestDatabase[] = [];

  const sourceEnv = () => envOf(t.settings.dataDir, t.settings.database);
  /** A new, empty target: a data folder that does not exist yet and, on PostgreSQL, a new database. */
  const newTarget = async (name: string) => {
    const dataDir = path.join(dir, name);
    if (dialect === 'sqlite')
      return { dataDir, database: { dialect, file: path.join(dataDir, 'vitrine.db') } as const };
    const db = await createTestDatabase('postgres');
    targets.push(db);
    return { dataDir, database: db.config };
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-backup-'));
    t = await startTestApp({ dialect });
    const media = path.join(dir, 'media');
    for (const name of ['harbour.jpg', 'dunes.jpg', 'lighthouse.png']) {
      await makeImage(path.join(media, name), {
        width: 320,
        height: 240,
        format: name.endsWith('.png') ? 'png' : 'jpeg',
      });
    }
    const ids = await importWithDerivatives(t, media);
    const admin = (await signIn(t, { name: 'alice', groups: ['admins'] })).headers;
    const bob = await signIn(t, { name: 'bob', groups: ['users'] });
    bobId = bob.userId;
    const inject = (method: 'POST', url: string, headers: Record<string, string>, payload: object) =>
      t.app.inject({ method, url: api + url, headers, payload }).then((res) => {
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      });
    await inject('POST', 'config/bookmarks', bob.headers, [
      { id: String(ids['dunes.jpg']) },
      { id: String(ids['harbour.jpg']) },
    ]);
    await inject('POST', 'share/create', bob.headers, { assetIds: [String(ids['lighthouse.png'])], downloadSets: [0] });
    await inject('POST', 'config/global', admin, withTitle('Harbour archive'));
    await inject('POST', 'config/global', admin, withTitle('Harbour and dunes archive'));
    const png = await rgbaToPng(new Uint8Array(8 * 8 * 4).fill(90), 8, 8);
    await inject('POST', 'config/logo', admin, form(png, 'logo.png'));
    await inject('POST', 'config/thumbnail?id=harbour_picks', admin, form(png, 'tile.png'));
    writeFileSync(path.join(t.settings.dataDir, 'settings.json'), '{"download": {"maxAssets": 400}}\n');
    archive = path.join(dir, 'portal.tar.gz');
  }, 180_000);

  afterAll(async () => {
    await t.close();
    for (const db of targets) await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('backs up a portal while it serves and writes, and restores it elsewhere with everything equal', async () => {
    const carol = await signIn(t, { name: 'carol', groups: ['users'] });
    const before = await portalState(t.app.db, bobId);
    expect(before.configHistory.length).toBeGreaterThanOrEqual(2);
    expect(before.bookmarks).toHaveLength(2);
    expect(before.shareLinks).toHaveLength(1);

    // Carol keeps saving bookmarks through the server while the backup runs beside it.
    const backup = vitrineAsync(['backup', archive], sourceEnv());
    let finished = false;
    void backup.then(() => (finished = true));
    let writes = 0;
    while (!finished) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${api}config/bookmarks`,
        headers: carol.headers,
        payload: writes % 2 ? [] : [{ id: '1' }],
      });
      expect(res.statusCode, res.body).toBe(200);
      writes++;
      await new Promise((r) => setTimeout(r, 20));
    }
    const made = await backup;
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    expect(made.stdout).toMatch(
      /^Backed up to .*portal\.tar\.gz \([\d.]+ MB in [\d.]+ s\): \w+ database, 5 files \(2 uploaded config files, 0 uploaded originals\)\.\n$/,
    );
    expect(writes).toBeGreaterThan(0);

    const listing = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    expect(listing).toEqual([
      'manifest.json',
      dialect === 'sqlite' ? 'database/vitrine.db' : 'database/vitrine.pgdump',
      'settings/settings.json',
      'data/secret',
      'data/config-files/logo',
      'data/config-files/thumbnail/harbour_picks',
    ]);
    const manifest = JSON.parse(spawnSync('tar', ['-xzOf', archive, 'manifest.json'], { encoding: 'utf8' }).stdout);
    expect(manifest).toMatchObject({ product: 'Vitrine', formatVersion: 1, database: { dialect } });
    expect(manifest.database.holds).toContain('config_history');

    const target = await newTarget('restored');
    const restored = vitrine(['restore', archive], envOf(target.dataDir, target.database));
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
    expect(restored.stdout).toMatch(/^Restored the backup of .* Thumbnails and previews of 3 assets are made again/);

    expect(await stateOf(target.database, bobId)).toEqual(before);
    for (const file of ['config-files/logo', 'config-files/thumbnail/harbour_picks', 'secret', 'settings.json']) {
      expect(readFileSync(path.join(target.dataDir, file)), file).toEqual(
        readFileSync(path.join(t.settings.dataDir, file)),
      );
    }
    // Made files are not carried: the restored portal makes its thumbnails again.
    expect(existsSync(path.join(target.dataDir, 'derivatives'))).toBe(false);
    const db = await openDatabase(target.database);
    try {
      expect(await db.kysely.selectFrom('derivative').select('asset_id').execute()).toEqual([]);
      const queued = await db.kysely.selectFrom('job').select('key').where('status', '=', 'queued').execute();
      expect(queued.filter((j) => j.key.startsWith('derivatives:'))).toHaveLength(3);
    } finally {
      await db.close();
    }
  }, 180_000);

  it('refuses to restore into a target that is not empty, and leaves it untouched', async () => {
    expect(existsSync(archive)).toBe(true);
    const before = await portalState(t.app.db, bobId);
    const files = readdirSync(t.settings.dataDir).sort();
    const refused = vitrine(['restore', archive], sourceEnv());
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      dialect === 'sqlite'
        ? /^The data folder .* is not empty \(it holds .*\)\. A restore writes only into an empty data folder/
        : /^The database postgres:\/\/.* is not empty: it has Vitrine tables \(.*\)\. A restore writes only into an empty database/,
    );
    expect(readdirSync(t.settings.dataDir).sort()).toEqual(files);
    expect(await portalState(t.app.db, bobId)).toEqual(before);
  }, 60_000);

  it('refuses a damaged archive (a byte changed, cut short) and leaves nothing behind', async () => {
    const whole = readFileSync(archive);
    const flipped = Buffer.from(whole);
    const middle = Math.floor(whole.length / 2);
    flipped.writeUInt8(flipped.readUInt8(middle) ^ 0xff, middle);
    writeFileSync(path.join(dir, 'flipped.tar.gz'), flipped);
    writeFileSync(path.join(dir, 'cut.tar.gz'), whole.subarray(0, Math.floor(whole.length * 0.6)));
    for (const [name, why] of [
      ['flipped.tar.gz', /is damaged: (its compressed data is corrupt|.* does not match its checksum)/],
      ['cut.tar.gz', /is damaged: the archive ends early \(it was cut short\)\.\n$/],
    ] as const) {
      const target = await newTarget(`from-${name}`);
      const r = vitrine(['restore', path.join(dir, name)], envOf(target.dataDir, target.database));
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^The archive .*${name.replace('.', '\\.')} ${why.source}`));
      expect(existsSync(target.dataDir)).toBe(false);
      if (target.database.dialect === 'postgres') {
        const db = await openDatabase(target.database, undefined, { migrate: false });
        expect(await db.kysely.introspection.getTables({ withInternalKyselyTables: true })).toEqual([]);
        await db.close();
      }
    }
  }, 120_000);
});

describe('vitrine restore refuses what is not a backup it can read', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-restore-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const restore = (file: string, env: Record<string, string> = {}) =>
    vitrine(['restore', file], {
      ...envOf(path.join(dir, 'target'), { dialect: 'sqlite', file: path.join(dir, 'target', 'vitrine.db') }),
      ...env,
    });
  const manifest = (changes: object) =>
    Buffer.from(
      JSON.stringify({
        product: 'Vitrine',
        format: 'vitrine-backup',
        formatVersion: 1,
        createdAt: '2026-11-27T00:00:00.000Z',
        serverVersion: '7.0.6',
        database: { dialect: 'sqlite', entry: 'database/vitrine.db', holds: '' },
        notIncluded: [],
        entries: [],
        ...changes,
      }),
    );
  const tarOf = async (name: string, entries: { name: string; data: Buffer }[]) => {
    const file = path.join(dir, name);
    await writeTarGz(
      file,
      entries.map((e) => ({ ...e, size: e.data.length })),
    );
    return file;
  };

  it('says which: a foreign file, a tar without a manifest, a newer format, another kind of database', async () => {
    writeFileSync(path.join(dir, 'notes.txt'), 'not an archive\n');
    const cases: [string, Record<string, string>, RegExp][] = [
      [
        path.join(dir, 'notes.txt'),
        {},
        /notes\.txt is not a Vitrine backup archive: it is not a gzipped tar file\.\n$/,
      ],
      [
        await tarOf('other.tar.gz', [{ name: 'readme.txt', data: Buffer.from('hello') }]),
        {},
        /other\.tar\.gz is not a Vitrine backup archive: it has no manifest\.json \(its first file is readme\.txt\)\.\n$/,
      ],
      [
        await tarOf('future.tar.gz', [{ name: 'manifest.json', data: manifest({ formatVersion: 2 }) }]),
        {},
        /future\.tar\.gz is of backup format version 2; this Vitrine \([\d.]+\) restores versions up to 1\. Restore it with a newer Vitrine\.\n$/,
      ],
      [
        await tarOf('sqlite.tar.gz', [{ name: 'manifest.json', data: manifest({}) }]),
        { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
        /sqlite\.tar\.gz holds a SQLite database, but the target is PostgreSQL \(DATABASE_URL\)\. Restore into the same kind of database it was made from\.\n$/,
      ],
      [path.join(dir, 'missing.tar.gz'), {}, /missing\.tar\.gz does not exist\.\n$/],
    ];
    for (const [file, env, message] of cases) {
      const r = restore(file, env);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(existsSync(path.join(dir, 'target'))).toBe(false);
    }
  }, 120_000);

  it('migrates a database of an older schema up after the restore', async () => {
    const { Kysely, Migrator, SqliteDialect } = await import('kysely');
    const SQLite = (await import('better-sqlite3')).default;
    const { migrations } = await import('../db/migrate.ts');
    const names = Object.keys(migrations).sort();
    const older = Object.fromEntries(Object.entries(migrations).filter(([n]) => names.slice(0, -3).includes(n)));
    const source = path.join(dir, 'older');
    mkdirSync(source);
    const kysely = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new SQLite(path.join(source, 'vitrine.db')) }),
    });
    const migrator = new Migrator({
      db: kysely,
      provider: { getMigrations: async () => older },
      migrationTableName: 'kysely_migration',
    });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    await kysely.destroy();

    const env = envOf(source, { dialect: 'sqlite', file: path.join(source, 'vitrine.db') });
    const made = vitrine(['backup', path.join(dir, 'older.tar.gz')], env);
    expect(made.status, made.stderr).toBe(0);
    const r = restore(path.join(dir, 'older.tar.gz'));
    expect(r.status, r.stderr).toBe(0);
    const db = new SQLite(path.join(dir, 'target', 'vitrine.db'), { readonly: true });
    const applied = db.prepare('select name from kysely_migration order by name').all() as { name: string }[];
    db.close();
    expect(applied.map((m) => m.name)).toEqual(names);
  }, 120_000);
});

describe('vitrine backup and restore with uploads kept in a bucket (README "Object storage")', () => {
  let t: TestApp;
  let dir: string;
  const ORIGINAL = '2026/12/0123456789abcdef0123456789abcdef/pier.jpg';
  const original = randomBytes(300_000);

  /** The environment of a portal on `dataDir` with its media store in the test app's bucket, under `prefix`. */
  const bucketEnv = (dataDir: string, prefix: string): Env & Record<string, string> => {
    const s3 = t.settings.mediaStore;
    if (s3.kind !== 's3') throw new Error('the test app keeps its media in a bucket');
    return {
      ...envOf(dataDir, { dialect: 'sqlite', file: path.join(dataDir, 'vitrine.db') }),
      S3_BUCKET: s3.bucket,
      S3_PREFIX: prefix,
      S3_ENDPOINT: s3.endpoint ?? '',
      S3_REGION: s3.region,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: s3.credentials?.accessKeyId ?? '',
      S3_SECRET_ACCESS_KEY: s3.credentials?.secretAccessKey ?? '',
    };
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-backup-s3-'));
    t = await startTestApp({ store: 's3' });
    await putUpload(t, 'logo', await rgbaToPng(new Uint8Array(4 * 4 * 4).fill(70), 4, 4));
    await putUpload(t, 'thumbnail/harbour_picks', 'a tile');
    // A width made of an upload: made again, not backed up.
    await putUpload(t, 'sized/logo-400.webp', 'made');
    // An original an editor uploaded, where the upload service places it (the bucket's uploads/ keys).
    await t.app.services.stores.originals.write([ORIGINAL], ([scratch]) => writeFile(scratch, original));
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams the uploads from the bucket into the archive, and a restore puts them into the configured bucket', async () => {
    const archive = path.join(dir, 'portal.tar.gz');
    const s3 = t.settings.mediaStore.kind === 's3' ? t.settings.mediaStore : undefined;
    const made = await vitrineAsync(['backup', archive], {
      ...bucketEnv(t.settings.dataDir, s3?.prefix ?? ''),
      ...envOf(t.settings.dataDir, t.settings.database),
    });
    // The AWS SDK warns on Node 20 (README); nothing else is said on stderr.
    expect(made.stderr).not.toMatch(/error|refused/i);
    expect(made.status).toBe(0);
    expect(made.stdout).toMatch(/5 files \(2 uploaded config files, 1 uploaded originals\)/);
    const manifest = JSON.parse(spawnSync('tar', ['-xzOf', archive, 'manifest.json'], { encoding: 'utf8' }).stdout);
    const logo = await t.app.services.stores.uploads.open('logo');
    const logoBytes = Buffer.concat(await logo.stream.toArray());
    expect(manifest.entries.filter((e: { path: string }) => e.path.startsWith('data/config-files/'))).toEqual([
      {
        path: 'data/config-files/logo',
        size: logoBytes.length,
        sha256: createHash('sha256').update(logoBytes).digest('hex'),
      },
      {
        path: 'data/config-files/thumbnail/harbour_picks',
        size: 6,
        sha256: createHash('sha256').update('a tile').digest('hex'),
      },
    ]);

    // Restored into a new data folder, with the uploads under a new prefix of the bucket.
    const target = path.join(dir, 'restored');
    const restored = await vitrineAsync(['restore', archive], bucketEnv(target, 'restored/'));
    expect(restored.stderr).not.toMatch(/error|refused/i);
    expect(restored.status).toBe(0);
    expect(existsSync(path.join(target, 'config-files'))).toBe(false);
    expect(readdirSync(target).filter((n) => n.startsWith('.vitrine-restore-'))).toEqual([]);
    const bucket = new S3Bucket({ ...(s3 as NonNullable<typeof s3>), prefix: 'restored/' }).store('config-files/');
    expect((await bucket.walk('')).map((f) => f.key)).toEqual(['logo', 'thumbnail/harbour_picks']);
    expect(Buffer.concat(await (await bucket.open('logo')).stream.toArray())).toEqual(logoBytes);
    expect(manifest.entries).toContainEqual({
      path: `data/uploads/${ORIGINAL}`,
      size: original.length,
      sha256: createHash('sha256').update(original).digest('hex'),
    });
    expect(existsSync(path.join(target, 'uploads'))).toBe(false);
    const originals = new S3Bucket({ ...(s3 as NonNullable<typeof s3>), prefix: 'restored/' }).store('uploads/');
    expect((await originals.walk('')).map((f) => f.key)).toEqual([ORIGINAL]);
    expect(Buffer.concat(await (await originals.open(ORIGINAL)).stream.toArray())).toEqual(original);

    // A place in the bucket that holds uploads already is not written to.
    const again = await vitrineAsync(['restore', archive], bucketEnv(path.join(dir, 'again'), 'restored/'));
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(
      "The uploads' place in the bucket is not empty (it holds logo, thumbnail/harbour_picks)",
    );
    expect(existsSync(path.join(dir, 'again', 'vitrine.db'))).toBe(false);
  }, 60_000);
});
