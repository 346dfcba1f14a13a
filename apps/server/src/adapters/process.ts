import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

/**
 * Child processes that outlive one call (exiftool -stay_open), each with the function that ends it.
 * An adapter registers its helper when it starts it; whoever ends the work ends them all: the
 * server and the commands when they stop (services.close()), every server test file after its tests
 * (apps/server/test/setup.ts). `npm test` fails when a process of its run is left behind.
 */
const helpers = new Map<string, () => Promise<void>>();

export function registerHelper(name: string, end: () => Promise<void>): void {
  helpers.set(name, end);
}

export function unregisterHelper(name: string): void {
  helpers.delete(name);
}

/** Ends every running helper. */
export async function endHelpers(): Promise<void> {
  const ends = [...helpers.values()];
  helpers.clear();
  await Promise.all(ends.map((end) => end()));
}

/**
 * The CPU priority (nice value) of the tools: conversions, page renders and posters are batch work,
 * so the portal's own answers (searches, pages) go first when the cores are busy with them.
 */
export const TOOL_NICE = 10;

/**
 * Runs a command line tool and answers its stdout; a non-zero exit becomes an error with its stderr.
 * An aborted `signal` kills the tool; the promise rejects with the signal's reason once it has ended
 * (so its output file is no longer written to).
 */
export function runTool(
  cmd: string,
  args: string[],
  options: { timeoutMs?: number; env?: Record<string, string | undefined>; signal?: AbortSignal } = {},
): Promise<Buffer> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
    });
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, TOOL_NICE);
      } catch {
        // Ended already, or the system refuses: the tool runs at the server's priority.
      }
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, options.timeoutMs)
      : undefined;
    const stop = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', stop, { once: true });
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      reject(new Error(`${cmd} could not be started: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      if (signal?.aborted) return reject(signal.reason as Error);
      if (code === 0) return resolve(Buffer.concat(out));
      const stderr = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-3).join(' ');
      reject(
        new Error(timedOut ? `${cmd} took too long and was stopped` : `${cmd} failed: ${stderr || `exit ${code}`}`),
      );
    });
  });
}
