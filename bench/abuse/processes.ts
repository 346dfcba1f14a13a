import type { ChildProcess } from 'node:child_process';

/** What the abuse benches share: their log lines, percentiles, and starting and stopping servers. */

export function step(what: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${what}`);
}

export const percentile = (xs: readonly number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/**
 * Waits until a server process answers its health check (`healthy`), keeping the
 * end of its output for the error when it exits first or takes more than two minutes.
 */
export async function untilHealthy(child: ChildProcess, healthy: () => Promise<boolean>): Promise<void> {
  let log = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (log = (log + c).slice(-20_000)));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (log = (log + c).slice(-20_000)));
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`a server exited before it listened:\n${log}`);
    if (Date.now() - started > 120_000) throw new Error(`a server did not start in 120 s:\n${log}`);
    if (await healthy()) return;
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Stops a server as an orchestrator does: SIGTERM, then SIGKILL after 30 s. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const ended = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await ended;
  clearTimeout(timer);
}
