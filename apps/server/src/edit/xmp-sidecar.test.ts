import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXmpSidecar, writeXmpSidecar } from '../adapters/metadata.ts';
import { apiCaller, startTestApp, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { buildAsset } from '../../test/factories.ts';
import { makeImage } from '../../test/media-fixtures.ts';
import { XMP_SIDECAR_JOB } from './xmp-sidecar.jobs.ts';

type Headers = Record<string, string>;

const groups = [{ name: 'users' }, { name: 'editors' }, { name: 'admins', guiAdmin: true }];

describe.each(dialects)('XMP sidecars of edits on %s (editing.writeXmpSidecars, issue #49)', (dialect) => {
  let on: TestApp;
  let off: TestApp;
  let media: string;
  let editorOn: Headers;
  let editorOff: Headers;

  const values = async (t: TestApp, id: number, field: string) =>
    (
      await t.app.db.kysely
        .selectFrom('asset_value')
        .select('value')
        .where('asset_id', '=', id)
        .where('field', '=', field)
        .orderBy('lang')
        .orderBy('ord')
        .execute()
    ).map((r) => r.value);
  const idOf = async (t: TestApp, filename: string) =>
    Number(
      (
        await t.app.db.kysely
          .selectFrom('asset')
          .select('id')
          .where('filename', '=', filename)
          .executeTakeFirstOrThrow()
      ).id,
    );
  const assetCount = async (t: TestApp) =>
    Number(
      (
        await t.app.db.kysely
          .selectFrom('asset')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const runJobs = async (t: TestApp) => {
    const worker = t.app.services.jobWorker({ pollMs: 20 });
    await worker.drain();
    await worker.stop();
  };
  const edit = async (t: TestApp, who: Headers, id: number, changes: object[]) => {
    const res = await apiCaller(t)('POST', 'edit/apply', who, { ids: [String(id)], changes });
    expect(res.statusCode, res.body).toBe(200);
  };
  const titleAndKeywords = [
    { field: 'title', op: 'set', values: ['Harbour at dusk'] },
    { field: 'keywords', op: 'set', values: ['boat', 'pier & quay'] },
  ];

  beforeAll(async () => {
    const settings = (write: boolean) => ({
      catalogue: { defaultAccessGroups: ['users'] },
      groups,
      editing: { writeXmpSidecars: write },
    });
    [on, off] = await Promise.all([
      startTestApp({ dialect, settings: settings(true) }),
      startTestApp({ dialect, settings: settings(false) }),
    ]);
    media = mkdtempSync(path.join(tmpdir(), 'vitrine-xmp-'));
    editorOn = (await signIn(on, { name: 'edna', groups: ['users', 'editors'] })).headers;
    editorOff = (await signIn(off, { name: 'edna', groups: ['users', 'editors'] })).headers;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([on.close(), off.close()]);
    rmSync(media, { recursive: true, force: true });
  });

  it('writes the edited title and keywords into <file>.xmp, leaves the JPEG as it was, and a re-import keeps them', async () => {
    const folder = path.join(media, 'on');
    const jpeg = await makeImage(path.join(folder, 'harbour.jpg'), { width: 64, height: 48 });
    const original = readFileSync(jpeg);
    expect((await on.app.services.importer().importFolder(folder)).failed).toEqual([]);
    const id = await idOf(on, 'harbour.jpg');
    await edit(on, editorOn, id, titleAndKeywords);
    await runJobs(on);

    const xmp = await readXmpSidecar(`${jpeg}.xmp`);
    expect(xmp.title).toEqual({ '': 'Harbour at dusk' });
    expect(xmp.keywords).toEqual(['boat', 'pier & quay']);
    // Fields nobody edited are not written (the file's own metadata stays theirs).
    expect(xmp.creator).toBeNull();
    expect(xmp.created).toBeNull();
    expect(readFileSync(jpeg).equals(original)).toBe(true);
    // Only the sidecar was added: no temporary file is left beside it.
    expect(readdirSync(folder).sort()).toEqual(['harbour.jpg', 'harbour.jpg.xmp']);

    const again = await on.app.services.importer().importFolder(folder);
    expect(again.failed).toEqual([]);
    expect(again.files).toBe(1);
    expect(await assetCount(on)).toBe(1);
    expect(await values(on, id, 'title')).toEqual(['Harbour at dusk']);
    expect(await values(on, id, 'keywords')).toEqual(['boat', 'pier & quay']);
    expect(readFileSync(jpeg).equals(original)).toBe(true);
  });

  it('removes a field an admin resets from the sidecar, so the next import reads the file again', async () => {
    const id = await idOf(on, 'harbour.jpg');
    const jpeg = path.join(media, 'on', 'harbour.jpg');
    const admin = (await signIn(on, { name: 'ada', groups: ['users', 'admins'] })).headers;
    const res = await apiCaller(on)('POST', 'edit/reset', admin, { id: String(id), field: 'title' });
    expect(res.statusCode, res.body).toBe(200);
    await runJobs(on);
    const xmp = await readXmpSidecar(`${jpeg}.xmp`);
    expect(xmp.title).toEqual({});
    expect(xmp.keywords).toEqual(['boat', 'pier & quay']);
    expect((await on.app.services.importer().importFolder(path.dirname(jpeg))).failed).toEqual([]);
    // The file has no title of its own: the import names it after the file, as before the edit.
    expect(await values(on, id, 'title')).toEqual(['harbour']);
    expect(await values(on, id, 'keywords')).toEqual(['boat', 'pier & quay']);
  });

  it('writes nothing with the setting off', async () => {
    const folder = path.join(media, 'off');
    const jpeg = await makeImage(path.join(folder, 'quay.jpg'), { width: 64, height: 48 });
    expect((await off.app.services.importer().importFolder(folder)).failed).toEqual([]);
    await edit(off, editorOff, await idOf(off, 'quay.jpg'), titleAndKeywords);
    await runJobs(off);
    expect(existsSync(`${jpeg}.xmp`)).toBe(false);
    expect(readdirSync(folder)).toEqual(['quay.jpg']);
  });

  it('reads a sidecar beside a file as its metadata, per language, above the embedded metadata', async () => {
    const folder = path.join(media, 'read');
    const jpeg = await makeImage(path.join(folder, 'pier.jpg'), { width: 64, height: 48 });
    await writeXmpSidecar(`${jpeg}.xmp`, {
      title: { en: 'Pier', de: 'Steg' },
      keywords: ['wood'],
      creator: 'Anna Quill',
      created: '2024-05-01T08:30:00.000Z',
    });
    const summary = await off.app.services.importer().importFolder(folder);
    expect(summary.failed).toEqual([]);
    expect(summary.files).toBe(1);
    const id = await idOf(off, 'pier.jpg');
    const titles = await off.app.db.kysely
      .selectFrom('asset_value')
      .select(['lang', 'value'])
      .where('asset_id', '=', id)
      .where('field', '=', 'title')
      .orderBy('lang')
      .execute();
    expect(titles).toEqual([
      { lang: 'de', value: 'Steg' },
      { lang: 'en', value: 'Pier' },
    ]);
    expect(await values(off, id, 'keywords')).toEqual(['wood']);
    expect(await values(off, id, 'creator')).toEqual(['Anna Quill']);
    const asset = await off.app.db.kysely
      .selectFrom('asset')
      .select('created')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(asset.created)).toBe(Date.parse('2024-05-01T08:30:00.000Z'));
  });

  it('gives an uploaded asset and one of a bucket no sidecar', async () => {
    const uploads = path.join(on.settings.dataDir, 'uploads', '2026', '12', 'u1');
    mkdirSync(uploads, { recursive: true });
    const uploaded = await makeImage(path.join(uploads, 'upload.jpg'), { width: 64, height: 48 });
    const imported = await on.app.services.importer().importFile(uploaded, async () => []);
    if (!('id' in imported)) throw new Error(imported.reason);
    const inBucket = await buildAsset(on.app.db, {
      filename: 'cloud.jpg',
      source_path: 's3://media/cloud.jpg',
      import_root: 's3://media',
      access: ['users'],
    });
    await edit(on, editorOn, imported.id, titleAndKeywords);
    await edit(on, editorOn, inBucket, titleAndKeywords);
    const queued = await on.app.db.kysely
      .selectFrom('job')
      .select('key')
      .where('name', '=', XMP_SIDECAR_JOB)
      .where('key', 'in', [`${XMP_SIDECAR_JOB}:${imported.id}`, `${XMP_SIDECAR_JOB}:${inBucket}`])
      .execute();
    expect(queued).toEqual([]);
    // Even a job asked for them (by hand here) writes nothing beside them.
    await on.app.db.kysely.deleteFrom('job').where('name', '!=', XMP_SIDECAR_JOB).execute();
    for (const id of [imported.id, inBucket])
      await on.app.services.repositories.jobs.enqueue({
        name: XMP_SIDECAR_JOB,
        key: `${XMP_SIDECAR_JOB}:${id}`,
        payload: { assetId: id },
      });
    await runJobs(on);
    expect(readdirSync(uploads)).toEqual(['upload.jpg']);
    const failed = await on.app.db.kysely
      .selectFrom('job')
      .select('key')
      .where('name', '=', XMP_SIDECAR_JOB)
      .where('status', '!=', 'done')
      .execute();
    expect(failed).toEqual([]);
  });
});
