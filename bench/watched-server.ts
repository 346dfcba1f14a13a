import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { watchedServer } from './server-build.ts';

/** Resident memory of a process in MB (VmRSS). */
export function residentMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** The longest event-loop delay of the server since the last reset (serve-watched.mjs). */
export interface LoopDelay {
  maxMs: number;
  p99Ms: number;
  meanMs: number;
}

export interface Server {
  url: string;
  pid: number;
  readySeconds: number;
  /** Starts a new measurement of the server's event-loop delay. */
  resetLoop: () => Promise<void>;
  /** The event-loop delay since resetLoop. */
  loop: () => Promise<LoopDelay>;
  stop: () => void;
  /** Resolves when the process has ended (after `stop`). */
  exited: Promise<void>;
}

/**
 * Starts `vitrine serve` on the catalogue (with its event loop watched, serve-watched.mjs) and waits
 * until `GET ready` answers 200.
 */
export async function startServer(env: Record<string, string>): Promise<Server> {
  const port = 18_700 + Math.floor(Math.random() * 200);
  const started = performance.now();
  // BENCH_SERVER_CPU_PROF=DIR: the server writes a CPU profile of its whole run there (node --cpu-prof).
  const profile = process.env.BENCH_SERVER_CPU_PROF;
  const child = spawn(
    process.execPath,
    [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), watchedServer],
    {
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  const ask = <T>(message: string) =>
    new Promise<T>((resolve) => {
      child.once('message', (answer) => resolve(answer as T));
      child.send(message);
    });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server ended with ${child.exitCode}`);
    const res = await fetch(`${url}/assetportal/api/ready`).catch(() => undefined);
    if (res?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    pid: child.pid!,
    readySeconds: (performance.now() - started) / 1000,
    resetLoop: async () => {
      await ask('reset');
    },
    loop: () => ask<LoopDelay>('report'),
    stop: () => child.kill('SIGTERM'),
    exited,
  };
}
