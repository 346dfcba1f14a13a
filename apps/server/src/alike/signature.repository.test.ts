import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { makeClip, makePdf, makeScene, makeStl, variantOf } from '../../test/media-fixtures.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { buildServices, type Services } from '../services.ts';
import { loadSettings } from '../settings.ts';
import { hashDistance, nearCopies, SIGNATURE_VERSION } from './signature.ts';
import { SignatureRepository } from './signature.repository.ts';

/** The real import and derivative jobs on real files, then the signatures they stored, on both databases. */
describe.each(dialects)('visual signatures at import (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let dir: string;
  let services: Services;
  const idOf = async (filename: string) =>
    (await db.kysely.selectFrom('asset').select('id').where('filename', '=', filename).executeTakeFirstOrThrow()).id;
  const signatureOf = async (filename: string) => services.repositories.signatures.find(await idOf(filename));
  const drain = async () => {
    const worker = services.jobWorker({ pollMs: 50 });
    await worker.drain();
    await worker.stop();
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = await openDatabase(database.config);
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-alike-'));
    const settings = loadSettings({ DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'silent' });
    const m = path.join(dir, 'media');
    const photo = await makeScene(path.join(m, 'photo.jpg'), { seed: 7, width: 1500, height: 1000 });
    await variantOf(photo, path.join(m, 'photo-small.png'), { width: 750, format: 'png' });
    copyFileSync(photo, path.join(m, 'photo-same.jpg'));
    await variantOf(photo, path.join(m, 'photo-left.jpg'), { left: 0.6, format: 'jpeg', quality: 90 });
    await makeScene(path.join(m, 'other.jpg'), { seed: 8, width: 1500, height: 1000 });
    await makeScene(path.join(m, 'tall.jpg'), { seed: 9, width: 600, height: 900 });
    makeClip(path.join(m, 'clip.webm'), { seconds: 2 });
    makeClip(path.join(m, 'tone.wav'), { seconds: 1, video: false });
    makePdf(path.join(m, 'guide.pdf'), ['One', 'Two']);
    makeStl(path.join(m, 'shape.stl'));
    writeFileSync(path.join(m, 'scene.dae'), '<?xml version="1.0"?><COLLADA/>');
    services = buildServices(db, settings);
    const summary = await services.importer().importFolder(m);
    expect(summary.failed).toEqual([]);
    await drain();
  }, 180_000);
  afterAll(async () => {
    await services.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a signature with the pictures of every asset that has a picture of its own, and none for the others', async () => {
    for (const name of [
      'photo.jpg',
      'photo-small.png',
      'other.jpg',
      'tall.jpg',
      'clip.webm',
      'guide.pdf',
      'shape.stl',
    ]) {
      const s = await signatureOf(name);
      expect(s, name).toBeDefined();
      expect(s?.phash).toMatch(/^[0-9a-f]{16}$/);
      expect(s?.version).toBe(SIGNATURE_VERSION);
      expect(s?.colours.length).toBeGreaterThan(0);
      expect(s?.colours.reduce((sum, c) => sum + c.share, 0)).toBeCloseTo(1, 1);
    }
    // A sound's waveform and a model drawn as a type icon show no picture of the asset.
    expect(await signatureOf('tone.wav')).toBeUndefined();
    expect(await signatureOf('scene.dae')).toBeUndefined();
    expect((await signatureOf('photo.jpg'))?.aspect).toBeCloseTo(1.5, 2);
    expect((await signatureOf('tall.jpg'))?.aspect).toBeCloseTo(2 / 3, 2);
  });

  it('finds the smaller PNG a copy of the photo, and the other photo not', async () => {
    const photo = await signatureOf('photo.jpg');
    const copy = await signatureOf('photo-small.png');
    const other = await signatureOf('other.jpg');
    if (!photo || !copy || !other) throw new Error('signatures missing');
    expect(hashDistance(photo.phash, copy.phash)).toBeLessThanOrEqual(4);
    expect(nearCopies(photo, copy)).toBe(true);
    expect(nearCopies(photo, other)).toBe(false);
  });

  it('reports the same file twice as an exact group, and its copies as a near group without the crop or the other photo', async () => {
    const id = async (...names: string[]) => (await Promise.all(names.map(idOf))).sort((x, y) => x - y);
    const setStatus = async (name: string, status: 'active' | 'gone') => {
      await db.kysely
        .updateTable('asset')
        .set({ status })
        .where('id', '=', await idOf(name))
        .execute();
    };
    const found = await services.repositories.signatures.duplicates();
    expect(found.exact).toEqual([await id('photo.jpg', 'photo-same.jpg')]);
    expect(found.near).toEqual([await id('photo.jpg', 'photo-same.jpg', 'photo-small.png')]);
    // Read a signature per statement, the pages join up to the same groups.
    expect(await new SignatureRepository(db.kysely, 1).duplicates()).toEqual(found);
    // Gone assets are no one's duplicates.
    await setStatus('photo-same.jpg', 'gone');
    expect(await services.repositories.signatures.duplicates()).toEqual({
      exact: [],
      near: [await id('photo.jpg', 'photo-small.png')],
    });
    await setStatus('photo-same.jpg', 'active');
    // Near copies that are all one content are an exact group only.
    await setStatus('photo-small.png', 'gone');
    expect(await services.repositories.signatures.duplicates()).toEqual({
      exact: [await id('photo.jpg', 'photo-same.jpg')],
      near: [],
    });
    await setStatus('photo-small.png', 'active');
  });

  it('signs earlier assets once from their stored pictures, as the import would have, and then finds none left', async () => {
    const backfill = services.signatureBackfill();
    expect(await backfill.pending()).toBe(0);
    const photo = await idOf('photo.jpg');
    const clip = await idOf('clip.webm');
    const made = await services.repositories.signatures.find(photo);
    // As before signatures were: one asset without any, one signed by an older way.
    await db.kysely.deleteFrom('asset_signature').where('asset_id', '=', photo).execute();
    await db.kysely.updateTable('asset_signature').set({ version: 0 }).where('asset_id', '=', clip).execute();
    expect(await backfill.pending()).toBe(2);
    const done: number[] = [];
    expect(await backfill.run((n) => done.push(n))).toEqual({ signed: 2, failed: 0 });
    expect(done).toEqual([1, 2]);
    const again = await services.repositories.signatures.find(photo);
    expect(again?.aspect).toBeCloseTo(made?.aspect ?? 0, 3);
    expect(hashDistance(again?.phash ?? '', made?.phash ?? '')).toBeLessThanOrEqual(4);
    expect((await services.repositories.signatures.find(clip))?.version).toBe(SIGNATURE_VERSION);
    expect(await backfill.pending()).toBe(0);
    expect(await backfill.run()).toEqual({ signed: 0, failed: 0 });
  });
});
