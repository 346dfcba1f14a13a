import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBigTriangleStl, makeStl } from '../../test/media-fixtures.ts';
import { createTestDatabase } from '../../test/databases.ts';
import { probeImage } from '../adapters/media.ts';
import { openDatabase } from '../db/database.ts';
import { buildServices } from '../services.ts';
import { loadSettings } from '../settings.ts';
import { ModelRenderer, type ModelLimits } from './model-renderer.ts';
import { derivativeRoot } from './storage.ts';

const defaults: ModelLimits = { maxFileMb: 64, maxTriangles: 2_000_000, timeoutSeconds: 60, maxMemoryMb: 512 };

describe('drawing 3D models in a worker thread', () => {
  let dir: string;
  let big: string;
  const renderers: ModelRenderer[] = [];
  const rendererWith = (limits: Partial<ModelLimits> = {}) => {
    const renderer = new ModelRenderer({ ...defaults, ...limits });
    renderers.push(renderer);
    return renderer;
  };
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-model-'));
    // Some 300 screen-filling triangles: a fraction of a second to a few seconds of drawing.
    big = makeBigTriangleStl(path.join(dir, 'big.stl'), 300);
  });
  afterAll(async () => {
    await Promise.all(renderers.map((r) => r.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws a model within the limits as a PNG of the view size', async () => {
    const view = await rendererWith().render(makeStl(path.join(dir, 'shape.stl')), 'stl');
    expect(view.kind).toBe('drawn');
    const png = await probeImage(view.kind === 'drawn' ? view.png : Buffer.alloc(0));
    expect(png).toMatchObject({ format: 'png', width: 1200, height: 800 });
  });

  it.each([
    ['binary STL', 'big.stl', 'stl', 'The model has 300 triangles; at most 100 are drawn (models.maxTriangles).'],
    ['OBJ', 'many.obj', 'obj', 'The model has more than 100 triangles; at most 100 are drawn (models.maxTriangles).'],
  ])('refuses a %s over the triangle limit with a message naming the setting', async (_kind, name, format, message) => {
    if (name === 'many.obj') {
      const faces = Array.from({ length: 101 }, () => 'f 1 2 3').join('\n');
      writeFileSync(path.join(dir, name), `v 0 0 0\nv 1 0 0\nv 0 1 0\n${faces}\n`);
    }
    const view = await rendererWith({ maxTriangles: 100 }).render(path.join(dir, name), format);
    expect(view).toEqual({ kind: 'refused', reason: message });
  });

  it('refuses a model file over the size limit before reading it', async () => {
    const view = await rendererWith({ maxFileMb: 0.01 }).render(big, 'stl');
    expect(view).toEqual({
      kind: 'refused',
      reason: 'The model file has 0.0 MB; at most 0.01 MB are drawn (models.maxFileMb).',
    });
  });

  it('stops a drawing that runs past the time limit', async () => {
    const slow = makeBigTriangleStl(path.join(dir, 'slow.stl'), 100_000);
    const view = await rendererWith({ timeoutSeconds: 0.2 }).render(slow, 'stl');
    expect(view).toEqual({
      kind: 'refused',
      reason: 'Drawing the model took longer than 0.2 s and was stopped (models.timeoutSeconds).',
    });
  });

  it('leaves the event loop free while a large model is drawn', async () => {
    const renderer = rendererWith();
    // A thread that has drawn once is drawing (not starting up) when the timer below runs.
    await renderer.render(makeStl(path.join(dir, 'warm.stl')), 'stl');
    const start = performance.eventLoopUtilization();
    let finished = false;
    const rendering = renderer.render(big, 'stl').finally(() => (finished = true));
    // A timer set while the model is drawn runs before the drawing ends, and this thread was idle
    // (not drawing) for most of the drawing.
    const finishedAtTimer = await new Promise<boolean>((resolve) => setTimeout(() => resolve(finished), 20));
    const view = await rendering;
    const busy = performance.eventLoopUtilization(start).utilization;
    expect(view.kind).toBe('drawn');
    expect(finishedAtTimer).toBe(false);
    expect(busy).toBeLessThan(0.5);
  });
});

describe('a 3D model over the limits at import', () => {
  it('gets the typed icon as its thumbnail, and the reason is logged', async () => {
    const database = await createTestDatabase('sqlite');
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-model-import-'));
    const db = await openDatabase(database.config);
    const warnings: object[] = [];
    let services: ReturnType<typeof buildServices> | undefined;
    try {
      const dataDir = path.join(dir, 'data');
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ models: { maxTriangles: 2 } }));
      const settings = loadSettings({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      services = buildServices(db, settings, {
        log: { info: () => undefined, warn: (obj, msg) => warnings.push({ ...obj, msg }) },
      });
      makeStl(path.join(dir, 'media', 'shape.stl'));
      expect((await services.importer().importFolder(path.join(dir, 'media'))).failed).toEqual([]);
      const worker = services.jobWorker({ pollMs: 50 });
      await worker.drain();
      await worker.stop();

      const thumb = await db.kysely
        .selectFrom('derivative')
        .select('path')
        .where('kind', '=', 'thumb')
        .executeTakeFirst();
      // The drawn view is shaded in blue (far bluer than red on average); the
      // icon is blue-grey on light grey (some 8).
      const rgb = execFileSync(
        'ffmpeg',
        [
          ...['-v', 'error', '-i', path.join(derivativeRoot(dataDir), thumb?.path ?? '')],
          ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
        ],
        { maxBuffer: 64 * 1024 * 1024 },
      );
      let blueness = 0;
      for (let i = 0; i + 2 < rgb.length; i += 3) blueness += (rgb[i + 2] ?? 0) - (rgb[i] ?? 0);
      expect(blueness / (rgb.length / 3)).toBeLessThan(12);
      expect(warnings).toContainEqual(
        expect.objectContaining({
          msg: 'the 3D model was not drawn',
          reason: 'The model has more than 2 triangles; at most 2 are drawn (models.maxTriangles).',
        }),
      );
    } finally {
      await (services ? services.close() : db.close());
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
