import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { signIn, xsrfHeaders } from '../../test/auth.ts';
import { dialects } from '../../test/databases.ts';
import { makeClip } from '../../test/media-fixtures.ts';
import { conversionKey } from './conversion-cache.ts';

const API = '/assetportal/api/';
const VIDEO_SET = 3;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The ffmpeg processes this process (any thread) started that read `file`, from /proc. */
function ffmpegsOf(file: string): number[] {
  const pids = readdirSync('/proc/self/task').flatMap((task) =>
    readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean),
  );
  return pids
    .filter((pid) => {
      try {
        return (
          readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'ffmpeg' &&
          readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(file)
        );
      } catch {
        return false; // it ended between the two reads
      }
    })
    .map(Number);
}

const alive = (pid: number) => existsSync(`/proc/${pid}`);

/** Waits for a state of the server that follows from what the test did (not a measure of speed). */
async function until<T>(look: () => T | undefined | false | Promise<T | undefined | false>, what: string): Promise<T> {
  const end = Date.now() + 20_000;
  for (;;) {
    const found = await look();
    if (found) return found;
    if (Date.now() > end) throw new Error(`gave up waiting until ${what}`);
    await sleep(20);
  }
}

/** Files below `dir`, with their paths relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

interface Asked {
  answer: Promise<{ status: number; body: string }>;
  /** Closes the connection before the answer came, as a closed browser tab does. */
  leave(): void;
}

describe.each(dialects)('fair use of the conversion pool (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  let base: string;
  const lines: string[] = [];
  const ids: Record<string, number> = {};
  const sha: Record<string, string> = {};
  /** ffmpeg processes a test stopped (SIGSTOP): let go again whatever happens. */
  const stopped = new Set<number>();
  let guests = 0;

  const logged = (msg: string): { msg: string; asset?: number }[] =>
    lines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg: string; asset?: number })
      .filter((l) => l.msg === msg);

  const guest = async (): Promise<Record<string, string>> => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}session/get`,
      headers: xsrfHeaders,
      remoteAddress: `198.51.100.${++guests}`,
    });
    expect(res.statusCode).toBe(200);
    return { authorization: `Bearer ${res.json().session as string}` };
  };
  const downloadUrl = (name: string) => `${API}download/?id=${ids[name]}&csetid=${VIDEO_SET}`;
  const download = (headers: Record<string, string>, name: string) => t.app.inject({ url: downloadUrl(name), headers });

  /** The download call over a real connection, which the test may close before the answer. */
  const ask = (headers: Record<string, string>, name: string): Asked => {
    let request: http.ClientRequest | undefined;
    const answer = new Promise<{ status: number; body: string }>((resolve) => {
      request = http.get(`${base}${downloadUrl(name)}`, { headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      request.on('error', () => resolve({ status: 0, body: '' }));
    });
    return { answer, leave: () => request?.destroy() };
  };

  /** Waits for the conversion's ffmpeg to start and to write its output, then holds it (SIGSTOP). */
  const holdConverter = async (name: string): Promise<number> => {
    const pid = await until(() => ffmpegsOf(path.join(dir, 'media', name))[0], `ffmpeg converts ${name}`);
    await until(() => scratch(name).length > 0, `ffmpeg writes the conversion of ${name}`);
    process.kill(pid, 'SIGSTOP');
    stopped.add(pid);
    return pid;
  };
  const letGo = (pid: number) => {
    if (alive(pid)) process.kill(pid, 'SIGCONT');
    stopped.delete(pid);
  };
  /** The conversion's files being written (scratch files) of a video. */
  const scratch = (name: string) =>
    filesUnder(path.join(t.settings.dataDir, 'conversions')).filter(
      (f) => f.includes(sha[name] ?? '-') && f.includes('.tmp.'),
    );
  const conversionRows = (name: string) =>
    t.app.db.kysely
      .selectFrom('conversion')
      .select(['status', 'path'])
      .where('sha256', '=', sha[name] ?? '')
      .execute();

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      settings: {
        work: {
          convert: { perProcess: 1, total: 2 },
          queue: 2,
          waitSeconds: 2,
          conversions: { accountShare: 0.5, guestMaxMinutes: 1 },
        },
      },
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-fairness-'));
    // Each its own content (tone); long enough that converting one is caught while it runs.
    const clips: [string, number, string, number][] = [
      ['held.mp4', 20, '320x240', 300],
      ['gone.mp4', 20, '320x240', 400],
      ['joined.mp4', 20, '320x240', 500],
      ['short1.mp4', 1, '320x240', 600],
      ['short2.mp4', 1, '320x240', 700],
      ['long.mp4', 70, '64x48', 800],
    ];
    for (const [name, seconds, size, frequency] of clips) {
      makeClip(path.join(dir, 'media', name), { seconds, size, frequency });
    }
    await t.app.services.importer().importFolder(path.join(dir, 'media'));
    const worker = t.app.services.jobWorker({ pollMs: 50 });
    await worker.drain();
    await worker.stop();
    for (const a of await t.app.db.kysely.selectFrom('asset').select(['id', 'filename', 'sha256']).execute()) {
      ids[a.filename] = a.id;
      sha[a.filename] = a.sha256;
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 180_000);
  afterEach(() => {
    for (const pid of stopped) letGo(pid);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a slot for account holders: while guests hold the rest, a guest is refused and an account holder converts', async () => {
    let heldAnswered = false;
    const held = download(await guest(), 'held.mp4').finally(() => (heldAnswered = true));
    const pid = await holdConverter('held.mp4');

    // The guests' share (one of two slots) is taken: another guest waits its turn, then hears busy.
    const refused = await download(await guest(), 'short1.mp4');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'busy' });

    // An account holder's conversion starts and ends while the guest's still holds its slot.
    const account = await signIn(t, { groups: ['users'] });
    const converted = await download(account.headers, 'short2.mp4');
    expect(converted.statusCode).toBe(200);
    expect(heldAnswered).toBe(false);

    letGo(pid);
    expect((await held).statusCode).toBe(200);
  }, 90_000);

  it('stops a conversion whose only caller went away: ffmpeg ends, its partial file and its claim are gone', async () => {
    const call = ask(await guest(), 'gone.mp4');
    const pid = await holdConverter('gone.mp4');
    expect(await conversionRows('gone.mp4')).toEqual([{ status: 'running', path: null }]);

    call.leave();
    await until(() => !alive(pid), 'the stopped conversion’s ffmpeg ended');
    stopped.delete(pid);
    await until(async () => (await conversionRows('gone.mp4')).length === 0, 'the conversion’s claim is dropped');
    expect(scratch('gone.mp4')).toEqual([]);
    expect(
      filesUnder(path.join(t.settings.dataDir, 'conversions')).filter((f) => f.includes(sha['gone.mp4'] ?? '-')),
    ).toEqual([]);
    expect(logged('conversion stopped: nobody waits for it')).toMatchObject([{ asset: ids['gone.mp4'] }]);
    expect((await call.answer).status).toBe(0);

    // Asked again, it is made afresh.
    expect((await download(await guest(), 'gone.mp4')).statusCode).toBe(200);
    expect(await conversionRows('gone.mp4')).toMatchObject([{ status: 'done' }]);
  }, 90_000);

  it('goes on with a conversion that a second caller joined when only the first goes away', async () => {
    const first = ask(await guest(), 'joined.mp4');
    const pid = await holdConverter('joined.mp4');
    const account = await signIn(t, { groups: ['users'] });
    const second = ask(account.headers, 'joined.mp4');
    // The second caller holds its one-conversion lock while it waits for the same conversion.
    await until(
      async () =>
        (await t.app.db.kysely
          .selectFrom('download_lock')
          .select('owner')
          .where('owner', '=', `user:${account.userId}`)
          .executeTakeFirst()) !== undefined,
      'the second caller waits for the conversion',
    );
    await sleep(300);

    first.leave();
    expect((await first.answer).status).toBe(0);
    await sleep(500);
    expect(alive(pid)).toBe(true);

    letGo(pid);
    const answer = await second.answer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toHaveProperty('url');
    expect(await conversionRows('joined.mp4')).toMatchObject([{ status: 'done' }]);
    expect(logged('conversion stopped: nobody waits for it').map((l) => l.asset)).not.toContain(ids['joined.mp4']);
  }, 90_000);

  it('refuses a guest the conversion of a video longer than the guests’ limit, naming it; an account holder has it made', async () => {
    const refused = await download(await guest(), 'long.mp4');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'too_long',
      message:
        'long.mp4 is longer than 1 minute: only signed-in users can have video or audio this long converted. ' +
        'Please log in to download it in this format.',
    });
    expect(await conversionRows('long.mp4')).toEqual([]);

    const account = await signIn(t, { groups: ['users'] });
    expect((await download(account.headers, 'long.mp4')).statusCode).toBe(200);
  }, 90_000);
});

describe.each(dialects)('conversion sets made at import (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  const eager = {
    id: 3,
    title: 'Web video (MP4)',
    format: 'mp4',
    maxSize: 640,
    eager: true,
    assetGroups: ['video'],
    userGroups: ['public', 'users', 'admins'],
  } as const;
  const onDemand = {
    id: 7,
    title: 'Audio (AAC)',
    format: 'm4a',
    assetGroups: ['video', 'audio'],
    userGroups: ['public', 'users', 'admins'],
  } as const;

  beforeAll(async () => {
    t = await startTestApp({
      dialect,
      // Guests may have nothing larger than a kilobyte converted: every clip is above it.
      settings: { conversionSets: [eager, onDemand], work: { conversions: { guestMaxGB: 0.000001 } } },
    });
    dir = mkdtempSync(path.join(tmpdir(), 'vitrine-eager-'));
    makeClip(path.join(dir, 'media', 'clip.mp4'), { seconds: 1 });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes an eager set for the assets it applies to at import, and leaves the other sets to the first download', async () => {
    await t.app.services.importer().importFolder(path.join(dir, 'media'));
    const queued = await t.app.db.kysely
      .selectFrom('job')
      .select('name')
      .where('name', '=', 'eager-conversions')
      .execute();
    expect(queued).toHaveLength(1);
    const worker = t.app.services.jobWorker({ pollMs: 50 });
    await worker.drain();
    await worker.stop();

    const [asset] = await t.app.db.kysely.selectFrom('asset').select(['id', 'sha256']).execute();
    const rows = await t.app.db.kysely
      .selectFrom('conversion')
      .select(['cset_key', 'status', 'path'])
      .where('sha256', '=', asset?.sha256 ?? '')
      .execute();
    const settingsOf = (id: number) => t.settings.file.conversionSets.find((s) => s.id === id);
    expect(rows).toEqual([
      { cset_key: conversionKey(settingsOf(3)!), status: 'done', path: expect.stringMatching(/\.mp4$/) },
    ]);
    expect(existsSync(path.join(t.settings.dataDir, 'conversions', rows[0]?.path ?? '-'))).toBe(true);

    // Made already, the eager set costs no converter: a guest has it whatever the guests' limits.
    const session = await t.app.inject({ method: 'POST', url: `${API}session/get`, headers: xsrfHeaders });
    const headers = { authorization: `Bearer ${session.json().session as string}` };
    const ready = await t.app.inject({ url: `${API}download/?id=${asset?.id}&csetid=3`, headers });
    expect(ready.statusCode).toBe(200);
    // The set made on demand is over the guests' size limit.
    const refused = await t.app.inject({ url: `${API}download/?id=${asset?.id}&csetid=7`, headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'too_long',
      message:
        'clip.mp4 is larger than 0.000001 GB: only signed-in users can have files this large converted. ' +
        'Please log in to download it in this format.',
    });
  });
});
