import { execFileSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putUpload, startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { makeImage } from '../../test/media-fixtures.ts';
import { openDatabase } from '../db/database.ts';
import { makeBackup } from './backup.service.ts';
import { restoreBackup, type RestoreTarget } from './restore.service.ts';

/**
 * What a restore reads is a tar archive of a maintained library's reading: archives other tools
 * wrote of a backup's layout restore, and nothing in an archive reaches outside its target.
 */
describe('archives a restore reads (README "Backups")', () => {
  let t: TestApp;
  let dir: string;
  let unpacked: string;
  let archive: string;
  /** An original an editor uploaded (tus), and where the portal keeps it below DATA_DIR. */
  let photo: Buffer;
  let photoAt: string;
  let targets = 0;
  const logo = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');

  const newTarget = (): RestoreTarget => {
    const dataDir = path.join(dir, `target-${++targets}`);
    return {
      dataDir,
      settingsFile: path.join(dataDir, 'settings.json'),
      database: { dialect: 'sqlite', file: path.join(dataDir, 'vitrine.db') },
    };
  };
  /** The backup's files with `change` made to them, packed by GNU tar with `args` (names below `unpacked`). */
  const repacked = (name: string, args: string[], change: (root: string) => void = () => undefined): string => {
    const root = path.join(dir, `${name}-files`);
    execFileSync('cp', ['-a', unpacked, root]);
    change(root);
    const file = path.join(dir, `${name}.tar.gz`);
    execFileSync('tar', ['-czf', file, '-C', root, 'manifest.json', ...args]);
    return file;
  };
  const layout = ['database', 'data'];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-restore-archive-'));
    t = await startTestApp();
    await putUpload(t, 'logo', logo);
    photo = readFileSync(await makeImage(path.join(dir, 'pier.jpg'), { width: 64, height: 48 }));
    const editor = (await signIn(t, { name: 'edith', groups: ['admins'] })).headers;
    const api = '/assetportal/api/';
    const made = await t.app.inject({
      method: 'POST',
      url: `${api}edit/collection`,
      headers: editor,
      payload: { name: 'Press' },
    });
    const meta = (pairs: Record<string, string>) =>
      Object.entries(pairs)
        .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
        .join(',');
    const tus = { ...editor, 'tus-resumable': '1.0.0' };
    const begun = await t.app.inject({
      method: 'POST',
      url: `${api}upload/files`,
      headers: {
        ...tus,
        'upload-length': String(photo.length),
        'upload-metadata': meta({ filename: 'pier.jpg', collection: String(made.json<{ id: number }>().id) }),
      },
    });
    expect(begun.statusCode, begun.body).toBe(201);
    const sent = await t.app.inject({
      method: 'PATCH',
      url: String(begun.headers.location),
      headers: { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
      payload: photo,
    });
    expect(sent.statusCode, sent.body).toBe(204);
    const asset = await t.app.db.kysely.selectFrom('asset').select('source_path').executeTakeFirstOrThrow();
    photoAt = path.relative(t.settings.dataDir, asset.source_path);
    expect(photoAt).toMatch(/^uploads\/\d{4}\/\d{2}\/[0-9a-f]{32}\/pier\.jpg$/);
    archive = path.join(dir, 'portal.tar.gz');
    await makeBackup(t.settings, path.join(t.settings.dataDir, 'settings.json'), archive);
    unpacked = path.join(dir, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', archive, '-C', unpacked]);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores a backup unpacked and packed again by GNU tar (with its folder entries)', async () => {
    const file = repacked('gnu', layout);
    const listing = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' });
    expect(listing).toMatch(/^data\/config-files\/$/m);
    const target = newTarget();
    const result = await restoreBackup(target, file);
    expect(result.manifest.entries.map((e) => e.path)).toContain('data/config-files/logo');
    expect(readFileSync(path.join(target.dataDir, 'config-files', 'logo'))).toEqual(logo);
    expect(readFileSync(path.join(target.dataDir, 'secret'))).toEqual(
      readFileSync(path.join(unpacked, 'data', 'secret')),
    );
    expect(existsSync(target.database.dialect === 'sqlite' ? target.database.file : '')).toBe(true);
  }, 60_000);

  const refusals: [string, () => string, RegExp][] = [
    [
      'a name that climbs out of the target (../)',
      () =>
        repacked('climbs', ['-P', ...layout, '../outside'], (root) =>
          writeFileSync(path.join(root, '..', 'outside'), 'x'),
        ),
      /holds an entry named \.\.\/outside, outside the folder it unpacks into/,
    ],
    [
      'an absolute name',
      () => {
        writeFileSync(path.join(dir, 'absolute'), 'x');
        return repacked('absolute', ['-P', ...layout, path.join(dir, 'absolute')]);
      },
      /holds an entry named \/.*absolute, outside the folder it unpacks into/,
    ],
    [
      'a symbolic link',
      () =>
        repacked('symlink', layout, (root) =>
          symlinkSync('/etc/passwd', path.join(root, 'data', 'config-files', 'style')),
        ),
      /holds a symbolic link \(data\/config-files\/style → \/etc\/passwd\), which no backup holds/,
    ],
    [
      'a hard link',
      () =>
        repacked('hardlink', layout, (root) =>
          linkSync(path.join(root, 'data', 'secret'), path.join(root, 'data', 'config-files', 'style')),
        ),
      /holds a hard link \(data\/(secret|config-files\/style) → data\/(secret|config-files\/style)\), which no backup holds/,
    ],
  ];

  it('restores an original an editor uploaded byte-identical where the portal keeps it', async () => {
    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as {
      entries: { path: string; size: number }[];
      notIncluded: string[];
    };
    expect(manifest.entries).toContainEqual(expect.objectContaining({ path: `data/${photoAt}`, size: photo.length }));
    expect(manifest.notIncluded.join('\n')).toMatch(/originals uploaded by editors are included/);
    const target = newTarget();
    await restoreBackup(target, archive);
    expect(readFileSync(path.join(target.dataDir, photoAt))).toEqual(photo);
    // The restored catalogue names the original where the restore put it.
    const db = await openDatabase(target.database);
    try {
      const asset = await db.kysely
        .selectFrom('asset')
        .select(['source_path', 'import_root'])
        .executeTakeFirstOrThrow();
      expect(asset.source_path).toBe(path.join(target.dataDir, photoAt));
      expect(asset.import_root?.startsWith(path.join(target.dataDir, 'uploads'))).toBe(true);
    } finally {
      await db.close();
    }
  }, 60_000);

  it.each(refusals)('refuses an archive with %s and leaves the target as it was', async (_what, make, why) => {
    const file = make();
    const target = newTarget();
    await expect(restoreBackup(target, file)).rejects.toThrow(why);
    expect(existsSync(target.dataDir)).toBe(false);
  });

  it('refuses an archive whose tar data ends inside a file, though its gzip is whole', async () => {
    const whole = execFileSync('tar', ['-cf', '-', '-C', unpacked, 'manifest.json', ...layout]);
    const file = path.join(dir, 'short.tar.gz');
    writeFileSync(file, gzipSync(whole.subarray(0, 512 * 3 + 100)));
    const target = newTarget();
    await expect(restoreBackup(target, file)).rejects.toThrow(
      /is damaged: the archive ends early \(it was cut short\)/,
    );
    expect(existsSync(target.dataDir)).toBe(false);
  });
});
