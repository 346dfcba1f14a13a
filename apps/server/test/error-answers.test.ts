import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './app.ts';
import { signIn } from './auth.ts';
import { dialects } from './databases.ts';
import { makeClip, makeImage, makePdf } from './media-fixtures.ts';

const API = '/assetportal/api/';

describe.each(dialects)('error answers name no file on the server on %s (docs/security.md)', (dialect) => {
  let t: TestApp;
  let dir: string;
  let user: Record<string, string>;
  const ids: Record<string, number> = {};
  /** Every answer that was not a success, as sent. */
  const failures: { url: string; status: number; body: string }[] = [];

  beforeAll(async () => {
    t = await startTestApp({ dialect, settings: { groups: [{ name: 'users', downloadSets: [0, 1, 2, 3, 4, 5, 6] }] } });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-errors-'));
    const media = path.join(dir, 'media');
    await makeImage(path.join(media, 'broken.jpg'), { width: 800, height: 600 });
    await makeImage(path.join(media, 'folder.png'), { width: 640, height: 480, format: 'png' });
    makePdf(
      path.join(media, 'manual.pdf'),
      Array.from({ length: 12 }, (_, i) => `Page ${i + 1}`),
    );
    makeClip(path.join(media, 'clip.mp4'), { seconds: 1 });
    await t.app.services.importer().importFolder(media);
    const worker = t.app.services.jobWorker({ pollMs: 50 });
    await worker.drain();
    await worker.stop();
    for (const a of await t.app.db.kysely.selectFrom('asset').select(['id', 'filename']).execute()) {
      ids[a.filename] = a.id;
    }
    // After the import: a picture that no longer decodes, one that became a folder, a document that
    // is no PDF any more.
    writeFileSync(
      path.join(media, 'broken.jpg'),
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(900, 7)]),
    );
    rmSync(path.join(media, 'folder.png'));
    mkdirSync(path.join(media, 'folder.png'));
    writeFileSync(path.join(media, 'manual.pdf'), '%PDF-1.4\nnot a document any more\n');
    writeFileSync(path.join(media, 'clip.mp4'), Buffer.alloc(4096, 3));
    user = (await signIn(t, { groups: ['users'] })).headers;
  }, 120_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A call and, when it answers a media URL, that URL; failures are kept. */
  const call = async (url: string): Promise<void> => {
    const res = await t.app.inject({ url: url.startsWith('/') ? url : API + url, headers: user });
    if (res.statusCode >= 400) {
      failures.push({ url, status: res.statusCode, body: res.body });
      return;
    }
    const answer = String(res.headers['content-type']).startsWith('application/json')
      ? res.json<{ url?: unknown }>()
      : {};
    if (typeof answer.url === 'string') await call(answer.url);
  };

  const leaks = (body: string): string[] =>
    [
      path.resolve(t.settings.dataDir),
      tmpdir(),
      '/tmp',
      '/work',
      path.resolve(import.meta.dirname, '..'),
      'node_modules',
    ]
      .filter((p) => body.includes(p))
      .concat(/\bat .*:\d+:\d+/.test(body) ? ['a stack frame'] : []);

  it('conversions of a broken picture, a file that became a folder and a broken document', async () => {
    for (const name of ['broken.jpg', 'folder.png', 'clip.mp4']) {
      for (const set of t.settings.file.conversionSets.map((s) => s.id).concat(0)) {
        await call(`download/?id=${ids[name]}&csetid=${set}`);
      }
    }
    await call(`download/video/${ids['clip.mp4']}`);
    await call(`download/preview?id=${ids['manual.pdf']}&page=11`);
    await call(`download/?id=${ids['manual.pdf']}&csetid=0`);
    await call(`download?operation=zip&csetid=0&id=${ids['broken.jpg']},${ids['folder.png']}`);
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) expect(leaks(f.body), `${f.url} ${f.status}: ${f.body}`).toEqual([]);
  });

  it('database failures answer internal, without names of the server', async () => {
    const before = failures.length;
    await sql`DROP TABLE config_document`.execute(t.app.db.kysely).catch(() => undefined);
    await sql`DROP TABLE bookmark`.execute(t.app.db.kysely).catch(() => undefined);
    await call('config/global');
    await call('config/bookmarks');
    const answers = failures.slice(before);
    expect(answers.map((f) => f.status)).toEqual([500, 500]);
    for (const f of answers) {
      expect(JSON.parse(f.body)).toMatchObject({ error: 'internal' });
      expect(leaks(f.body), f.body).toEqual([]);
    }
  });
});
