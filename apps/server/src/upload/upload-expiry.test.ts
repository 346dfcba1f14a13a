import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, storeSetups, type TestApp } from '../../test/app.ts';
import { signIn } from '../../test/auth.ts';
import { S3Bucket } from '../adapters/s3-store.ts';
import { PURGE_JOB } from '../jobs/purge.jobs.ts';

const API = '/assetportal/api/';
const FILES = `${API}upload/files`;
const HOUR = 3600_000;

const metadataHeader = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

describe.each(storeSetups)(
  'uploads left unfinished expire ($dialect, media in a $store; README "Editing")',
  ({ dialect, store }) => {
    let t: TestApp;
    let editor: { headers: Record<string, string>; userId: number };
    let collection: number;

    const tus = (method: 'POST' | 'HEAD' | 'PATCH', url: string, headers: Record<string, string>, payload?: Buffer) =>
      t.app.inject({
        method,
        url,
        headers: { ...editor.headers, 'tus-resumable': '1.0.0', ...headers },
        ...(payload ? { payload } : {}),
      });
    /** An upload begun `hoursAgo` with its first half sent: answers its URL and id. */
    const halfSent = async (name: string, hoursAgo: number) => {
      const bytes = Buffer.alloc(4000, 7);
      const made = await tus('POST', FILES, {
        'upload-length': String(bytes.length),
        'upload-metadata': metadataHeader({ filename: name, collection: String(collection) }),
      });
      expect(made.statusCode, made.body).toBe(201);
      const url = String(made.headers.location);
      const sent = await tus(
        'PATCH',
        url,
        { 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
        bytes.subarray(0, 2000),
      );
      expect(sent.statusCode, sent.body).toBe(204);
      const id = url.split('/').at(-1)!;
      await t.app.db.kysely
        .updateTable('upload')
        .set({ created_at: Date.now() - hoursAgo * HOUR })
        .where('id', '=', id)
        .execute();
      return { url, id };
    };
    /** What is left of uploads under way: the parts folder's files, or the objects under the parts prefix. */
    const parts = async (): Promise<string[]> => {
      if (store === 'folder') {
        const folder = path.join(t.settings.dataDir, 'upload-parts');
        return existsSync(folder) ? readdirSync(folder).sort() : [];
      }
      return (await new S3Bucket(t.bucket!.settings).store('upload-parts/').walk('')).map((f) => f.key);
    };
    const stateOf = async (id: string) =>
      (await t.app.db.kysely.selectFrom('upload').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;

    beforeAll(async () => {
      t = await startTestApp({
        dialect,
        store,
        settings: {
          groups: [{ name: 'editors', portalAccess: true }],
          catalogue: { defaultAccessGroups: ['editors'] },
        },
      });
      editor = await signIn(t, { name: 'edith', groups: ['editors'] });
      const made = await t.app.inject({
        method: 'POST',
        url: `${API}edit/collection`,
        headers: editor.headers,
        payload: { name: 'Press' },
      });
      collection = made.json<{ id: number }>().id;
    }, 60_000);
    afterAll(async () => t.close());

    it('the purge removes the parts of uploads open past editing.uploadExpiryHours (24), which stop counting', async () => {
      const stale = await halfSent('stale.jpg', 25);
      const recent = await halfSent('recent.jpg', 23);
      const { uploads } = t.app.services.repositories;
      expect(await uploads.usedSince(editor.userId, 0)).toBe(8000);
      expect((await parts()).filter((p) => p.startsWith(stale.id))).not.toEqual([]);

      const worker = t.app.services.jobWorker({
        pollMs: 20,
        concurrency: 1,
        recurring: [{ job: { name: PURGE_JOB, key: PURGE_JOB, payload: {} }, everyMs: 150 }],
      });
      worker.start();
      try {
        await vi.waitFor(async () => expect(await stateOf(stale.id)).toBe('expired'), {
          timeout: 10_000,
          interval: 50,
        });
        await worker.drain();
      } finally {
        await worker.stop();
      }

      const left = await parts();
      expect(left.filter((p) => p.startsWith(stale.id))).toEqual([]);
      expect(left.filter((p) => p.startsWith(recent.id))).not.toEqual([]);
      expect(await stateOf(recent.id)).toBe('open');
      expect(await uploads.usedSince(editor.userId, 0)).toBe(4000);
      // A client that comes back to resume it learns it is gone; the recent one goes on.
      expect((await tus('HEAD', stale.url, {})).statusCode).toBe(404);
      const head = await tus('HEAD', recent.url, {});
      expect(head.statusCode).toBe(200);
      expect(head.headers['upload-offset']).toBe('2000');
    }, 60_000);
  },
);
