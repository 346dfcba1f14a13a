import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_ASSET_HEADER } from '@vitrine/contract/edit';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { makeImage } from '../../test/media-fixtures.ts';
import { anonymous, installAuth, type Auth } from '../auth/caller.ts';
import { installErrorHandler } from '../http/error-handler.ts';
import { Foreground } from '../jobs/foreground.ts';
import { uploadRoutes } from './upload.routes.ts';
import { UploadService } from './upload.service.ts';

const FILES = '/assetportal/api/upload/files';
const metadata = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

describe('UploadService: the history is told of each upload that became an asset', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let dir: string;
  let photo: Buffer;
  let collection: number;
  const told: [Auth, number][] = [];
  const foreground = new Foreground(60_000, 120_000);
  const editor: Auth = { ...anonymous, userId: 1, name: 'edith', groups: ['editors'], isAssetUser: true };

  const upload = async (filename: string, bytes: Buffer) => {
    const headers = { 'tus-resumable': '1.0.0' };
    const made = await app.inject({
      method: 'POST',
      url: FILES,
      headers: {
        ...headers,
        'upload-length': String(bytes.length),
        'upload-metadata': metadata({ filename, collection: String(collection) }),
      },
    });
    return app.inject({
      method: 'PATCH',
      url: String(made.headers.location),
      headers: { ...headers, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
      payload: bytes,
    });
  };

  beforeAll(async () => {
    t = await startTestApp({ settings: { groups: [{ name: 'editors', portalAccess: true }] } });
    const s = t.app.services;
    const service = new UploadService(
      s.repositories.uploads,
      s.repositories.catalogue,
      s.importer,
      t.settings,
      { warn: () => undefined },
      async (auth, assetId) => {
        told.push([auth, assetId]);
      },
      undefined,
      foreground,
    );
    app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandler(app, []);
    installAuth(app, async () => editor);
    uploadRoutes(app, service);
    await app.ready();
    collection = (await service.createCollection(editor, { name: 'History' })).id;
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-upload-history-'));
    photo = readFileSync(await makeImage(path.join(dir, 'a.jpg')));
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('calls onUploaded with the editor and the new asset, and not for a file the import refused', async () => {
    const done = await upload('kept.jpg', photo);
    expect(done.statusCode, done.body).toBe(204);
    expect(told).toEqual([[editor, Number(done.headers[UPLOAD_ASSET_HEADER.toLowerCase()])]]);
    const refused = await upload('noise.jpg', Buffer.alloc(2000, 7));
    expect(refused.statusCode).toBe(422);
    expect(told).toHaveLength(1);
  });

  it('imports each finished file as foreground work: the process’s jobs give way to it for the quiet time after', async () => {
    const done = await upload('foreground.jpg', photo);
    expect(done.statusCode, done.body).toBe(204);
    // A job worker asking now waits out the quiet time (a minute here) after the import.
    const stop = new AbortController();
    const cleared = foreground.clear(stop.signal).then(() => 'cleared');
    const soon = new Promise((resolve) => setTimeout(() => resolve('waiting'), 100));
    expect(await Promise.race([cleared, soon])).toBe('waiting');
    stop.abort();
    await cleared;
  });
});
