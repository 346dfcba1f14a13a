import { spawn } from 'node:child_process';
import path from 'node:path';

export interface Timing {
  median: number;
  p95: number;
}

/** Median and p95 of some times (sorts them). */
export function summary(times: number[]): Timing {
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)]!,
    p95: times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)]!,
  };
}

/**
 * Times answers through HTTP as a browser asks, by a client in a process of its own
 * (http-client.mjs): `time(url)` sends `warmups` requests, then times `runs`. `headers` go with each
 * request (e.g. an admin's session).
 */
export function httpTimer(): {
  time: (
    url: string,
    runs: number,
    options?: { warmups?: number; headers?: Record<string, string> },
  ) => Promise<Timing>;
  close: () => void;
} {
  const client = spawn(process.execPath, [path.join(import.meta.dirname, 'http-client.mjs')], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    time: (url, runs, { warmups = 20, headers = {} } = {}) =>
      new Promise<Timing>((resolve, reject) => {
        client.once('message', (answer: { times?: number[]; error?: string }) =>
          answer.times ? resolve(summary(answer.times)) : reject(new Error(answer.error)),
        );
        client.send({ url, warmups, runs, headers });
      }),
    close: () => client.kill(),
  };
}
