import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_MANIFEST, writeDemoSidecars } from './demo-catalogue.ts';
import { readManifest } from './sidecar.ts';

describe('demo catalogue metadata', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes valid folder manifests that keep each file’s creator and licence and give facets in both languages', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-demo-'));
    const rows = [
      [
        'photos/sunset_by_Aitzol_Berasategi.jpg',
        'photos',
        'lomiri-wallpapers-16.04',
        '20.04.0-2',
        '/usr/share/backgrounds/sunset.jpg',
        'CC-BY-4.0',
        'Aitzol Berasategi',
      ],
      [
        'tiff/video-001.tiff',
        'tiff',
        'golang-golang-x-image-dev',
        '0.1',
        '/x/video-001.tiff',
        'BSD-3-Clause',
        'The Go Authors',
      ],
      ['models/spider/spider.mtl', 'models', 'assimp-testmodels', '5', '/m/spider.mtl', 'BSD-3-Clause', 'assimp'],
    ];
    for (const r of rows) mkdirSync(path.join(dir, path.dirname(r[0] ?? '')), { recursive: true });
    writeFileSync(
      path.join(dir, DEMO_MANIFEST),
      ['path\tkind\tpackage\tversion\tsource_path\tlicense\tcreator', ...rows.map((r) => r.join('\t'))].join('\n'),
    );
    await writeDemoSidecars(dir);

    const photos = await readManifest(path.join(dir, 'photos', 'manifest.json'));
    const sunset = photos.get('sunset_by_Aitzol_Berasategi.jpg');
    expect(sunset).toMatchObject({
      creator: 'Aitzol Berasategi',
      license: 'CC-BY-4.0',
      title: { en: 'Sunset', de: 'Sunset' },
      category: { en: 'Photography', de: 'Fotografie' },
      keywords: { en: ['photo', 'sunset', 'sky'], de: ['Foto', 'Sonnenuntergang', 'Himmel'] },
      collections: ['Highlights', 'Photography', 'Nature & landscapes'],
    });
    expect(sunset?.rating).toBeGreaterThanOrEqual(3);
    expect((sunset?.description as Record<string, string>).en).toContain('lomiri-wallpapers-16.04 20.04.0-2');

    const tiff = await readManifest(path.join(dir, 'tiff', 'manifest.json'));
    expect(tiff.get('video-001.tiff')?.access_groups).toEqual(['users', 'admins']);
    // The same picture in many formats is kept apart from the curated rows.
    expect(tiff.get('video-001.tiff')?.collections).toEqual(['Format test files']);
    // Materials of OBJ models are not assets, so they get no entry.
    expect(() => readFileSync(path.join(dir, 'models/spider/manifest.json'))).toThrow();
  });
});
