import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
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
