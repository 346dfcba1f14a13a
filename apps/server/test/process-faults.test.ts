import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultGlobalConfig, type GlobalConfig } from '@vitrine/contract/global-config';
import { CatalogueRepository } from '../src/catalogue/catalogue.repository.ts';
import { newAssetWrite } from '../src/catalogue/new-asset.ts';
import { loadSettings } from '../src/settings.ts';
import { openServices, type Services } from '../src/services.ts';
import { xsrfHeaders } from './auth.ts';
import { startTestCluster, type TestCluster } from './postgres-cluster.ts';
import { slowDownload, startServerProcess, tempDataDir, type ServerProcess } from './server-process.ts';

const api = '/assetportal/api/';
const REQUEST_TIMEOUT_SECONDS = 3;

const configNumbered = (n: number): GlobalConfig => ({
  ...defaultGlobalConfig,
  global: { ...defaultGlobalConfig.global, website_title: `Version ${n}` },
  themes: {
    ...defaultGlobalConfig.themes,
    options: defaultGlobalConfig.themes.options.map((t) =>
      t.key === 'light' ? { ...t, appearance: { ...t.appearance, primary: `#${String(n).padStart(6, '0')}` } } : t,
    ),
  },
});

/** Whether a received zip passes Info-ZIP's own test, as the person who downloaded it would check. */
function zipIsWhole(bytes: Buffer, dir: string): boolean {
  const file = path.join(dir, `${randomBytes(4).toString('hex')}.zip`);
  writeFileSync(file, bytes);
  try {
    execFileSync('unzip', ['-tq', file], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** A whole answer's body, or the error that ended it. */
async function fetchAll(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Buffer; length: number }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, body, length: Number(res.headers.get('content-length') ?? -1) };
}

/** Sends raw bytes and answers what the server wrote back before it closed the connection. */
async function raw(port: number, send: (socket: net.Socket) => void, waitMs = 10_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`${answer}[still open after ${waitMs} ms]`);
    }, waitMs);
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (answer += d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('connect', () => send(socket));
  });
}

/**
 * Faults that several processes on PostgreSQL must survive (docs/scale-out.md "Faults"): real
 * server processes, a throwaway PostgreSQL cluster of their own (so it can be restarted), one shared
 * data folder.
 */
describe('faults with two server processes on PostgreSQL (docs/scale-out.md "Faults")', () => {
  let cluster: TestCluster;
  let data: ReturnType<typeof tempDataDir>;
  let env: Record<string, string>;
  let services: Services;
  const processes: ServerProcess[] = [];
  let admin: Record<string, string>;
  let user: Record<string, string>;
  let assetIds: number[];

  const start = async () => {
    const p = await startServerProcess(env);
    processes.push(p);
    return p;
  };

  beforeAll(async () => {
    cluster = await startTestCluster();
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    await client.query('CREATE DATABASE vitrine');
    await client.end();
    data = tempDataDir();
    const dataDir = path.join(data.dir, 'data');
    env = {
      DATA_DIR: dataDir,
      DATABASE_URL: cluster.url.replace(/\/postgres$/, '/vitrine'),
      REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_SECONDS),
      SHUTDOWN_GRACE_SECONDS: '1',
    };
    mkdirSync(dataDir, { recursive: true });
    // Both processes start at once on the empty database: the migrations run once.
    await Promise.all([start(), start()]);
    services = await openServices(loadSettings({ ...env, LOG_LEVEL: 'silent' }));
    const users = services.repositories.users;
    admin = {
      authorization: `Bearer ${await services.auth.openSession(await users.createUser({ name: 'ada', groups: ['admins'] }))}`,
      ...xsrfHeaders,
    };
    user = {
      authorization: `Bearer ${await services.auth.openSession(await users.createUser({ name: 'uwe', groups: ['users'] }))}`,
      ...xsrfHeaders,
    };
    // Three originals of 12 MB each: a zip of them takes a while to stream.
    const media = path.join(data.dir, 'media');
    mkdirSync(media);
    const writes = [1, 2, 3].map((n) => {
      const file = path.join(media, `part-${n}.bin`);
      writeFileSync(file, randomBytes(12 * 1024 * 1024));
      return newAssetWrite({
        filename: `part-${n}.bin`,
        source_path: file,
        sha256: randomBytes(32).toString('hex'),
        file_size: 12 * 1024 * 1024,
        mime: 'application/octet-stream',
        format: 'bin',
        asset_group: 'document',
        access: ['users'],
      });
    });
    const saved = await new CatalogueRepository(services.db.kysely).saveAssets(writes, { queueDerivatives: false });
    assetIds = saved.map((s) => s.id);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await services?.close();
    cluster?.stop();
    data?.remove();
  });

  const alive = () => processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
  /** The two running processes; a test fails here, saying so, when one of them is not running. */
  const twoAlive = () => {
    const [first, second] = alive();
    if (!first || !second) throw new Error(`two processes should be running, ${alive().length} are`);
    return [first, second] as const;
  };

  it('a process killed during config saves leaves the old or the new config, never a mix; the other keeps serving', async () => {
    const [victim, other] = twoAlive();
    const served: number[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        served.push((await fetchAll(`${other.url}${api}config/global`)).status);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const saves = Array.from({ length: 40 }, (_, i) =>
      fetch(`${victim.url}${api}config/global`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify(configNumbered(i + 1)),
      }).then(
        (r) => r.status,
        () => 'cut',
      ),
    );
    await new Promise((r) => setTimeout(r, 150));
    victim.child.kill('SIGKILL');
    const outcomes = await Promise.all(saves);
    reading = false;
    await reader;

    expect(outcomes).toContain('cut');
    expect(served.length).toBeGreaterThan(0);
    expect(served.every((s) => s === 200)).toBe(true);
    const stored = (await fetchAll(`${other.url}${api}config/global/stored`, { headers: admin })).body;
    const config = (JSON.parse(stored.toString()) as { config: GlobalConfig | null }).config;
    const history = JSON.parse(
      (await fetchAll(`${other.url}${api}config/history?limit=1`, { headers: admin })).body.toString(),
    ) as { versions: { id: number }[] };
    if (config) {
      const n = Number(config.global.website_title.replace('Version ', ''));
      const light = config.themes.options.find((t) => t.key === 'light');
      expect(light?.appearance.primary).toBe(`#${String(n).padStart(6, '0')}`);
      // The document and its newest history entry were written together.
      expect(history.versions).toHaveLength(1);
      const newest = await services.repositories.config.historyEntry('global', '', history.versions[0]!.id);
      expect(newest).toEqual(config);
    } else {
      expect(history.versions).toEqual([]);
    }
    await start();
  }, 120_000);

  it('a process killed during a zip leaves its client with a download it can tell is broken; the other serves it whole', async () => {
    const [victim, other] = twoAlive();
    const ask = await fetchAll(
      `${other.url}${api}download?operation=zip&csetid=0&${assetIds.map((id) => `id=${id}`).join('&')}`,
      {
        headers: user,
      },
    );
    expect(ask.status).toBe(200);
    const zipUrl = (JSON.parse(ask.body.toString()) as { url: string }).url;
    const local = (base: string) =>
      base + new URL(zipUrl, 'http://portal').pathname + new URL(zipUrl, 'http://portal').search;

    const download = await slowDownload(local(victim.url));
    expect(download.announced).toBeGreaterThan(36 * 1024 * 1024);
    victim.child.kill('SIGKILL');
    await victim.exited;
    download.resume();
    const ended = await download.ended;
    expect(ended.complete).toBe(false);
    expect(ended.bytes).toBeLessThan(download.announced);
    expect(zipIsWhole(download.body(), data.dir)).toBe(false);

    const whole = await fetchAll(local(other.url));
    expect(whole.status).toBe(200);
    expect(whole.body.length).toBe(whole.length);
    expect(zipIsWhole(whole.body, data.dir)).toBe(true);
    await start();
  }, 120_000);

  it('PostgreSQL restarted under load: no request hangs, readiness goes red and green, processes reconnect', async () => {
    const running = alive();
    const timings: { status: number | string; ms: number }[] = [];
    const hit = async (p: ServerProcess, call: string, headers: Record<string, string> = user) => {
      const t0 = Date.now();
      const status = await fetch(`${p.url}${api}${call}`, { headers, signal: AbortSignal.timeout(20_000) }).then(
        async (r) => {
          await r.arrayBuffer();
          return r.status;
        },
        (err: Error) => err.name,
      );
      timings.push({ status, ms: Date.now() - t0 });
      return status;
    };
    // A balancer asks without a session, as anyone may.
    const ready = (p: ServerProcess) => hit(p, 'ready', {});
    // Connections in every pool, so the restart ends open sessions.
    await Promise.all(running.flatMap((p) => [hit(p, 'search?solr_q=*'), hit(p, 'session/check'), ready(p)]));

    cluster.halt();
    try {
      await Promise.all(running.flatMap((p) => [hit(p, 'search?solr_q=*'), hit(p, 'config/bookmarks'), ready(p)]));
      for (const p of running) expect(await ready(p)).toBe(503);
    } finally {
      // Also when a check above failed: the tests after this one need the database.
      cluster.resume();
    }

    for (const p of running) {
      await expect.poll(() => ready(p), { timeout: 30_000, interval: 250 }).toBe(200);
      expect(await hit(p, 'search?solr_q=*')).toBe(200);
      expect(await hit(p, 'config/bookmarks')).toBe(200);
    }
    // No request waited for the timeout of its client, and no process died.
    expect(timings.filter((t) => t.status === 'TimeoutError')).toEqual([]);
    expect(Math.max(...timings.map((t) => t.ms))).toBeLessThan(15_000);
    expect(alive()).toHaveLength(running.length);
  }, 120_000);

  it('garbage, huge headers, big bodies and slow clients get 4xx or are cut off; the process keeps serving', async () => {
    const [p] = alive();
    if (!p) throw new Error('no process is running');
    expect(await raw(p.port, (s) => s.end('\u0000\u0001garbage\r\n\r\n'))).toMatch(/^HTTP\/1\.1 400/);
    const hugeHeader = `GET ${api}health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`;
    expect(await raw(p.port, (s) => s.write(hugeHeader))).toMatch(/^HTTP\/1\.1 431/);

    const badJson = await fetchAll(`${p.url}${api}config/bookmarks`, {
      method: 'POST',
      headers: { ...user, 'content-type': 'application/json' },
      body: '{"id": [',
    });
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body.toString())).toMatchObject({
      error: expect.any(String),
      message: expect.any(String),
    });
    const bigBody = await fetchAll(`${p.url}${api}config/bookmarks`, {
      method: 'POST',
      headers: { ...user, 'content-type': 'application/json' },
      body: JSON.stringify(Array.from({ length: 200_000 }, (_, i) => ({ id: String(i) }))),
    }).catch(() => ({ status: 413, body: Buffer.alloc(0), length: 0 }));
    expect(bigBody.status).toBe(413);

    // Slow clients: headers a byte at a time, and a body that never comes, are cut off in time.
    const slowHeaders = Array.from({ length: 20 }, () =>
      raw(p.port, (s) => {
        s.write(`GET ${api}health HTTP/1.1\r\nHost: x\r\n`);
        const drip = setInterval(() => s.write('X'), 200);
        s.on('close', () => clearInterval(drip));
      }),
    );
    const slowBody = raw(p.port, (s) =>
      s.write(
        `POST ${api}config/bookmarks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[`,
      ),
    );
    // Meanwhile the process answers others.
    expect((await fetchAll(`${p.url}${api}health`)).status).toBe(200);
    for (const answer of await Promise.all([...slowHeaders, slowBody])) {
      expect(answer).not.toContain('still open');
    }
    expect((await fetchAll(`${p.url}${api}health`)).status).toBe(200);
    expect(alive()).toContain(p);
  }, 60_000);
});
