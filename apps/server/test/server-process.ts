import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { vitrineCli } from './cli.ts';
import { freePort } from './postgres-cluster.ts';

export interface ServerProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) when the process ended. */
  exited: Promise<number | string>;
  /** Everything the process logged so far (pino JSON lines). */
  log(): string;
  /** Ends the process with SIGKILL unless it ended already, and waits for it. */
  kill(): Promise<void>;
}

const webDist = path.resolve(import.meta.dirname, '../../web/dist');

/**
 * A real `vitrine serve` process (compiled from the sources, test/cli.ts) on a free loopback port, as operators run it: its
 * own Node, its own database pool and job worker. `env` sets DATABASE_URL, DATA_DIR and the rest.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...vitrineCli, 'serve'], {
    // The build's own default for the web app lies beside it, not in apps/web: name the one the
    // sources would serve.
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', WEB_DIST: webDist, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  const started = Date.now();
  for (;;) {
    if (gone) throw new Error(`the server exited before it listened:\n${output}`);
    if (Date.now() - started > 90_000) throw new Error(`the server did not start in 90 s:\n${output}`);
    const up = await fetch(`http://127.0.0.1:${port}/assetportal/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    exited,
    log: () => output,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A temporary data folder for server processes; `remove` deletes it. */
export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-proc-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface SlowDownload {
  announced: number;
  received(): number;
  /** The bytes received so far. */
  body(): Buffer;
  /** Starts reading again (the download was paused after its first bytes). */
  resume(): void;
  /** Resolves when the connection ended, telling whether the whole answer arrived. */
  ended: Promise<{ complete: boolean; bytes: number }>;
}

/** A download that reads its first bytes and then stops reading, as a slow client does. */
export async function slowDownload(url: string): Promise<SlowDownload> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      const ended = new Promise<{ complete: boolean; bytes: number }>((done) => {
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          chunks.push(chunk);
        });
        res.on('end', () => done({ complete: res.complete, bytes }));
        res.on('error', () => done({ complete: false, bytes }));
        res.on('close', () => done({ complete: res.complete, bytes }));
      });
      res.once('data', () => {
        res.pause();
        resolve({
          announced: Number(res.headers['content-length']),
          received: () => bytes,
          body: () => Buffer.concat(chunks),
          resume: () => res.resume(),
          ended,
        });
      });
    });
    req.on('error', reject);
  });
}

/** Whether a fresh connection is still accepted. */
export async function acceptsConnections(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/assetportal/api/health`, { agent: false }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
  });
}
