import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { vitrineCli } from '../../test/cli.ts';
import { makeImage } from '../../test/media-fixtures.ts';
import { startTestBucket, TEST_BUCKET } from '../../test/s3.ts';
import { SIGNATURE_VERSION } from '../alike/signature.ts';

/** The command as a child process, while this process goes on answering (the test's object store). */
const run = (args: string[], env: NodeJS.ProcessEnv) =>
  new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [...vitrineCli, ...args], { env });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (status) => resolve({ status, stderr }));
  });

describe('vitrine import (command line)', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('prints a summary with the reasons of failures, exits 1, and leaves every good asset with its derivatives', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-cli-'));
    const media = path.join(dir, 'media');
    await makeImage(path.join(media, 'a.jpg'));
    await makeImage(path.join(media, 'b.png'), { format: 'png' });
    writeFileSync(path.join(media, 'c.jpg'), 'not an image');
    const env = { ...process.env, DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'silent' };

    const first = spawnSync(process.execPath, [...vitrineCli, 'import', media], { env, encoding: 'utf8' });
    expect(first.stdout).toMatch(/Imported 2, updated 0, unchanged 0, marked gone 0, failed 1 \(3 files/);
    expect(first.stdout).toMatch(/failed: c\.jpg: the file cannot be read as JPG/);
    expect(first.status).toBe(1);
    const db = new Database(path.join(dir, 'data', 'vitrine.db'), { readonly: true });
    const thumbs = db.prepare("select count(*) as n from derivative where kind = 'thumb'").get() as { n: number };
    const pending = db.prepare("select count(*) as n from job where status <> 'done'").get() as { n: number };
    db.close();
    expect(thumbs.n).toBe(2);
    expect(pending.n).toBe(0);

    rmSync(path.join(media, 'c.jpg'));
    const second = spawnSync(process.execPath, [...vitrineCli, 'import', media], { env, encoding: 'utf8' });
    expect(second.stdout).toMatch(/Imported 0, updated 0, unchanged 2, marked gone 0, failed 0/);
    expect(second.status).toBe(0);

    // A start with a catalogue that has assets does not build or import the demo.
    const demo = spawnSync(process.execPath, [...vitrineCli, 'demo', '--if-empty'], { env, encoding: 'utf8' });
    expect(demo.status).toBe(0);
    expect(demo.stdout).toBe('');
    expect(existsSync(path.join(dir, 'data', 'demo'))).toBe(false);
  }, 60_000);

  it('makes the visual signatures of earlier assets once, and none again on the next run', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-cli-'));
    const media = path.join(dir, 'media');
    await makeImage(path.join(media, 'a.jpg'));
    await makeImage(path.join(media, 'b.png'), { format: 'png' });
    const env = { ...process.env, DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'silent' };
    const importOnce = () => spawnSync(process.execPath, [...vitrineCli, 'import', media], { env, encoding: 'utf8' });
    const signed = () => {
      const db = new Database(path.join(dir, 'data', 'vitrine.db'), { readonly: true });
      // The part hashes counted: 16 hexadecimal digits each.
      const rows = db
        .prepare('select asset_id, version, length(parts) / 16 as parts from asset_signature order by asset_id')
        .all();
      db.close();
      return rows;
    };

    const first = importOnce();
    expect(first.status).toBe(0);
    // Signed with their pictures: nothing left for the step that signs earlier assets.
    expect(first.stdout).not.toContain('Visual signatures');
    expect(signed()).toHaveLength(2);

    // As a catalogue imported before signatures were.
    const db = new Database(path.join(dir, 'data', 'vitrine.db'));
    db.prepare('delete from asset_signature').run();
    db.close();
    const second = importOnce();
    expect(second.stdout).toMatch(/Imported 0, updated 0, unchanged 2/);
    expect(second.stdout).toContain('Visual signatures made for 2 earlier asset(s)');
    expect(signed()).toEqual([
      { asset_id: expect.any(Number), version: SIGNATURE_VERSION, parts: 45 },
      { asset_id: expect.any(Number), version: SIGNATURE_VERSION, parts: 45 },
    ]);

    const third = importOnce();
    expect(third.status).toBe(0);
    expect(third.stdout).not.toContain('Visual signatures');

    // Signatures made before part hashes (version 1) are made again, with them.
    const older = new Database(path.join(dir, 'data', 'vitrine.db'));
    older.prepare('update asset_signature set version = 1, parts = null').run();
    older.close();
    const fourth = importOnce();
    expect(fourth.stdout).toContain('Visual signatures made for 2 earlier asset(s)');
    expect(signed()).toEqual([
      { asset_id: expect.any(Number), version: SIGNATURE_VERSION, parts: 45 },
      { asset_id: expect.any(Number), version: SIGNATURE_VERSION, parts: 45 },
    ]);
  }, 90_000);

  it('says which folder is missing', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-cli-'));
    const r = spawnSync(process.execPath, [...vitrineCli, 'import', path.join(dir, 'nope')], {
      env: { ...process.env, DATA_DIR: path.join(dir, 'data') },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${path.join(dir, 'nope')} is not a folder`);
  });

  it('says so, with exit code 1, when a bucket is missing or there are no credentials for the object store', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-cli-'));
    const bucket = await startTestBucket('');
    try {
      const { S3_BUCKET: _b, ...connection } = bucket.env;
      const env = { ...process.env, ...connection, DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'silent' };
      // Not spawnSync: the object store answers from this process.
      const missing = await run(['import', 's3://nope/photos'], env);
      expect(missing.stderr).toContain('s3://nope/photos: The bucket nope does not exist');
      expect(missing.status).toBe(1);
      // No S3_* keys and none of the AWS SDK's own sources (variables, profiles, instance roles).
      const bare = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(S3|AWS)_/.test(k)));
      const none = await run(['import', `s3://${TEST_BUCKET}/photos`], {
        ...bare,
        HOME: dir,
        AWS_EC2_METADATA_DISABLED: 'true',
        DATA_DIR: path.join(dir, 'data'),
        LOG_LEVEL: 'silent',
      });
      expect(none.stderr).toContain(
        'No credentials for the object store: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY',
      );
      expect(none.status).toBe(1);
    } finally {
      await bucket.close();
    }
  }, 60_000);
});
