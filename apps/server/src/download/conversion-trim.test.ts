import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { makeImage } from '../../test/media-fixtures.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { buildServices, type Services } from '../services.ts';
import { loadSettings } from '../settings.ts';
import { trimConversionsSchedule } from './conversion-trim.jobs.ts';
import type { DownloadFile } from './conversion-cache.ts';

const HOUR = 3600_000;

describe.each(dialects)('the conversion cache is bounded (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let dir: string;
  let services: Services;
  const files: Record<string, DownloadFile> = {};
  const ids: Record<string, number> = {};

  const open = async (settings: object = {}) => {
    await services?.close();
    const s = loadSettings({ DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'silent' });
    s.file = { ...s.file, ...settings };
    db = await openDatabase(database.config);
    services = buildServices(db, s);
  };
  /** Where the folder store keeps a conversion. */
  const stored = (file: DownloadFile | undefined) => path.join(dir, 'data', 'conversions', file?.key ?? 'missing');
  const rows = () =>
    db.kysely.selectFrom('conversion').select(['sha256', 'status', 'last_used', 'path']).orderBy('sha256').execute();
  const convert = async (name: string) => {
    const [src] = await services.repositories.downloads.sources([ids[name] ?? 0]);
    const set = services.settings.file.conversionSets.find((s) => s.id === 1);
    if (!src || !set) throw new Error(`${name} and the web JPEG set are part of the set-up`);
    return services.conversions.file(src, set);
  };
  const setLastUsed = async (name: string, at: number) => {
    const [src] = await services.repositories.downloads.sources([ids[name] ?? 0]);
    await db.kysely
      .updateTable('conversion')
      .set({ last_used: at })
      .where('sha256', '=', src?.sha256 ?? '')
      .execute();
  };

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-trim-'));
    for (const [i, name] of ['old.jpg', 'middle.jpg', 'new.jpg'].entries()) {
      await makeImage(path.join(dir, 'media', name), { width: 300 + i * 10, height: 200 });
    }
    await open();
    await services.importer().importFolder(path.join(dir, 'media'));
    for (const a of await db.kysely.selectFrom('asset').select(['id', 'filename']).execute()) ids[a.filename] = a.id;
    for (const name of ['old.jpg', 'middle.jpg', 'new.jpg']) files[name] = await convert(name);
    const now = Date.now();
    await setLastUsed('old.jpg', now - 3 * HOUR);
    await setLastUsed('middle.jpg', now - 2 * HOUR);
    await setLastUsed('new.jpg', now - 30 * 60_000);
  }, 60_000);
  afterEach(async () => {
    await services.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('notes when a conversion is served, at most once an hour', async () => {
    const before = await rows();
    await convert('old.jpg');
    await convert('new.jpg');
    const after = await rows();
    const [oldSha, newSha] = await Promise.all(
      ['old.jpg', 'new.jpg'].map(
        async (n) => (await services.repositories.downloads.sources([ids[n] ?? 0]))[0]?.sha256,
      ),
    );
    const lastUsed = (list: typeof before, sha: string | undefined) => list.find((r) => r.sha256 === sha)?.last_used;
    // Served three hours ago: now noted; served half an hour ago: left as it is, no write.
    expect(lastUsed(after, oldSha)).toBeGreaterThan(Date.now() - 60_000);
    expect(lastUsed(after, newSha)).toBe(lastUsed(before, newSha));
  });

  it('serves a conversion asked again soon without reading its row, and reads it again once its file is gone', async () => {
    const lookups = vi.spyOn(services.repositories.downloads, 'conversion');
    await convert('new.jpg');
    expect(lookups).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 3; i++) expect((await convert('new.jpg')).key).toBe(files['new.jpg']?.key);
    expect(lookups).toHaveBeenCalledTimes(1);
    // Removed by another process's trim (row, then file): looked up again and made again.
    await db.kysely.deleteFrom('conversion').execute();
    rmSync(stored(files['new.jpg']));
    expect(existsSync(stored(await convert('new.jpg')))).toBe(true);
    expect(lookups.mock.calls.length).toBeGreaterThan(1);
  });

  it('removes the least recently used conversions until the cache is within its size, row and file', async () => {
    const bytes = (n: string) => files[n]?.bytes ?? 0;
    const kept = bytes('middle.jpg') + bytes('new.jpg');
    expect(await services.conversions.usage()).toEqual({ files: 3, bytes: kept + bytes('old.jpg') });
    const removed = await services.conversions.trim(kept);
    expect(removed).toEqual({ files: 1, bytes: bytes('old.jpg') });
    expect(existsSync(stored(files['old.jpg']))).toBe(false);
    expect(existsSync(stored(files['middle.jpg']))).toBe(true);
    expect(await services.conversions.usage()).toEqual({ files: 2, bytes: kept });
    // Asked again, the removed one is converted anew.
    expect((await convert('old.jpg')).bytes).toBe(bytes('old.jpg'));
  });

  it('never removes a conversion that is running', async () => {
    const [src] = await services.repositories.downloads.sources([ids['old.jpg'] ?? 0]);
    // Another process is converting old.jpg into another set right now.
    expect(await services.repositories.downloads.claimConversion(src?.sha256 ?? '', 'other-set', 0, HOUR, false)).toBe(
      true,
    );
    expect(await services.conversions.trim(0)).toMatchObject({ files: 3 });
    expect(await rows()).toEqual([expect.objectContaining({ status: 'running', last_used: 0 })]);
  });

  it('is trimmed by the hourly job to conversionCache.maxGB', async () => {
    const limit = (files['new.jpg']?.bytes ?? 0) + 1;
    await open({ conversionCache: { maxGB: limit / 1024 ** 3 } });
    const worker = services.jobWorker({ recurring: [trimConversionsSchedule()], pollMs: 20 });
    await worker.drain();
    await worker.stop();
    const left = await rows();
    expect(left).toHaveLength(1);
    expect(left[0]?.path).toContain(files['new.jpg']?.key?.split(path.sep).at(-1));
    expect(existsSync(stored(files['middle.jpg']))).toBe(false);
  });

  it("takes 10 % of the data folder's disk, at most 20 GB, when no size is set", async () => {
    const limit = await services.conversions.limit(undefined);
    expect(limit).toBeGreaterThan(0);
    expect(limit).toBeLessThanOrEqual(20 * 1024 ** 3);
    expect(await services.conversions.limit(0.5)).toBe(512 * 1024 ** 2);
  });
});
