import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_ASSET_HEADER } from '@vitrine/contract/edit';
import { startTestApp, storeSetups, type TestApp } from '../../test/app.ts';
import { signIn, xsrfHeaders } from '../../test/auth.ts';
import { makeImage } from '../../test/media-fixtures.ts';
import { writeEmbeddedMetadata } from '../adapters/metadata.ts';
import { S3Bucket } from '../adapters/s3-store.ts';
import { buildApp } from '../app.ts';
import { anonymous } from '../auth/caller.ts';
import { Originals } from '../derivatives/source-file.ts';
import { bucketStores } from '../services.ts';

const API = '/assetportal/api/';
const FILES = `${API}upload/files`;
const MB = 1024 * 1024;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const metadataHeader = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

const settings = {
  groups: [
    { name: 'users', portalAccess: true },
    { name: 'editors', portalAccess: true },
  ],
  catalogue: { defaultAccessGroups: ['users', 'editors'] },
  editing: { maxFileMb: 1, maxDailyMb: 3 },
};

describe.each(storeSetups)('uploads through tus ($dialect, media in a $store)', ({ dialect, store }) => {
  let t: TestApp;
  let dir: string;
  let editor: Record<string, string>;
  let photo: Buffer;
  let collection: number;

  const call = (
    method: 'POST' | 'HEAD' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: Buffer,
  ) =>
    t.app.inject({ method, url, headers: { 'tus-resumable': '1.0.0', ...headers }, ...(payload ? { payload } : {}) });
  /** Creates an upload as tus-js-client does; answers the response and the upload's URL. */
  const create = async (
    headers: Record<string, string>,
    meta: Record<string, string>,
    length: number,
  ): Promise<{ status: number; url: string; body: string; json: () => { error: string; message: string } }> => {
    const res = await call('POST', FILES, {
      ...headers,
      'upload-length': String(length),
      'upload-metadata': metadataHeader(meta),
    });
    const location = String(res.headers.location ?? '');
    return { status: res.statusCode, url: location, body: res.body, json: () => res.json() };
  };
  const patch = (url: string, headers: Record<string, string>, offset: number, bytes: Buffer) =>
    call(
      'PATCH',
      url,
      {
        ...headers,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': String(offset),
      },
      bytes,
    );
  const assets = async () => t.app.db.kysely.selectFrom('asset').selectAll().execute();
  const collections = async () => t.app.db.kysely.selectFrom('collection').select(['id', 'name', 'path']).execute();
  /** What is left of uploads under way: the parts folder's files, or the objects under the parts prefix. */
  const parts = async (): Promise<string[]> => {
    if (store === 'folder') {
      const folder = path.join(t.settings.dataDir, 'upload-parts');
      return existsSync(folder) ? readdirSync(folder) : [];
    }
    const walked = await new S3Bucket(t.bucket!.settings).store('upload-parts/').walk('');
    return walked.map((f) => f.key);
  };
  const original = async (a: { id: number; source_path: string; import_root: string | null }) => {
    const body = await new Originals(bucketStores(t.settings)).body(a);
    if (!body) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of await body.open()) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  beforeAll(async () => {
    t = await startTestApp({ dialect, store, settings });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-upload-'));
    const file = await makeImage(path.join(dir, 'harbour.jpg'), { width: 800, height: 600 });
    // Read by the import's own metadata step: the title comes from the file, not from its name.
    await writeEmbeddedMetadata(file, { 'XMP-dc:Title': 'Lighthouse in fog', 'IPTC:Keywords': ['beacon'] });
    photo = readFileSync(file);
    editor = (await signIn(t, { name: 'edith', groups: ['editors'] })).headers;
    const made = await t.app.inject({
      method: 'POST',
      url: `${API}edit/collection`,
      headers: editor,
      payload: { name: 'Press' },
    });
    collection = made.json<{ id: number }>().id;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a guest and a user 403, and lets an editor begin an upload', async () => {
    const meta = { filename: 'harbour.jpg', collection: String(collection) };
    const guest = await create(xsrfHeaders, meta, photo.length);
    expect(guest.status).toBe(403);
    expect(guest.json().error).toBe('forbidden');
    const user = (await signIn(t, { groups: ['users'] })).headers;
    const refused = await create(user, meta, photo.length);
    expect(refused.status).toBe(403);
    expect(refused.json().error).toBe('forbidden');
    const made = await create(editor, meta, photo.length);
    expect(made.status, made.body).toBe(201);
    expect(made.url).toMatch(/^\/assetportal\/api\/upload\/files\/[0-9a-f]{32}$/);
    expect((await call('DELETE', made.url, editor)).statusCode).toBe(204);
  });

  it('takes an upload cut mid-file and resumed, and the asset has the file whole (same SHA-256), findable by the title in the file', async () => {
    const made = await create(
      editor,
      { filename: 'harbour_at_dawn.jpg', collection: String(collection) },
      photo.length,
    );
    expect(made.status, made.body).toBe(201);
    const half = Math.floor(photo.length / 2);
    const first = await patch(made.url, editor, 0, photo.subarray(0, half));
    expect(first.statusCode, first.body).toBe(204);
    expect(first.headers[UPLOAD_ASSET_HEADER.toLowerCase()]).toBeUndefined();
    // The connection was lost: the client asks where to go on.
    const head = await call('HEAD', made.url, editor);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(half));
    expect(head.headers['upload-length']).toBe(String(photo.length));
    const rest = await patch(made.url, editor, half, photo.subarray(half));
    expect(rest.statusCode, rest.body).toBe(204);
    expect(rest.headers['upload-offset']).toBe(String(photo.length));
    expect(String(rest.headers['access-control-expose-headers'])).toContain(UPLOAD_ASSET_HEADER);
    const id = Number(rest.headers[UPLOAD_ASSET_HEADER.toLowerCase()]);
    expect(id).toBeGreaterThan(0);

    const asset = (await assets()).find((a) => Number(a.id) === id);
    expect(asset).toMatchObject({ filename: 'harbour_at_dawn.jpg', sha256: sha256(photo), file_size: photo.length });
    const stored = await original({ id, source_path: asset!.source_path, import_root: asset!.import_root });
    expect(stored && sha256(stored)).toBe(sha256(photo));
    expect(asset!.source_path).toMatch(
      store === 'folder'
        ? new RegExp(`^${t.settings.dataDir}/uploads/\\d{4}/\\d{2}/[0-9a-f]{32}/harbour_at_dawn\\.jpg$`)
        : /^s3:\/\/vitrine-test\/portal\/uploads\/\d{4}\/\d{2}\/[0-9a-f]{32}\/harbour_at_dawn\.jpg$/,
    );
    const memberOf = await t.app.db.kysely
      .selectFrom('asset_collection')
      .select('collection_id')
      .where('asset_id', '=', id)
      .execute();
    expect(memberOf.map((m) => Number(m.collection_id))).toEqual([collection]);
    expect(await parts()).toEqual([]);
    // A client that resumes the finished upload (after a reload) learns it is whole, and its asset.
    const again = await call('HEAD', made.url, editor);
    expect(again.headers['upload-offset']).toBe(String(photo.length));
    expect(again.headers[UPLOAD_ASSET_HEADER.toLowerCase()]).toBe(String(id));

    const worker = t.app.services.jobWorker({ pollMs: 50 });
    await worker.drain();
    await worker.stop();
    const found = await t.app.inject({ url: `${API}search?solr_q=lighthouse%20beacon`, headers: editor });
    expect(found.statusCode).toBe(200);
    const docs = found.json<{ response: { docs: { id: string }[] } }>().response.docs;
    expect(docs.map((d) => d.id)).toContain(String(id));
    const title = await t.app.db.kysely
      .selectFrom('asset_value')
      .select('value')
      .where('asset_id', '=', id)
      .where('field', '=', 'title')
      .execute();
    expect(title.map((v) => v.value)).toEqual(['Lighthouse in fog']);
  }, 60_000);

  it('resumes an upload whose connection was lost in the middle of a PATCH, from where the server says it stopped', async () => {
    const made = await create(editor, { filename: 'lost.jpg', collection: String(collection) }, photo.length);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const half = Math.floor(photo.length / 2);
    await new Promise<void>((resolve) => {
      const request = http.request(`${address}${made.url}`, {
        method: 'PATCH',
        headers: {
          ...editor,
          'tus-resumable': '1.0.0',
          'content-type': 'application/offset+octet-stream',
          'upload-offset': '0',
          'content-length': String(photo.length),
        },
      });
      request.on('error', () => resolve());
      request.on('close', () => resolve());
      // Half the file is sent, then the connection goes (a network loss, a closed laptop).
      request.write(photo.subarray(0, half), () => setTimeout(() => request.destroy(), 300));
    });
    // HEAD waits for the interrupted PATCH to let go of the upload, then names what arrived whole.
    const head = await call('HEAD', made.url, editor);
    expect(head.statusCode).toBe(200);
    const offset = Number(head.headers['upload-offset']);
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThanOrEqual(half);
    const rest = await patch(made.url, editor, offset, photo.subarray(offset));
    expect(rest.statusCode, rest.body).toBe(204);
    const id = Number(rest.headers[UPLOAD_ASSET_HEADER.toLowerCase()]);
    const asset = (await assets()).find((a) => Number(a.id) === id);
    expect(asset?.sha256).toBe(sha256(photo));
    const stored = await original({ id, source_path: asset!.source_path, import_root: asset!.import_root });
    expect(stored && sha256(stored)).toBe(sha256(photo));
  });

  it('lets another process (same database and media store) take the next PATCH', async () => {
    const other = await buildApp(t.settings, { logger: false });
    try {
      const made = await create(editor, { filename: 'relay.jpg', collection: String(collection) }, photo.length);
      const half = Math.floor(photo.length / 2);
      expect((await patch(made.url, editor, 0, photo.subarray(0, half))).statusCode).toBe(204);
      const ask = (method: 'HEAD' | 'PATCH', offset?: number, bytes?: Buffer) =>
        other.inject({
          method,
          url: made.url,
          headers: {
            ...editor,
            'tus-resumable': '1.0.0',
            ...(offset === undefined
              ? {}
              : { 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) }),
          },
          ...(bytes ? { payload: bytes } : {}),
        });
      expect((await ask('HEAD')).headers['upload-offset']).toBe(String(half));
      const rest = await ask('PATCH', half, photo.subarray(half));
      expect(rest.statusCode, rest.body).toBe(204);
      const id = Number(rest.headers[UPLOAD_ASSET_HEADER.toLowerCase()]);
      const asset = (await assets()).find((a) => Number(a.id) === id);
      expect(asset?.sha256).toBe(sha256(photo));
    } finally {
      await other.close();
    }
  });

  it('puts the folders of a dropped folder as collections under the chosen one', async () => {
    const made = await create(
      editor,
      { filename: 'pier.jpg', collection: String(collection), relativePath: 'Holiday/Beach/pier.jpg' },
      photo.length,
    );
    const done = await patch(made.url, editor, 0, photo);
    expect(done.statusCode, done.body).toBe(204);
    const id = Number(done.headers[UPLOAD_ASSET_HEADER.toLowerCase()]);
    const all = await collections();
    const beach = all.find((c) => c.path === '#Press/Holiday/Beach');
    expect(beach).toBeDefined();
    const member = await t.app.db.kysely
      .selectFrom('asset_collection')
      .select('collection_id')
      .where('asset_id', '=', id)
      .execute();
    expect(member.map((m) => Number(m.collection_id))).toEqual([Number(beach!.id)]);
  });

  it('refuses a file larger than editing.maxFileMb at creation (413), storing nothing', async () => {
    const before = await t.app.db.kysely.selectFrom('upload').selectAll().execute();
    const res = await create(editor, { filename: 'huge.jpg', collection: String(collection) }, 2 * MB);
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ error: 'payload_too_large' });
    expect(res.json().message).toBe('huge.jpg has 2 MB; one upload may bring at most 1 MB.');
    expect(await t.app.db.kysely.selectFrom('upload').selectAll().execute()).toEqual(before);
    expect(await parts()).toEqual([]);
  });

  it('refuses an upload past the editor’s daily limit (429) with what remains, storing nothing', async () => {
    const account = await signIn(t, { groups: ['editors'] });
    const busy = account.headers;
    const meta = { filename: 'day.jpg', collection: String(collection) };
    const begun: string[] = [];
    for (let i = 0; i < 3; i++) {
      const ok = await create(busy, meta, MB - 100);
      expect(ok.status, ok.body).toBe(201);
      begun.push(ok.url);
    }
    const partsBefore = await parts();
    const res = await create(busy, meta, 1000);
    expect(res.status).toBe(429);
    expect(res.json()).toMatchObject({ error: 'rate_limited' });
    expect(res.json().message).toBe(
      'day.jpg (0 MB) would pass your daily upload limit of 3 MB: 0 MB remain for today.',
    );
    expect(await parts()).toEqual(partsBefore);
    // A cancelled upload no longer counts.
    expect((await call('DELETE', begun[0]!, busy)).statusCode).toBe(204);
    expect((await create(busy, meta, 1000)).status).toBe(201);
    const auth = { ...anonymous, userId: account.userId, name: 'busy', groups: ['editors'], isAssetUser: true };
    expect(await t.app.services.uploads.usedTodayBytes(auth)).toBe(2 * (MB - 100) + 1000);
  });

  it('refuses a file the import cannot read (422, its reason), leaving the catalogue as it was', async () => {
    const before = { assets: await assets(), collections: await collections() };
    const noise = randomBytes(4000);
    const made = await create(
      editor,
      { filename: 'broken.jpg', collection: String(collection), relativePath: 'Rubble/broken.jpg' },
      noise.length,
    );
    expect(made.status, made.body).toBe(201);
    const res = await patch(made.url, editor, 0, noise);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'unreadable_file' });
    expect(res.json<{ message: string }>().message).toMatch(/^broken\.jpg: the file cannot be read as JPG: /);
    expect(await assets()).toEqual(before.assets);
    expect(await collections()).toEqual(before.collections);
    const uploadId = made.url.slice(made.url.lastIndexOf('/') + 1);
    expect((await parts()).filter((p) => p.startsWith(uploadId))).toEqual([]);
    if (store === 'folder') {
      const uploads = path.join(t.settings.dataDir, 'uploads');
      const left = readdirSync(uploads, { recursive: true }).filter((f) => String(f).includes('broken'));
      expect(left).toEqual([]);
    }
    expect((await call('HEAD', made.url, editor)).statusCode).toBe(404);
  });

  it('refuses a file type the import does not read (415), with the reason vitrine import prints', async () => {
    const res = await create(editor, { filename: 'notes.docx', collection: String(collection) }, 100);
    expect(res.status).toBe(415);
    expect(res.json()).toMatchObject({
      error: 'unsupported_media_type',
      message: 'notes.docx: not a supported file type (.docx)',
    });
  });

  it('answers 400 naming what is missing from Upload-Metadata', async () => {
    const res = await create(editor, { collection: String(collection) }, 100);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation', details: [{ path: 'filename' }] });
    const nowhere = await create(editor, { filename: 'a.jpg' }, 100);
    expect(nowhere.status).toBe(400);
    expect(nowhere.json()).toMatchObject({ error: 'validation', details: [{ path: 'collection' }] });
  });

  it('makes a collection for uploads (editors only), or answers the one of that name under the same parent', async () => {
    const post = (headers: Record<string, string>, payload: object) =>
      t.app.inject({ method: 'POST', url: `${API}edit/collection`, headers, payload });
    expect((await post(xsrfHeaders, { name: 'Guests' })).statusCode).toBe(403);
    const user = (await signIn(t, { groups: ['users'] })).headers;
    expect((await post(user, { name: 'Users' })).statusCode).toBe(403);
    const top = await post(editor, { name: 'Spring 2027' });
    expect(top.json()).toEqual({ id: expect.any(Number), name: 'Spring 2027', path: '#Spring 2027' });
    const child = await post(editor, { name: 'Launch', parent: top.json<{ id: number }>().id });
    expect(child.json()).toMatchObject({ name: 'Launch', path: '#Spring 2027/Launch' });
    expect((await post(editor, { name: 'Launch', parent: top.json<{ id: number }>().id })).json()).toEqual(
      child.json(),
    );
    const stray = await post(editor, { name: 'a/b' });
    expect(stray.statusCode).toBe(400);
    expect(stray.json()).toMatchObject({ error: 'validation', details: [{ path: 'name' }] });
    expect((await post(editor, { name: 'Orphan', parent: 999_999 })).statusCode).toBe(400);
  });

  it('does not let another editor see or continue someone’s upload (404)', async () => {
    const made = await create(editor, { filename: 'mine.jpg', collection: String(collection) }, photo.length);
    const half = Math.floor(photo.length / 2);
    expect((await patch(made.url, editor, 0, photo.subarray(0, half))).statusCode).toBe(204);
    const other = (await signIn(t, { groups: ['editors'] })).headers;
    expect((await call('HEAD', made.url, other)).statusCode).toBe(404);
    const stolen = await patch(made.url, other, half, photo.subarray(half));
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toMatchObject({ error: 'not_found' });
    expect((await call('DELETE', made.url, other)).statusCode).toBe(404);
    // The owner's upload is as it was.
    const head = await call('HEAD', made.url, editor);
    expect(head.headers['upload-offset']).toBe(String(half));
    const rest = await patch(made.url, editor, half, photo.subarray(half));
    expect(rest.statusCode, rest.body).toBe(204);
  });
});
