import { mkdtempSync, rmSync, writeFileSync, unlinkSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../test/databases.ts';
import { makeClip, makeImage, makePdf } from '../../test/media-fixtures.ts';
import { writeEmbeddedMetadata } from '../adapters/metadata.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { loadSettings, type Settings } from '../settings.ts';
import { MAX_CAPTION_BYTES } from './caption-file.ts';
import { CatalogueRepository } from './catalogue.repository.ts';
import { ImportService } from './import.service.ts';

const VTT_EN = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nThe harbour at dawn\n';
const SRT_DE = '\uFEFF1\r\n00:00:00,000 --> 00:00:01,500\r\nDer Hafen im Morgengrauen\r\n';

describe.each(dialects)('catalogue import (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let settings: Settings;
  let dir: string;
  let media: string;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-import-'));
    media = path.join(dir, 'Harbour');
    settings = loadSettings({ DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'silent' });
    settings.database = database.config;
    db = await openDatabase(database.config);
  });
  afterEach(async () => {
    await db.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const importer = () => new ImportService(new CatalogueRepository(db.kysely), settings);
  const asset = (name: string) =>
    db.kysely.selectFrom('asset').selectAll().where('filename', '=', name).executeTakeFirstOrThrow();
  const values = async (id: number, field: string, lang = '') =>
    (
      await db.kysely
        .selectFrom('asset_value')
        .select('value')
        .where('asset_id', '=', id)
        .where('field', '=', field)
        .where('lang', '=', lang)
        .orderBy('ord')
        .execute()
    ).map((r) => r.value);
  const generation = async () =>
    Number((await db.kysely.selectFrom('catalogue_state').select('generation').executeTakeFirstOrThrow()).generation);

  it('reads embedded EXIF, IPTC and XMP: title, keywords, creator, rating, GPS, dates, camera', async () => {
    const file = await makeImage(path.join(media, 'dawn.jpg'));
    await writeEmbeddedMetadata(file, {
      'XMP-dc:Title': 'Harbour at dawn',
      'XMP-dc:Description': 'Boats in the morning mist',
      'IPTC:Keywords': ['harbour', 'boats'],
      'XMP-dc:Subject': ['harbour', 'mist'],
      'IPTC:By-line': 'Ada Lovelace',
      'XMP-dc:Rights': '© Ada Lovelace 2024',
      'XMP-xmp:Rating': 4,
      'XMP-xmp:Label': 'Green',
      DateTimeOriginal: '2024:05:17 08:30:00',
      OffsetTimeOriginal: '+02:00',
      GPSLatitude: 53.5461,
      GPSLatitudeRef: 'N',
      GPSLongitude: 9.9661,
      GPSLongitudeRef: 'E',
      Make: 'Canon',
      Model: 'EOS R5',
    });
    const iptcOnly = await makeImage(path.join(media, 'iptc.jpg'));
    await writeEmbeddedMetadata(iptcOnly, {
      'IPTC:ObjectName': 'Lighthouse',
      'IPTC:Keywords': ['lighthouse', 'coast'],
      'IPTC:By-line': 'Grace Hopper',
      'IPTC:CopyrightNotice': 'CC-BY-4.0 Grace Hopper',
    });
    const summary = await importer().importFolder(media);
    expect(summary).toMatchObject({ imported: 2, failed: [] });

    const iptc = await asset('iptc.jpg');
    expect(await values(iptc.id, 'title')).toEqual(['Lighthouse']);
    expect(await values(iptc.id, 'keywords')).toEqual(['lighthouse', 'coast']);
    expect(await values(iptc.id, 'creator')).toEqual(['Grace Hopper']);
    expect(await values(iptc.id, 'copyright')).toEqual(['CC-BY-4.0 Grace Hopper']);

    const a = await asset('dawn.jpg');
    expect(await values(a.id, 'title')).toEqual(['Harbour at dawn']);
    expect(await values(a.id, 'description')).toEqual(['Boats in the morning mist']);
    // Where XMP and IPTC both hold keywords, XMP wins (the Metadata Working Group's rule).
    expect(await values(a.id, 'keywords')).toEqual(['harbour', 'mist']);
    expect(await values(a.id, 'creator')).toEqual(['Ada Lovelace']);
    expect(await values(a.id, 'copyright')).toEqual(['© Ada Lovelace 2024']);
    expect(await values(a.id, 'camera_make')).toEqual(['Canon']);
    expect(await values(a.id, 'camera_model')).toEqual(['EOS R5']);
    expect(a.rating).toBe(4);
    expect(a.color_code).toBe(4);
    expect(Number(a.created)).toBe(Date.UTC(2024, 4, 17, 6, 30));
    expect(a.gps_lat).toBeCloseTo(53.5461, 4);
    expect(a.gps_lon).toBeCloseTo(9.9661, 4);
    expect(a).toMatchObject({ format: 'jpg', mime: 'image/jpeg', asset_group: 'image', status: 'active' });
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('computes pixel size and the size in millimetres from the resolution', async () => {
    await makeImage(path.join(media, 'print.png'), { width: 1181, height: 591, density: 300, format: 'png' });
    await makeImage(path.join(media, 'screen.jpg'), { width: 720, height: 360 });
    await importer().importFolder(media);
    const print = await asset('print.png');
    expect(print).toMatchObject({ pixel_x: 1181, pixel_y: 591 });
    expect(print.bbox_x).toBeCloseTo(100, 0);
    expect(print.bbox_y).toBeCloseTo(50, 0);
    // No resolution stated: 72 dpi, as image software assumes.
    const screen = await asset('screen.jpg');
    expect(screen.bbox_x).toBeCloseTo(254, 0);
  });

  it('sidecar values win over the folder manifest, which wins over embedded metadata', async () => {
    const file = await makeImage(path.join(media, 'quay.jpg'));
    await makeImage(path.join(media, 'pier.jpg'));
    await writeEmbeddedMetadata(file, {
      'XMP-dc:Title': 'Embedded title',
      'XMP-xmp:Rating': 2,
      'IPTC:By-line': 'Embedded Creator',
    });
    writeFileSync(
      path.join(media, 'manifest.json'),
      JSON.stringify({
        'quay.jpg': {
          title: 'Manifest title',
          rating: 3,
          license: 'CC-BY-4.0',
          category: { en: 'Harbours', de: 'Häfen' },
        },
        'pier.jpg': {
          title: { en: 'Pier', de: 'Steg' },
          keywords: { en: ['pier'], de: ['Steg'] },
          access_groups: ['admins'],
        },
      }),
    );
    writeFileSync(
      path.join(media, 'quay.jpg.json'),
      JSON.stringify({ title: { en: 'Quay', de: 'Kai' }, rating: 5, collections: ['Best of'] }),
    );
    const summary = await importer().importFolder(media);
    expect(summary).toMatchObject({ imported: 2, failed: [] });

    const quay = await asset('quay.jpg');
    expect(await values(quay.id, 'title', 'en')).toEqual(['Quay']);
    expect(await values(quay.id, 'title', 'de')).toEqual(['Kai']);
    expect(await values(quay.id, 'title')).toEqual([]);
    expect(quay.rating).toBe(5);
    expect(await values(quay.id, 'license')).toEqual(['CC-BY-4.0']);
    expect(await values(quay.id, 'category', 'de')).toEqual(['Häfen']);
    expect(await values(quay.id, 'creator')).toEqual(['Embedded Creator']);

    const pier = await asset('pier.jpg');
    expect(await values(pier.id, 'keywords', 'de')).toEqual(['Steg']);
    const access = async (id: number) =>
      (
        await db.kysely
          .selectFrom('asset_access')
          .select('group_name')
          .where('asset_id', '=', id)
          .orderBy('group_name')
          .execute()
      ).map((r) => r.group_name);
    expect(await access(pier.id)).toEqual(['admins']);
    expect(await access(quay.id)).toEqual(['admins', 'public', 'users']);

    const collections = await db.kysely
      .selectFrom('asset_collection')
      .innerJoin('collection', 'collection.id', 'asset_collection.collection_id')
      .select(['collection.name', 'collection.path'])
      .where('asset_id', '=', quay.id)
      .orderBy('collection.name')
      .execute();
    expect(collections).toEqual([
      { name: 'Best of', path: '#Best of' },
      { name: 'Harbour', path: 'Harbour' },
    ]);
  });

  it('reads a CSV manifest with per-language columns and lists', async () => {
    await makeImage(path.join(media, 'a.jpg'));
    writeFileSync(
      path.join(media, 'manifest.csv'),
      'file,title.en,title.de,keywords,rating,color_code\na.jpg,"Boat, red",Rotes Boot,boat;red,2,1\n',
    );
    await importer().importFolder(media);
    const a = await asset('a.jpg');
    expect(await values(a.id, 'title', 'en')).toEqual(['Boat, red']);
    expect(await values(a.id, 'title', 'de')).toEqual(['Rotes Boot']);
    expect(await values(a.id, 'keywords')).toEqual(['boat', 'red']);
    expect(a).toMatchObject({ rating: 2, color_code: 1 });
  });

  it('stores fields the settings declare and warns about undeclared ones', async () => {
    settings.file.fields = [
      {
        field_name: 'project',
        default_labels: { en: 'Project' },
        is_facet: true,
        range_facet: false,
        multi_valued: true,
        origin: 'settings',
        type: 'string',
        options: {},
      },
    ];
    await makeImage(path.join(media, 'a.jpg'));
    writeFileSync(
      path.join(media, 'a.jpg.json'),
      JSON.stringify({ fields: { project: ['Harbour 2030', 'Docks'], budget: 12 } }),
    );
    const summary = await importer().importFolder(media);
    expect(summary.failed).toEqual([]);
    expect(summary.warnings).toEqual([expect.stringContaining('field "budget" is not declared')]);
    const a = await asset('a.jpg');
    expect(await values(a.id, 'project')).toEqual(['Harbour 2030', 'Docks']);
    expect(await values(a.id, 'budget')).toEqual([]);
  });

  it('re-import is idempotent: unchanged files are skipped, changed ones updated, removed ones marked gone', async () => {
    await makeImage(path.join(media, 'one.jpg'));
    await makeImage(path.join(media, 'two.jpg'));
    await makeImage(path.join(media, 'sub', 'three.jpg'));
    expect(await importer().importFolder(media)).toMatchObject({ imported: 3, updated: 0, unchanged: 0 });
    const before = await asset('two.jpg');
    const gen1 = await generation();

    const again = await importer().importFolder(media);
    expect(again).toMatchObject({ imported: 0, updated: 0, unchanged: 3, gone: 0 });
    expect(await generation()).toBe(gen1);

    await makeImage(path.join(media, 'two.jpg'), { width: 300, height: 200 });
    unlinkSync(path.join(media, 'sub', 'three.jpg'));
    writeFileSync(path.join(media, 'one.jpg.json'), JSON.stringify({ rating: 1 }));
    const third = await importer().importFolder(media);
    expect(third).toMatchObject({ imported: 0, updated: 2, unchanged: 0, gone: 1, failed: [] });
    const after = await asset('two.jpg');
    expect(after.id).toBe(before.id);
    expect(after.imp_date).toBe(before.imp_date);
    expect(after.pixel_x).toBe(300);
    expect(after.sha256).not.toBe(before.sha256);
    expect(Number(after.updated_at)).toBeGreaterThanOrEqual(Number(before.updated_at));
    expect((await asset('one.jpg')).rating).toBe(1);
    expect((await asset('three.jpg')).status).toBe('gone');
    expect(await generation()).toBeGreaterThan(gen1);
    const count = await db.kysely
      .selectFrom('asset')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
  });

  it('clearing the catalogue (demo --reset) removes assets, collections, derivatives and their jobs', async () => {
    await makeImage(path.join(media, 'sub', 'deep', 'a.jpg'));
    writeFileSync(path.join(media, 'sub', 'deep', 'a.jpg.json'), JSON.stringify({ collections: ['Picked'] }));
    await importer().importFolder(media);
    await db.kysely
      .insertInto('job')
      .values({ name: 'zip', key: 'zip:1', payload: '{}', run_after: 0, created_at: 0, updated_at: 0 })
      .execute();
    const before = await generation();
    await new CatalogueRepository(db.kysely).clear();
    for (const table of [
      'asset',
      'asset_value',
      'collection',
      'asset_collection',
      'asset_access',
      'derivative',
    ] as const) {
      expect(await db.kysely.selectFrom(table).selectAll().execute(), table).toEqual([]);
    }
    expect((await db.kysely.selectFrom('job').select('name').execute()).map((j) => j.name)).toEqual(['zip']);
    // One change for the batch of assets, one of every asset at the end.
    expect(await generation()).toBe(before + 2);
  });

  it('reports a corrupt or unsupported file and imports the rest, leaving no half-written asset', async () => {
    await makeImage(path.join(media, 'good.jpg'));
    makePdf(path.join(media, 'doc.pdf'), ['One', 'Two', 'Three']);
    makeClip(path.join(media, 'clip.webm'), { seconds: 1 });
    writeFileSync(path.join(media, 'broken.jpg'), Buffer.from('this is not a JPEG at all'));
    writeFileSync(path.join(media, 'broken.pdf'), '%PDF-1.4\n garbage');
    writeFileSync(path.join(media, 'notes.xyz'), 'plain text');
    writeFileSync(path.join(media, 'bad.jpg'), Buffer.alloc(0));
    await makeImage(path.join(media, 'bad-sidecar.jpg'));
    writeFileSync(path.join(media, 'bad-sidecar.jpg.json'), '{"rating": 9}');
    appendFileSync(path.join(media, 'doc.pdf'), '');

    const summary = await importer().importFolder(media);
    expect(summary.imported).toBe(3);
    expect(summary.failed.map((f) => f.file)).toEqual([
      'bad-sidecar.jpg',
      'bad.jpg',
      'broken.jpg',
      'broken.pdf',
      'notes.xyz',
    ]);
    expect(summary.failed.find((f) => f.file === 'broken.jpg')?.reason).toMatch(/cannot be read as JPG/);
    expect(summary.failed.find((f) => f.file === 'notes.xyz')?.reason).toMatch(/not a supported file type/);
    expect(summary.failed.find((f) => f.file === 'bad-sidecar.jpg')?.reason).toMatch(/sidecar metadata: .*rating/);
    const names = (await db.kysely.selectFrom('asset').select('filename').orderBy('filename').execute()).map(
      (r) => r.filename,
    );
    expect(names).toEqual(['clip.webm', 'doc.pdf', 'good.jpg']);
    expect(await db.kysely.selectFrom('asset_value').select('asset_id').distinct().execute()).toHaveLength(3);
    expect(await asset('doc.pdf')).toMatchObject({ page_count: 3, asset_group: 'document', bbox_x: 105.8 });
    const clip = await asset('clip.webm');
    expect(clip).toMatchObject({ asset_group: 'video', pixel_x: 320, pixel_y: 240 });
    expect(clip.duration).toBeCloseTo(1, 0);
    // Every imported asset has its derivative jobs queued.
    const jobs = await db.kysely.selectFrom('job').select(['name', 'status']).execute();
    expect(jobs.filter((j) => j.name === 'derivatives')).toHaveLength(3);
    expect(jobs.filter((j) => j.name === 'web-video')).toHaveLength(1);
  });

  const at = (name: string) => path.join(media, name);
  const filenames = async () =>
    (await db.kysely.selectFrom('asset').select('filename').orderBy('filename').execute()).map((a) => a.filename);
  const captions = async (filename: string) =>
    db.kysely
      .selectFrom('asset_caption')
      .innerJoin('asset', 'asset.id', 'asset_caption.asset_id')
      .select(['asset_caption.track', 'asset_caption.lang', 'asset_caption.format', 'asset_caption.filename'])
      .where('asset.filename', '=', filename)
      .orderBy('asset_caption.track')
      .execute();

  it('takes .vtt and .srt files named after a video as its captions, in the language the name states', async () => {
    makeClip(at('dawn.mp4'), { seconds: 1 });
    makeClip(at('dusk.webm'), { seconds: 1 });
    writeFileSync(at('dawn.en.vtt'), VTT_EN);
    writeFileSync(at('dawn.de.srt'), SRT_DE);
    writeFileSync(at('dawn.en-gb.vtt'), VTT_EN);
    writeFileSync(at('dusk.vtt'), VTT_EN);
    const summary = await importer().importFolder(media);
    expect(summary).toMatchObject({ imported: 2, failed: [], warnings: [] });
    // The caption files are no assets of their own.
    expect(await filenames()).toEqual(['dawn.mp4', 'dusk.webm']);
    expect(await captions('dawn.mp4')).toEqual([
      { track: 1, lang: 'de', format: 'srt', filename: 'dawn.de.srt' },
      { track: 2, lang: 'en-GB', format: 'vtt', filename: 'dawn.en-gb.vtt' },
      { track: 3, lang: 'en', format: 'vtt', filename: 'dawn.en.vtt' },
    ]);
    // A name without a language: none, unless the catalogue names a default language.
    expect(await captions('dusk.webm')).toEqual([{ track: 1, lang: '', format: 'vtt', filename: 'dusk.vtt' }]);
    settings.file.catalogue.defaultLanguage = 'de';
    writeFileSync(at('dusk.vtt'), `${VTT_EN}\n`);
    await importer().importFolder(media);
    expect(await captions('dusk.webm')).toMatchObject([{ lang: 'de', filename: 'dusk.vtt' }]);
  });

  it('drops a caption whose file is gone at the next import, and takes a changed one, without making the video again', async () => {
    makeClip(at('dawn.mp4'), { seconds: 1 });
    writeFileSync(at('dawn.en.vtt'), VTT_EN);
    writeFileSync(at('dawn.de.srt'), SRT_DE);
    await importer().importFolder(media);
    expect(await captions('dawn.mp4')).toHaveLength(2);

    unlinkSync(at('dawn.de.srt'));
    writeFileSync(at('dawn.en.vtt'), VTT_EN.replace('dawn', 'first light'));
    const again = await importer().importFolder(media);
    expect(again).toMatchObject({ unchanged: 1, updated: 0, failed: [] });
    expect(await captions('dawn.mp4')).toEqual([{ track: 1, lang: 'en', format: 'vtt', filename: 'dawn.en.vtt' }]);
    const stored = await db.kysely.selectFrom('asset_caption').select('content').executeTakeFirstOrThrow();
    expect(stored.content).toContain('first light');

    unlinkSync(at('dawn.en.vtt'));
    await importer().importFolder(media);
    expect(await captions('dawn.mp4')).toEqual([]);
  });

  it('refuses oversized, binary and malformed caption files with a reason, and imports the video all the same', async () => {
    makeClip(at('dawn.mp4'), { seconds: 1 });
    writeFileSync(at('dawn.en.vtt'), `WEBVTT\n\n${'x'.repeat(MAX_CAPTION_BYTES)}`);
    writeFileSync(at('dawn.de.vtt'), Buffer.from([0x57, 0x45, 0x42, 0x56, 0x54, 0x54, 0x0a, 0xff, 0xfe, 0x00, 0x01]));
    writeFileSync(at('dawn.fr.srt'), 'just some words, no timings\n');
    writeFileSync(at('dawn.it.vtt'), VTT_EN);
    writeFileSync(at('nothing.vtt'), VTT_EN);
    const summary = await importer().importFolder(media);
    expect(summary).toMatchObject({ imported: 1, failed: [] });
    expect([...summary.warnings].sort()).toEqual([
      'dawn.de.vtt: caption left out: not UTF-8 text',
      expect.stringMatching(/^dawn\.en\.vtt: caption left out: larger than 1 MB/),
      'dawn.fr.srt: caption left out: no SubRip cue timing (00:00:01,000 --> 00:00:02,000) found',
      'nothing.vtt: a caption file named after no video beside it',
    ]);
    expect(await filenames()).toEqual(['dawn.mp4']);
    expect(await captions('dawn.mp4')).toMatchObject([{ lang: 'it' }]);
  });
});
