import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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
