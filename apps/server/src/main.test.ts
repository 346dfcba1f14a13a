import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { vitrineCli } from '../test/cli.ts';
import { makeImage } from '../test/media-fixtures.ts';
import { freePort } from '../test/postgres-cluster.ts';
import {
  acceptsConnections,
  slowDownload,
  startServerProcess,
  tempDataDir,
  type ServerProcess,
} from '../test/server-process.ts';

const HERO = '/assetportal/api/config/loginHero';
// Far more than loopback socket buffers hold, so the answer is still being sent when the signal comes.
const HERO_BYTES = 48 * 1024 * 1024;

describe('graceful shutdown of a server process (docs/scale-out.md "Stopping a process")', () => {
  let server: ServerProcess | undefined;
  let data: ReturnType<typeof tempDataDir>;

  const start = async (graceSeconds: number) => {
    data = tempDataDir();
    mkdirSync(path.join(data.dir, 'config-files'));
    const png = Buffer.alloc(HERO_BYTES);
    Buffer.from('89504e470d0a1a0a', 'hex').copy(png);
    writeFileSync(path.join(data.dir, 'config-files', 'loginHero'), png);
    server = await startServerProcess({ DATA_DIR: data.dir, SHUTDOWN_GRACE_SECONDS: String(graceSeconds) });
    return server;
  };
  afterEach(async () => {
    await server?.kill();
    data.remove();
  });

  it('SIGTERM refuses new connections, lets a running download finish whole, and exits 0', async () => {
    const s = await start(30);
    const download = await slowDownload(s.url + HERO);
    expect(download.announced).toBe(HERO_BYTES);
    s.child.kill('SIGTERM');
    await expect.poll(() => acceptsConnections(s.url), { timeout: 10_000 }).toBe(false);
    expect(s.child.exitCode).toBeNull();
    download.resume();
    expect(await download.ended).toEqual({ complete: true, bytes: HERO_BYTES });
    expect(await s.exited).toBe(0);
    expect(s.log()).toContain('shutting down');
  }, 90_000);

  it('a download that outlasts the grace time is cut short, visibly to its client, and the process exits', async () => {
    const s = await start(1);
    const download = await slowDownload(s.url + HERO);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    // The client learns of the cut when it reads on: the answer ends before its announced length.
    download.resume();
    const ended = await download.ended;
    expect(ended.complete).toBe(false);
    expect(ended.bytes).toBeLessThan(download.announced);
  }, 90_000);
});

describe('SQLite is served by one process (README "Command line")', () => {
  const servers: ServerProcess[] = [];
  let data: ReturnType<typeof tempDataDir>;
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.kill();
    data.remove();
  });

  it('refuses a second serve on the same database, lets commands run beside the first, and starts again after it ended', async () => {
    data = tempDataDir();
    const env = { DATA_DIR: data.dir, LOG_LEVEL: 'silent' };
    const run = async (args: string[]) =>
      spawnSync(process.execPath, [...vitrineCli, ...args], {
        env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(await freePort()) },
        encoding: 'utf8',
      });
    const first = await startServerProcess(env);
    servers.push(first);

    const second = await run(['serve']);
    expect(second.status).toBe(1);
    expect(second.stderr).toBe(
      `Another vitrine serve (process ${first.child.pid}) is serving the SQLite database ${path.join(data.dir, 'vitrine.db')}. ` +
        'SQLite is served by one process (commands such as import, users and backup may run beside it). To run ' +
        'several server processes, use PostgreSQL: set DATABASE_URL (README "Several processes behind a balancer").\n',
    );
    const media = path.join(data.dir, 'media');
    await makeImage(path.join(media, 'quay.jpg'), { width: 64, height: 48 });
    const imported = await run(['import', '--no-derivatives', media]);
    expect(imported.stdout).toMatch(/Imported 1, /);
    expect(imported.status).toBe(0);

    // A server stopped by SIGTERM gives the database up.
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const third = await startServerProcess(env);
    servers.push(third);
    // One killed leaves its socket file behind, but nobody answers on it: the next start goes ahead.
    await third.kill();
    expect(existsSync(path.join(data.dir, 'vitrine.db-serve.sock'))).toBe(true);
    servers.push(await startServerProcess(env));
  }, 180_000);
});
