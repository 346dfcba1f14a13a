import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import path from 'node:path';

const cli = path.resolve(import.meta.dirname, '../bin/vitrine.mjs');

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

/**
 * A real `vitrine serve` process on a free loopback port, as operators run it: its own Node, its own
 * database pool and job worker. `env` sets DATABASE_URL, DATA_DIR and the rest.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [cli, 'serve'], {
    // Info level at least: the line that names the port is an info line.
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in 60 s:\n${output}`)), 60_000);
    const look = () => {
      const m = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', look);
        resolve(Number(m[1]));
      }
    };
    child.stdout.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it listened:\n${output}`));
    });
  });
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
