import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { makeClip, makeImage, makePdf, makeStl } from '../../test/media-fixtures.ts';
import { probeImage } from '../adapters/media.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { buildServices } from '../services.ts';
import { loadSettings, type Settings } from '../settings.ts';
import { derivativeRoot } from './storage.ts';

/** One import of every kind of file the portal shows, then the real derivative jobs. */
describe('derivatives of every asset type', () => {
  let database: TestDatabase;
  let db: Db;
  let dir: string;
  let settings: Settings;
  const derivatives = async (filename: string) => {
    const a = await db.kysely
      .selectFrom('asset')
      .select('id')
      .where('filename', '=', filename)
      .executeTakeFirstOrThrow();
    return db.kysely
      .selectFrom('derivative')
      .selectAll()
      .where('asset_id', '=', a.id)
      .orderBy('kind')
      .orderBy('page')
      .execute();
  };
  const file = (p: string) => path.join(derivativeRoot(settings.dataDir), p);

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    db = await openDatabase(database.config);
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-deriv-'));
    settings = loadSettings({ DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'silent' });
    const m = path.join(dir, 'media');
    await makeImage(path.join(m, 'photo.jpg'), { width: 3000, height: 2000 });
    await makeImage(path.join(m, 'deep.png'), { width: 400, height: 300, format: 'png', depth16: true });
    await makeImage(path.join(m, 'scan.tiff'), { width: 500, height: 700, format: 'tiff' });
    await makeImage(path.join(m, 'web.webp'), { width: 320, height: 200, format: 'webp' });
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', path.join(m, 'web.webp'), path.join(m, 'old.bmp')]);
    writeFileSync(
      path.join(m, 'logo.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="teal"/></svg>',
    );
    makeClip(path.join(m, 'clip.webm'), { seconds: 2 });
    makeClip(path.join(m, 'ready.mp4'), { seconds: 2 });
    makeClip(path.join(m, 'tone.wav'), { seconds: 1, video: false });
    makePdf(path.join(m, 'guide.pdf'), ['One', 'Two']);
    makeStl(path.join(m, 'shape.stl'));
    writeFileSync(path.join(m, 'scene.dae'), '<?xml version="1.0"?><COLLADA/>');
    const services = buildServices(db, settings);
    const summary = await services.importer().importFolder(m);
    expect(summary.failed).toEqual([]);
    const worker = services.jobWorker({ pollMs: 50 });
    await worker.drain();
    await worker.stop();
  }, 120_000);
  afterAll(async () => {
    await db.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    'photo.jpg',
    'deep.png',
    'scan.tiff',
    'web.webp',
    'old.bmp',
    'logo.svg',
    'clip.webm',
    'tone.wav',
    'guide.pdf',
    'shape.stl',
    'scene.dae',
  ])('%s gets a WebP thumbnail fitting the result posters, a preview and a placeholder', async (name) => {
    const rows = await derivatives(name);
    const thumb = rows.find((r) => r.kind === 'thumb');
    const preview = rows.find((r) => r.kind === 'preview' && r.page === 0);
    expect(thumb?.mime).toBe('image/webp');
    const t = await probeImage(file(thumb?.path ?? ''));
    expect(t.format).toBe('webp');
    expect(t.width).toBeLessThanOrEqual(800);
    expect(t.height).toBeLessThanOrEqual(500);
    expect(Buffer.from(thumb?.placeholder ?? '', 'base64').length).toBeGreaterThan(5);
    const p = await probeImage(file(preview?.path ?? ''));
    expect(Math.max(p.width, p.height)).toBeLessThanOrEqual(1600);
  });

  it('shrinks a large photo to the thumbnail box, keeping its aspect ratio', async () => {
    const thumb = (await derivatives('photo.jpg')).find((r) => r.kind === 'thumb');
    expect(thumb).toMatchObject({ width: 750, height: 500 });
  });

  it.each(['clip.webm', 'ready.mp4'])('makes a web MP4 (H.264/AAC, index at the front) of %s', async (name) => {
    const video = (await derivatives(name)).find((r) => r.kind === 'video');
    expect(video?.mime).toBe('video/mp4');
    const mp4 = file(video?.path ?? '');
    const codecs = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', mp4])
      .toString()
      .trim()
      .split('\n');
    expect(codecs).toEqual(['h264', 'aac']);
    const bytes = readFileSync(mp4);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
  });

  it('renders every page of a PDF as a preview', async () => {
    const pages = (await derivatives('guide.pdf')).filter((r) => r.kind === 'preview').map((r) => r.page);
    expect(pages).toEqual([0, 1, 2]);
  });

  it('draws a 3D model it can read and shows a typed icon for one it cannot', async () => {
    /** How much bluer than red the thumbnail is on average (decoded by ffmpeg to raw RGB). */
    const blueness = async (name: string) => {
      const thumb = (await derivatives(name)).find((r) => r.kind === 'thumb');
      const rgb = execFileSync(
        'ffmpeg',
        ['-v', 'error', '-i', file(thumb?.path ?? ''), '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
        {
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      let diff = 0;
      for (let i = 0; i + 2 < rgb.length; i += 3) diff += (rgb[i + 2] ?? 0) - (rgb[i] ?? 0);
      return diff / (rgb.length / 3);
    };
    // The rendered view is shaded in blue; the icon is a grey outline on a light grey ground.
    const model = await blueness('shape.stl');
    const icon = await blueness('scene.dae');
    expect(model, `model ${model}, icon ${icon}`).toBeGreaterThan(icon + 8);
  });
});
